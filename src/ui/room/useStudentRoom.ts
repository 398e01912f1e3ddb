import { useEffect, useRef, useState } from 'react';
import { connectRoom, roomSeats, type RoomLink } from '../../platform/roomClient';
import { INITIAL_STUDENT_ROOM, reduceStudentRoom, type StudentRoomState } from './studentRoomState';

/**
 * A student's connection: joins with the code (and, after a reload, the token this tab kept, so
 * they are the same student). `join(name)` is the first join; null until then when no token.
 */
export function useStudentRoom(code: string) {
  // The name asked for, and how many times Join was pressed (a refused join can be tried again).
  const [joinAs, setJoinAs] = useState<{ name: string; attempt: number } | null>(() =>
    roomSeats.student(code) ? { name: '', attempt: 0 } : null,
  );
  const [room, setRoom] = useState<StudentRoomState>(INITIAL_STUDENT_ROOM);
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
        setRoom((r) => reduceStudentRoom(r, msg));
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
