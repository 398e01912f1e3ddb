import { useEffect, useRef, useState } from 'react';
import { connectRoom, roomSeats, type RoomLink } from '../../platform/roomClient';
import type { RoomSolution } from '../../views/room/protocol';
import { INITIAL_STUDENT_ROOM, reduceStudentRoom, type StudentRoomState } from './studentRoomState';

/** An answer given and not yet accepted by the server (sent, or waiting for the connection). */
interface PendingAnswer {
  stepIndex: number;
  value: string;
  /** With a challenge's "solved": the solution the challenge tab kept (docs/classroom.md). */
  solution?: RoomSolution;
}

/**
 * How long an answer sent may wait for the server's `accepted` before the socket is taken for
 * dead and replaced: a phone whose network went away is not always told its socket closed, and
 * the answer would wait on it for ever. The server acknowledges within milliseconds (its results
 * file written: server/classroomServer.ts).
 */
const ACCEPT_WITHIN_MS = 5000;

/** Whether the browser says it is online (https://developer.mozilla.org/en-US/docs/Web/API/Navigator/onLine). */
function useOnline(): boolean {
  const [online, setOnline] = useState(() => navigator.onLine);
  useEffect(() => {
    const on = () => setOnline(true);
    const off = () => setOnline(false);
    window.addEventListener('online', on);
    window.addEventListener('offline', off);
    return () => {
      window.removeEventListener('online', on);
      window.removeEventListener('offline', off);
    };
  }, []);
  return online;
}

/**
 * A student's connection: joins with the code (and, after a reload, the token this tab kept, so
 * they are the same student). `join(name)` is the first join; null until then when no token.
 * An answer given while the connection is down is kept and sent when it is back (the page
 * rejoins first); one the answers closed on before it could go is dropped, and the page says so.
 */
export function useStudentRoom(code: string) {
  // The name asked for, and how many times Join was pressed (a refused join can be tried again).
  const [joinAs, setJoinAs] = useState<{ name: string; attempt: number } | null>(() =>
    roomSeats.student(code) ? { name: '', attempt: 0 } : null,
  );
  const [room, setRoom] = useState<StudentRoomState>(INITIAL_STUDENT_ROOM);
  const [pending, setPendingState] = useState<PendingAnswer | null>(null);
  const pendingRef = useRef<PendingAnswer | null>(null);
  const setPending = (p: PendingAnswer | null) => {
    pendingRef.current = p;
    setPendingState(p);
  };
  // The last answer the room accepted from this page, with the solution that went with it (the
  // server echoes neither back: docs/classroom.md), so the phone can say whether it went.
  const [accepted, setAccepted] = useState<PendingAnswer | null>(null);
  const online = useOnline();
  const link = useRef<RoomLink | null>(null);
  /**
   * The token of this page's last join, kept in memory too: a browser that refuses to store it
   * (storage full, a private window that throws on setItem) joined as a new student on every
   * reconnection — counted twice on the projector, its answer gone from its screen.
   */
  const token = useRef<string | null>(null);
  useEffect(() => {
    if (joinAs === null) return;
    const name = joinAs.name;
    // Whether this link has been in the room (joined, or shown its end): a refusal before that
    // is its join's (a code no room has, a bad name), which the student corrects and joins
    // again with a new link — this one lets its socket go rather than hold one of the server's
    // connection slots joined to nothing (until its join deadline: docs/classroom.md).
    let inRoom = false;
    const l = connectRoom({
      hello: () => {
        const studentToken = roomSeats.student(code)?.studentToken ?? token.current;
        return {
          type: 'join',
          code,
          ...(name ? { name } : {}),
          ...(studentToken ? { studentToken } : {}),
        };
      },
      onMessage: (msg) => {
        if (msg.type === 'joined') {
          token.current = msg.studentToken;
          roomSeats.setStudent({ code, studentToken: msg.studentToken });
        }
        if (msg.type === 'joined' || msg.type === 'end') inRoom = true;
        // The room has ended: nothing more will come; a reload (its token kept) shows the end again.
        if (msg.type === 'end') l.close();
        if (msg.type === 'refused' && !inRoom) l.close();
        setRoom((r) => reduceStudentRoom(r, msg));
        const p = pendingRef.current;
        if (p === null) return;
        if (msg.type === 'joined') {
          // Back in the room: the answer kept goes now, if its question still takes answers.
          if (msg.step?.stepIndex === p.stepIndex && !msg.closed && msg.reveal === null)
            l.send({ type: 'answer', ...p });
          else {
            setPending(null);
            setRoom((r) => ({
              ...r,
              refusal: 'Your last answer did not reach the room before the answers closed.',
            }));
          }
        } else if (msg.type === 'accepted') {
          if (msg.stepIndex === p.stepIndex && msg.value === p.value) {
            setAccepted(p);
            setPending(null);
          }
        } else if (msg.type === 'refused' || msg.type === 'end') setPending(null);
        else if (msg.type === 'step' && msg.step.stepIndex !== p.stepIndex) setPending(null);
      },
      onStatus: (status) => setRoom((r) => ({ ...r, status })),
      helloOnResume: true,
    });
    link.current = l;
    return () => l.close();
  }, [code, joinAs]);
  // An answer sent and not accepted in time: the socket is taken for dead, and a new one
  // rejoins and sends it again.
  useEffect(() => {
    if (pending === null || room.status !== 'open') return;
    const timer = setTimeout(() => link.current?.reconnect(), ACCEPT_WITHIN_MS);
    return () => clearTimeout(timer);
  }, [pending, room.status]);
  return {
    room,
    /** Whether the browser is online (navigator.onLine). */
    online,
    /** The answer to the step open that has not reached the room yet, if any. */
    pending: pending !== null && pending.stepIndex === room.step?.stepIndex ? pending.value : null,
    /**
     * The solution that went with the answer the room has for the step open: null when it went
     * without one, undefined when this page did not send it (a reload: the server keeps it only).
     */
    sentSolution:
      accepted !== null &&
      accepted.stepIndex === room.step?.stepIndex &&
      accepted.value === room.answer
        ? (accepted.solution ?? null)
        : undefined,
    /** Whether the student has asked to join (or had joined before this reload). */
    joining: joinAs !== null,
    join: (typed: string) => {
      setRoom((r) => ({ ...r, refusal: null }));
      setJoinAs((j) => ({ name: typed.trim(), attempt: (j?.attempt ?? 0) + 1 }));
    },
    answer(value: string, solution?: RoomSolution) {
      if (!room.step) return;
      const p: PendingAnswer = {
        stepIndex: room.step.stepIndex,
        value,
        ...(solution ? { solution } : {}),
      };
      setPending(p);
      setRoom((r) => ({ ...r, refusal: null }));
      link.current?.send({ type: 'answer', ...p });
    },
  };
}
