import { useEffect, useRef, useState } from 'react';
import {
  connectRoom,
  type PresenterSeat,
  type RoomLink,
  type RoomLinkStatus,
} from '../../platform/roomClient';
import type { RoomReveal, RoomStep, RoomTally, ServerMessage } from '../../views/room/protocol';

/** The presenter's view of the room, as the server last told it. */
interface PresenterRoom {
  status: RoomLinkStatus;
  step: RoomStep | null;
  tally: RoomTally | null;
  /** The step's answers are closed (R was pressed, or it was revealed). */
  closed: boolean;
  reveal: RoomReveal | null;
  /** The last refusal, in words, or null. */
  refusal: string | null;
  /** The server no longer knows this session (a new results file, or another server). */
  lost: boolean;
  /**
   * The server has answered this connection's `present` (with the session's step as it knows
   * it): only then may a step be published — its reply would otherwise overwrite the step just
   * published with the one before it (a lesson's first step showed "Ask the room", its tallies
   * dropped, though the students had the question).
   */
  presented: boolean;
}

const INITIAL: PresenterRoom = {
  status: 'connecting',
  step: null,
  tally: null,
  closed: false,
  reveal: null,
  refusal: null,
  lost: false,
  presented: false,
};

function reduce(r: PresenterRoom, msg: ServerMessage): PresenterRoom {
  switch (msg.type) {
    case 'presenting':
      return {
        ...r,
        step: msg.step,
        tally: msg.tally,
        closed: msg.closed,
        reveal: msg.reveal,
        refusal: null,
        lost: false,
        presented: true,
      };
    case 'tally':
      return r.step?.stepIndex === msg.tally.stepIndex ? { ...r, tally: msg.tally } : r;
    case 'closed':
      return r.step?.stepIndex === msg.stepIndex ? { ...r, closed: true } : r;
    case 'reveal':
      return { ...r, closed: true, reveal: msg.reveal, tally: msg.tally };
    case 'refused':
      return msg.reason === 'bad-token' ? { ...r, lost: true } : { ...r, refusal: msg.message };
    default:
      return r;
  }
}

/**
 * The presenter's connection to their session: presents with the seat's token on every
 * (re)connection, so a reload or a dropped network resumes the same session.
 */
export function usePresenterRoom(seat: PresenterSeat) {
  const [room, setRoom] = useState<PresenterRoom>(INITIAL);
  const link = useRef<RoomLink | null>(null);
  useEffect(() => {
    const l = connectRoom({
      hello: () => ({
        type: 'present',
        sessionId: seat.sessionId,
        presenterToken: seat.presenterToken,
      }),
      onMessage: (msg) => setRoom((r) => reduce(r, msg)),
      onStatus: (status) =>
        setRoom((r) => ({ ...r, status, presented: status === 'open' && r.presented })),
    });
    link.current = l;
    return () => l.close();
  }, [seat.sessionId, seat.presenterToken]);

  return {
    room,
    /**
     * Opens `step` on the phones. A step revealed before comes back revealed, its answers kept
     * (the server's `presenting` follows); `again` asks it afresh (the presenter's "Ask again").
     */
    publish(step: RoomStep, again = false) {
      link.current?.send({ type: 'publish', step, ...(again ? { again } : {}) });
      // Shown at once; the server's tally follows.
      setRoom((r) => ({
        ...r,
        step,
        closed: false,
        reveal: null,
        refusal: null,
        tally: {
          stepIndex: step.stepIndex,
          counts: {},
          answered: 0,
          students: r.tally?.students ?? 0,
        },
      }));
    },
    /** Closes the step's answers (the presenter's R): the answer shows later, by `reveal`. */
    close() {
      if (room.step) link.current?.send({ type: 'close', stepIndex: room.step.stepIndex });
    },
    reveal(reveal: RoomReveal) {
      if (room.step) link.current?.send({ type: 'reveal', stepIndex: room.step.stepIndex, reveal });
    },
    /** Ends the room for everyone: the server tells every student, with the room's results. */
    end() {
      link.current?.send({ type: 'end' });
    },
  };
}
