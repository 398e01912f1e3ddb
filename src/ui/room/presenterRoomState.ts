import type { RoomLinkStatus } from '../../platform/roomClient';
import type {
  RefusalReason,
  RoomReveal,
  RoomSolutions,
  RoomStep,
  RoomTally,
  ServerMessage,
} from '../../views/room/protocol';

/** A step as the server last told the presenter of it: its tally, closed, its reveal. */
interface StepState {
  tally: RoomTally | null;
  closed: boolean;
  reveal: RoomReveal | null;
}

/** The presenter's view of the room, as the server last told it. */
export interface PresenterRoom extends StepState {
  status: RoomLinkStatus;
  step: RoomStep | null;
  /**
   * The students present now (a connection of theirs open), as the server last said —
   * `presenting`, then each `attendance` — or null before it has: "N students joined".
   */
  students: number | null;
  /** The last refusal, in words, or null. */
  refusal: string | null;
  /**
   * The server refused this page's seat, for good (its link closed, no reconnection): it no
   * longer knows the session (`bad-token`: a new results file, or another server), or the room
   * has ended (in another tab); null while the seat holds.
   */
  lost: SeatRefusal | null;
  /**
   * The server has answered this connection's `present` (with the session's step as it knows
   * it): only then may a step be published — its reply would otherwise overwrite the step just
   * published with the one before it (a lesson's first step showed "Ask the room", its tallies
   * dropped, though the students had the question).
   */
  presented: boolean;
  /**
   * Every step this page saw, by `stepKey`, as last told: a step opened again (a lesson's PageUp)
   * shows its room's answers at once, not an empty histogram until the server's `presenting`.
   */
  known: Readonly<Record<string, StepState>>;
  /** A challenge's round: the solutions sent for it, anonymous, as the server last said. */
  solutions: RoomSolutions;
}

export const INITIAL_ROOM: PresenterRoom = {
  status: 'connecting',
  step: null,
  tally: null,
  closed: false,
  reveal: null,
  students: null,
  refusal: null,
  lost: null,
  presented: false,
  known: {},
  solutions: [],
};

/** Refusals no new socket would change: the page stops presenting (it closes its link). */
type SeatRefusal = Extract<RefusalReason, 'bad-token' | 'ended'>;
export const isSeatRefusal = (reason: RefusalReason): reason is SeatRefusal =>
  reason === 'bad-token' || reason === 'ended';

/** A step's identity, as the server tells a step asked again from a new one (the whole step). */
const stepKey = (step: RoomStep): string => JSON.stringify(step);

/** `r` with the open step's state remembered in `known`. */
function remembered(r: PresenterRoom): PresenterRoom {
  if (!r.step) return r;
  const { tally, closed, reveal } = r;
  return { ...r, known: { ...r.known, [stepKey(r.step)]: { tally, closed, reveal } } };
}

/** The room after a message of the server. */
export function reduceRoom(r: PresenterRoom, msg: ServerMessage): PresenterRoom {
  switch (msg.type) {
    case 'presenting':
      return remembered({
        ...r,
        step: msg.step,
        tally: msg.tally,
        closed: msg.closed,
        reveal: msg.reveal,
        students: msg.students,
        refusal: null,
        lost: null,
        presented: true,
        solutions: msg.solutions ?? [],
      });
    case 'attendance':
      return { ...r, students: msg.students };
    case 'solutions':
      return r.step?.stepIndex === msg.stepIndex && r.step.question.kind === 'challenge'
        ? { ...r, solutions: msg.solutions }
        : r;
    case 'tally':
      return r.step?.stepIndex === msg.tally.stepIndex ? remembered({ ...r, tally: msg.tally }) : r;
    case 'closed':
      return r.step?.stepIndex === msg.stepIndex ? remembered({ ...r, closed: true }) : r;
    case 'reveal':
      // Of the step open only: a reveal of the step before, answered after the presenter moved
      // on, showed its answer under the next step's question (a lesson at 1280×720 then cut
      // "End the room" off the panel's bottom).
      return r.step?.stepIndex === msg.tally.stepIndex
        ? remembered({ ...r, closed: true, reveal: msg.reveal, tally: msg.tally })
        : r;
    case 'refused':
      return isSeatRefusal(msg.reason)
        ? { ...r, lost: msg.reason, status: 'closed', presented: false }
        : { ...r, refusal: msg.message };
    default:
      return r;
  }
}

/**
 * The room as the presenter publishes `step`, shown before the server answers: a step seen
 * before as it was last told (the server opens it again as the room left it, answers kept), a
 * new one — or one asked `again` — open with no answer.
 */
export function publishedRoom(r: PresenterRoom, step: RoomStep, again: boolean): PresenterRoom {
  // The open step's count, else (the first question) the students present now.
  const students = r.tally?.students ?? r.students ?? 0;
  const seen = again ? undefined : r.known[stepKey(step)];
  const fresh: StepState = {
    tally: { stepIndex: step.stepIndex, counts: {}, answered: 0, students },
    closed: false,
    reveal: null,
  };
  const shown = seen ? { ...seen, tally: seen.tally && { ...seen.tally, students } } : fresh;
  // Another round's solutions are not this one's (the server's `presenting` brings back a round's).
  return remembered({ ...r, step, refusal: null, ...shown, solutions: [] });
}
