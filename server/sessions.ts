/**
 * The room's state: sessions, their students and every step's answers, in memory. Plain data
 * (a session is JSON as it is), so the results file is this state written out and read back.
 * No I/O and no clock of its own (`now` is passed in): the rules are tested without sockets.
 *
 * Secrets are kept only as SHA-256 hashes: the presenter's token and each student's rejoin token.
 * A results file that leaks gives no one the right to move a step.
 */
import { createHash, randomBytes, randomInt } from 'node:crypto';
import { JOIN_CODE_ALPHABET, JOIN_CODE_LENGTH } from '../src/views/room/joinCode';
import {
  normalizeAnswer,
  ROOM_LIMITS,
  type RefusalReason,
  type RoomReveal,
  type RoomSolution,
  type RoomSolutions,
  type RoomStep,
  type RoomStepResult,
  type RoomTally,
} from '../src/views/room/protocol';

export interface Student {
  id: string;
  tokenHash: string;
  /** As typed (validated: one line, at most ROOM_LIMITS.nameChars); '' when none was given. */
  name: string;
  joinedAt: number;
}

export interface StepRecord {
  step: RoomStep;
  publishedAt: number;
  /** Per student id, the answer value (normalized: see normalizeAnswer). */
  answers: Record<string, string>;
  /** No answer may change (the presenter's R, or the reveal): the answers the room locked in. */
  closed: boolean;
  /**
   * When the answers closed (absent in a file written before it was kept): a student who joined
   * later was never asked this step, and its tally does not count them.
   */
  closedAt?: number;
  /**
   * The students it was asked of — present (a connection open) when its answers closed, when the
   * room moved on from it, or when the room ended — by id; absent while it is open (its tally
   * counts the students present now), and in a file written before it was kept.
   */
  askedOf?: string[];
  reveal: RoomReveal | null;
  /**
   * Per student id, the solution sent with a challenge's "solved" (absent in a file written
   * before it was kept, and when none was sent): the presenter's panel lists them, anonymous.
   */
  solutions?: Record<string, RoomSolution>;
}

/** The ids of the students present now: with a connection open (server/classroomServer.ts). */
export type Present = ReadonlySet<string>;

export interface Session {
  id: string;
  code: string;
  createdAt: number;
  codeExpiresAt: number;
  presenterTokenHash: string;
  students: Student[];
  /** Every step published, in order asked (a step asked again is a new record). */
  steps: StepRecord[];
  /**
   * The step open now, as a place in `steps`: the last one published, or an earlier one opened
   * again (a lesson's PageUp); null before the first.
   */
  current: number | null;
  /** When the presenter ended the room (null while it runs): no more students nor answers. */
  endedAt: number | null;
}

export interface Refusal {
  reason: RefusalReason;
  message: string;
  field?: string;
}

const refuse = (reason: RefusalReason, message: string, field?: string): Refusal =>
  field === undefined ? { reason, message } : { reason, message, field };

export const hashToken = (token: string): string =>
  createHash('sha256').update(token).digest('hex');
const newToken = (): string => randomBytes(24).toString('base64url');

/** The current step of a session, or null before the first is published. */
export const currentStep = (s: Session): StepRecord | null =>
  s.current === null ? null : (s.steps[s.current] ?? null);

/** The live histogram of the current step. */
export function tallyOf(s: Session, present: Present): RoomTally | null {
  const record = currentStep(s);
  return record && tallyOfRecord(record, s.students, present);
}

/**
 * Every step the session asked, in order, as the room ended with it: the question, the answer
 * revealed, the room's tally and `studentId`'s answer (null for the presenter's copy).
 */
export function resultsOf(
  s: Session,
  studentId: string | null,
  present: Present,
): RoomStepResult[] {
  return s.steps.map((record) => {
    const { stepIndex, title, question } = record.step;
    return {
      step: { stepIndex, title, question },
      reveal: record.reveal,
      tally: tallyOfRecord(record, s.students, present),
      answer: (studentId !== null && record.answers[studentId]) || null,
    };
  });
}

/**
 * A step's tally: its answers, of the students it was asked — while it is open, the students
 * present now; once its answers closed (or the room moved on from it), those present then — and
 * any who answered besides, whose answer counts though they left. "1 of 3 answered" stayed on the
 * projector with two of the three gone (a tab closed, a phone off the Wi-Fi), and the end screen
 * said "20 of 21 answered" of a step asked of 20, a 21st having joined two steps later. A step
 * closed in a file written before `askedOf` was kept counts the students who had joined by then.
 */
export function tallyOfRecord(
  record: StepRecord,
  all: readonly Student[],
  present: Present,
): RoomTally {
  const { closedAt, askedOf } = record;
  const answeredIds = Object.keys(record.answers);
  const students = askedOf
    ? new Set([...askedOf, ...answeredIds]).size
    : closedAt !== undefined
      ? all.filter((s) => s.joinedAt <= closedAt || record.answers[s.id] !== undefined).length
      : new Set([...present, ...answeredIds]).size;
  const counts: Record<string, number> = {};
  let answered = 0;
  for (const value of Object.values(record.answers)) {
    counts[value] = (counts[value] ?? 0) + 1;
    answered += 1;
  }
  return { stepIndex: record.step.stepIndex, counts, answered, students };
}

/**
 * A step's solutions as its presenter sees them: anonymous, the same changes sent by several
 * students one entry (with how many), in the order first sent.
 */
export function solutionsOf(record: StepRecord): RoomSolutions {
  const byText = new Map<string, { solution: RoomSolution; students: number }>();
  for (const solution of Object.values(record.solutions ?? {})) {
    const text = JSON.stringify(solution);
    const seen = byText.get(text);
    if (seen) seen.students += 1;
    else byText.set(text, { solution, students: 1 });
  }
  return [...byText.values()];
}

const ENDED = (): Refusal => refuse('ended', 'the room has ended');

export class Sessions {
  private readonly byId = new Map<string, Session>();
  private readonly byCode = new Map<string, Session>();

  constructor(restored: readonly Session[] = []) {
    for (const s of restored) this.add(s);
  }

  private add(s: Session): void {
    this.byId.set(s.id, s);
    this.byCode.set(s.code, s);
  }

  all(): Session[] {
    return [...this.byId.values()];
  }

  get(id: string): Session | undefined {
    return this.byId.get(id);
  }

  /**
   * A new session with a fresh join code; refused when as many rooms as the server may run are
   * running: not ended, their join codes not expired. An ended or expired room is kept (the
   * results file, a rejoin, the CSV) but no longer counts, so a results file used week after week
   * never locks the teacher out.
   */
  create(now: number): { session: Session; presenterToken: string } | Refusal {
    let running = 0;
    for (const s of this.byId.values()) if (s.endedAt === null && now < s.codeExpiresAt) running++;
    if (running >= ROOM_LIMITS.sessions)
      return refuse(
        'room-full',
        `this server already runs ${ROOM_LIMITS.sessions} rooms at once: end one (its answers stay) and start again`,
      );
    let code = '';
    do {
      code = Array.from(
        { length: JOIN_CODE_LENGTH },
        () => JOIN_CODE_ALPHABET[randomInt(JOIN_CODE_ALPHABET.length)],
      ).join('');
    } while (this.byCode.has(code));
    const presenterToken = newToken();
    const session: Session = {
      id: randomBytes(9).toString('base64url'),
      code,
      createdAt: now,
      codeExpiresAt: now + ROOM_LIMITS.codeTtlMs,
      presenterTokenHash: hashToken(presenterToken),
      students: [],
      steps: [],
      current: null,
      endedAt: null,
    };
    this.add(session);
    return { session, presenterToken };
  }

  /**
   * A student joins with the code. With the token of an earlier join to this session, they are
   * the same student again (a reload) — even after the code expired, since they are not new.
   */
  join(
    code: string,
    name: string | undefined,
    studentToken: string | undefined,
    now: number,
  ): { session: Session; student: Student; studentToken: string } | Refusal {
    const session = this.byCode.get(code);
    if (!session)
      return refuse(
        'unknown-code',
        `no room has the code ${code}: check the code the projector shows`,
        'code',
      );
    if (studentToken !== undefined) {
      const tokenHash = hashToken(studentToken);
      const student = session.students.find((s) => s.tokenHash === tokenHash);
      if (student) return { session, student, studentToken };
    }
    if (session.endedAt !== null) return refuse('ended', `the room ${code} has ended`, 'code');
    if (now >= session.codeExpiresAt)
      return refuse('code-expired', `the code ${code} has expired: ask for a new one`, 'code');
    if (session.students.length >= ROOM_LIMITS.studentsPerSession)
      return refuse(
        'room-full',
        `this session is full (${ROOM_LIMITS.studentsPerSession} students)`,
        'code',
      );
    const token = newToken();
    const student: Student = {
      id: `s${session.students.length + 1}`,
      tokenHash: hashToken(token),
      name: (name ?? '').trim(),
      joinedAt: now,
    };
    session.students.push(student);
    return { session, student, studentToken: token };
  }

  /** The presenter (re)connects: the token must be the session's. */
  present(sessionId: string, presenterToken: string): Session | Refusal {
    const session = this.byId.get(sessionId);
    if (!session || session.presenterTokenHash !== hashToken(presenterToken))
      return refuse('bad-token', 'unknown session or wrong presenter token', 'presenterToken');
    return session;
  }

  /**
   * The presenter opens a step. Publishing the step already open (a presenter's reload) keeps
   * its answers; a step asked earlier in the session opens again as the room left it, its
   * answers kept — revealed or not, closed or open (a lesson's PageUp, or PageDown past it and
   * back: it was asked again from scratch, its histogram wiped — for an unrevealed step until
   * the teachers' trials); a step never asked — or any step asked `again`, the presenter's
   * explicit "Ask again" — starts afresh, a new record (the results keep the earlier round's
   * answers).
   */
  publish(
    session: Session,
    step: RoomStep,
    now: number,
    present: Present,
    again = false,
  ): StepRecord | Refusal {
    if (session.endedAt !== null) return ENDED();
    const same = (r: StepRecord) => JSON.stringify(r.step) === JSON.stringify(step);
    const open = currentStep(session);
    if (!again && open && same(open)) return open;
    // The room moves on: the step left keeps the students it was asked of.
    if (open) open.askedOf ??= [...present];
    let earlier = again ? -1 : session.steps.length - 1;
    while (earlier >= 0 && !same(session.steps[earlier]!)) earlier -= 1;
    if (earlier >= 0) {
      const record = session.steps[earlier]!;
      // Open again with its answers open: asked of the students present now, again.
      if (!record.closed) delete record.askedOf;
      session.current = earlier;
      return record;
    }
    const record: StepRecord = {
      step,
      publishedAt: now,
      answers: {},
      closed: false,
      reveal: null,
    };
    session.current = session.steps.push(record) - 1;
    return record;
  }

  /** The presenter ends the room (again: a no-op); the step open keeps the students present. */
  end(session: Session, now: number, present: Present): void {
    if (session.endedAt !== null) return;
    const open = currentStep(session);
    if (open) open.askedOf ??= [...present];
    session.endedAt = now;
  }

  /**
   * A student answers the current step (again, to change it, until the answers close); with a
   * challenge's "solved", the solution their challenge tab kept, if any. The last answer stands:
   * "Not yet", or "Solved it" sent without one, takes back a solution sent before.
   */
  answer(
    session: Session,
    student: Student,
    stepIndex: number,
    value: string,
    solution?: RoomSolution,
  ): { stepIndex: number; value: string } | Refusal {
    if (session.endedAt !== null) return ENDED();
    const record = currentStep(session);
    if (!record) return refuse('no-step', 'there is no question to answer yet');
    if (record.step.stepIndex !== stepIndex)
      // A step the room was asked, left since; or one it never was (a message built by hand):
      // "the presenter moved on" would not be true of that one.
      return session.steps.some((r) => r.step.stepIndex === stepIndex)
        ? refuse('stale-step', 'that question is closed: the presenter moved on', 'stepIndex')
        : refuse(
            'stale-step',
            `stepIndex ${stepIndex} was never asked: the question open is stepIndex ${record.step.stepIndex}`,
            'stepIndex',
          );
    if (record.reveal)
      return refuse('revealed', 'the answer has been revealed: answers are closed');
    if (record.closed)
      return refuse('closed', 'the presenter has pressed Reveal: answers are closed');
    const normalized = normalizeAnswer(record.step.question, value);
    if (!normalized.ok) return refuse('bad-answer', normalized.message, 'value');
    if (
      solution !== undefined &&
      (record.step.question.kind !== 'challenge' || normalized.value !== 'solved')
    )
      return refuse(
        'bad-answer',
        'a solution goes only with a challenge’s "solved" answer',
        'solution',
      );
    record.answers[student.id] = normalized.value;
    if (solution !== undefined) (record.solutions ??= {})[student.id] = solution;
    else if (record.solutions) delete record.solutions[student.id];
    return { stepIndex, value: normalized.value };
  }

  /**
   * The presenter closes the current step's answers (R: the run plays before the answer shows),
   * so the room cannot change its answer while the counters play. Closing twice is a no-op.
   */
  close(session: Session, stepIndex: number, now: number, present: Present): StepRecord | Refusal {
    if (session.endedAt !== null) return ENDED();
    const record = currentStep(session);
    if (!record) return refuse('no-step', 'there is no step to close yet');
    if (record.step.stepIndex !== stepIndex)
      return refuse('stale-step', 'that step is not the one open', 'stepIndex');
    record.closed = true;
    record.closedAt ??= now;
    record.askedOf ??= [...present];
    return record;
  }

  /** The presenter reveals the current step's answer (which closes its answers too). */
  reveal(
    session: Session,
    stepIndex: number,
    reveal: RoomReveal,
    now: number,
    present: Present,
  ): StepRecord | Refusal {
    if (session.endedAt !== null) return ENDED();
    const record = currentStep(session);
    if (!record) return refuse('no-step', 'there is no step to reveal yet');
    if (record.step.stepIndex !== stepIndex)
      return refuse('stale-step', 'that step is not the one open', 'stepIndex');
    record.closed = true;
    record.closedAt ??= now;
    record.askedOf ??= [...present];
    record.reveal = reveal;
    return record;
  }
}

export const isRefusal = (x: object): x is Refusal => 'reason' in x && 'message' in x;
