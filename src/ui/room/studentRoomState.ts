import type { RoomLinkStatus } from '../../platform/roomClient';
import type {
  RoomReveal,
  RoomStep,
  RoomStepResult,
  RoomTally,
  ServerMessage,
} from '../../views/room/protocol';

/** A student's view of the room. */
export interface StudentRoomState {
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

export const INITIAL_STUDENT_ROOM: StudentRoomState = {
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

/** The student's room after a message of the server. */
export function reduceStudentRoom(r: StudentRoomState, msg: ServerMessage): StudentRoomState {
  switch (msg.type) {
    case 'joined':
      return {
        ...r,
        joined: true,
        step: msg.step,
        answer: msg.answer,
        closed: msg.closed,
        reveal: msg.reveal,
        tally: msg.tally ?? null,
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
      // Of the step open only (as the presenter's: ./presenterRoomState.ts): a reveal that went
      // out as the next step's showed the step before's answer under the next question.
      return r.step?.stepIndex === msg.tally.stepIndex
        ? { ...r, closed: true, reveal: msg.reveal, tally: msg.tally }
        : r;
    case 'refused':
      return { ...r, refusal: msg.message };
    case 'end':
      return { ...r, joined: true, ended: msg.results, refusal: null };
    default:
      return r;
  }
}
