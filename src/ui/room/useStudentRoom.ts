import { useEffect, useRef, useState } from 'react';
import {
  connectRoom,
  roomSeats,
  type RoomLink,
  type RoomLinkStatus,
} from '../../platform/roomClient';
import type {
  RoomReveal,
  RoomStep,
  RoomStepResult,
  RoomTally,
  ServerMessage,
} from '../../views/room/protocol';

/** A student's view of the room. */
interface StudentRoomState {
  status: RoomLinkStatus;
  joined: boolean;
  step: RoomStep | null;
  /** This student's answer to the step, as the server accepted it. */
  answer: string | null;
  /** The presenter pressed Reveal: the answer can no longer change (it shows at the run's end). */
  closed: boolean;
  reveal: RoomReveal | null;
  tally: RoomTally | null;
  refusal: string | null;
  /** The presenter ended the room: every step asked, with the room's results and this student's answers. */
  ended: RoomStepResult[] | null;
}

const INITIAL: StudentRoomState = {
  status: 'connecting',
  joined: false,
  step: null,
  answer: null,
  closed: false,
  reveal: null,
  tally: null,
  refusal: null,
  ended: null,
};

function reduce(r: StudentRoomState, msg: ServerMessage): StudentRoomState {
  switch (msg.type) {
    case 'joined':
      return {
        ...r,
        joined: true,
        step: msg.step,
        answer: msg.answer,
        closed: msg.closed,
        reveal: msg.reveal,
        tally: null,
        refusal: null,
      };
    case 'step':
      // A step asked before comes back with its state (a lesson's PageUp); a new one is open.
      return {
        ...r,
        step: msg.step,
        answer: msg.answer ?? null,
        closed: msg.closed ?? false,
        reveal: msg.reveal ?? null,
        tally: msg.tally ?? null,
        refusal: null,
      };
    case 'accepted':
      return r.step?.stepIndex === msg.stepIndex ? { ...r, answer: msg.value, refusal: null } : r;
    case 'closed':
      return r.step?.stepIndex === msg.stepIndex ? { ...r, closed: true } : r;
    case 'reveal':
      return { ...r, closed: true, reveal: msg.reveal, tally: msg.tally };
    case 'refused':
      return { ...r, refusal: msg.message };
    case 'end':
      return { ...r, joined: true, ended: msg.results, refusal: null };
    default:
      return r;
  }
}

/**
 * A student's connection: joins with the code (and, after a reload, the token this tab kept, so
 * they are the same student). `join(name)` is the first join; null until then when no token.
 */
export function useStudentRoom(code: string) {
  // The name asked for, and how many times Join was pressed (a refused join can be tried again).
  const [joinAs, setJoinAs] = useState<{ name: string; attempt: number } | null>(() =>
    roomSeats.student(code) ? { name: '', attempt: 0 } : null,
  );
  const [room, setRoom] = useState<StudentRoomState>(INITIAL);
  const link = useRef<RoomLink | null>(null);
  useEffect(() => {
    if (joinAs === null) return;
    const name = joinAs.name;
    const l = connectRoom({
      hello: () => {
        const seat = roomSeats.student(code);
        return {
          type: 'join',
          code,
          ...(name ? { name } : {}),
          ...(seat ? { studentToken: seat.studentToken } : {}),
        };
      },
      onMessage: (msg) => {
        if (msg.type === 'joined') roomSeats.setStudent({ code, studentToken: msg.studentToken });
        // The room has ended: nothing more will come; a reload (its token kept) shows the end again.
        if (msg.type === 'end') l.close();
        setRoom((r) => reduce(r, msg));
      },
      onStatus: (status) => setRoom((r) => ({ ...r, status })),
    });
    link.current = l;
    return () => l.close();
  }, [code, joinAs]);
  return {
    room,
    /** Whether the student has asked to join (or had joined before this reload). */
    joining: joinAs !== null,
    join: (typed: string) => {
      setRoom((r) => ({ ...r, refusal: null }));
      setJoinAs((j) => ({ name: typed.trim(), attempt: (j?.attempt ?? 0) + 1 }));
    },
    answer(value: string) {
      if (room.step) link.current?.send({ type: 'answer', stepIndex: room.step.stepIndex, value });
    },
  };
}
