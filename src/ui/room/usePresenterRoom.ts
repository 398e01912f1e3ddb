import { useEffect, useRef, useState } from 'react';
import { connectRoom, type PresenterSeat, type RoomLink } from '../../platform/roomClient';
import type { RoomReveal, RoomStep } from '../../views/room/protocol';
import {
  INITIAL_ROOM,
  isSeatRefusal,
  publishedRoom,
  reduceRoom,
  type PresenterRoom,
} from './presenterRoomState';

/**
 * The presenter's connection to their session: presents with the seat's token on every
 * (re)connection, so a reload or a dropped network resumes the same session.
 */
export function usePresenterRoom(seat: PresenterSeat) {
  const [room, setRoom] = useState<PresenterRoom>(INITIAL_ROOM);
  const link = useRef<RoomLink | null>(null);
  useEffect(() => {
    const l = connectRoom({
      hello: () => ({
        type: 'present',
        sessionId: seat.sessionId,
        presenterToken: seat.presenterToken,
      }),
      onMessage: (msg) => {
        setRoom((r) => reduceRoom(r, msg));
        // Its seat refused, the page presents no more: reconnecting, it was refused again and
        // again (the server closes such a socket; this page does not wait for it).
        if (msg.type === 'refused' && isSeatRefusal(msg.reason)) l.close();
      },
      onStatus: (status) =>
        setRoom((r) =>
          r.lost ? r : { ...r, status, presented: status === 'open' && r.presented },
        ),
    });
    link.current = l;
    return () => l.close();
  }, [seat.sessionId, seat.presenterToken]);

  return {
    room,
    /**
     * Opens `step` on the phones. A step asked before comes back as the room left it, its
     * answers kept (the server's `presenting` follows; meanwhile its last known tally shows);
     * `again` asks it afresh (the presenter's "Ask again").
     */
    publish(step: RoomStep, again = false) {
      link.current?.send({ type: 'publish', step, ...(again ? { again } : {}) });
      setRoom((r) => publishedRoom(r, step, again));
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
