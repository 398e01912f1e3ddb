/**
 * The room's protocol: every message between the classroom server (server/) and the page, as zod
 * schemas — one module, imported by both, so a message the page sends is validated by the very
 * schema the server checks it with. Pure (no DOM, no Node): it runs on either side.
 *
 * Shape: the presenter creates a session over HTTP (POST /api/sessions) and gets a short join code,
 * a join URL and a presenter token; then every client speaks JSON over one WebSocket (/ws):
 * a student `join`s with the code, a presenter `present`s with the session id and token. Only a
 * presenter connection may `publish` a step, `close` its answers or `reveal` it; a student may only
 * `answer`. A step's answers close at the presenter's R (`close`: the run plays, the room watches
 * the run it predicted) and its answer shows later (`reveal`, at the run's end or "Reveal now");
 * a reveal closes the answers too. A step opened again (the lesson's PageUp) comes back as the room
 * left it — revealed or not — its answers kept, unless the presenter asks it `again`. The presenter's `end`
 * ends the session: every student gets `end`, the room's results and their own answers.
 * Refusals are messages (`refused`), never a closed socket: a student who sends too much, too fast
 * or nonsense keeps their place in the session. One exception: a `present` refused on a socket
 * with no seat is closed after its `refused`, code 1008 (docs/classroom.md#security-limits).
 */
import { z } from 'zod';
import { JOIN_CODE_ALPHABET, JOIN_CODE_LENGTH, normalizeJoinCode } from './joinCode';

/** The limits every refusal names. One place, read by the server, the page and the docs. */
export const ROOM_LIMITS = {
  /** A message longer than this (UTF-8 bytes) is refused with a message; the socket stays open. */
  messageBytes: 4096,
  /**
   * Beyond this, ws itself closes the socket (code 1009, its `maxPayload` option:
   * https://github.com/websockets/ws/blob/master/doc/ws.md#new-websocketserveroptions-callback)
   * before the message is even buffered; the session is kept and the page reconnects.
   */
  hardMessageBytes: 65536,
  /** Per connection: a bucket of `burst` messages, refilled at `perSecond`. */
  burst: 10,
  perSecond: 5,
  studentsPerSession: 300,
  /** Rooms running at once (not ended, join code not expired); ended ones are kept, uncounted. */
  sessions: 50,
  connections: 1000,
  /** A join code admits new students for this long after the session was created. */
  codeTtlMs: 4 * 60 * 60 * 1000,
  nameChars: 40,
  titleChars: 200,
  setupChars: 1000,
  questionChars: 1000,
  optionChars: 200,
  answerChars: 40,
  revealChars: 2000,
  /**
   * A lesson's own challenge travels to the phones whole, as its link's hash (`ch=…`, about 1 KB
   * compressed): at most this, so that its step stays within `messageBytes`.
   */
  challengeLinkChars: 2000,
  /**
   * A student's solution of a challenge, sent with "Solved it" (`answer.solution`): at most this
   * many characters as JSON — ten knobs or a few faults, within `messageBytes` beside the answer.
   */
  solutionChars: 1500,
  options: 8,
} as const;

const joinCode = z
  .string()
  .regex(new RegExp(`^[${JOIN_CODE_ALPHABET}]{${JOIN_CODE_LENGTH}}$`), 'a 6-character join code');

/**
 * A join code as a student's client sends it: read as the join page reads `?join=` (upper case,
 * spaces and dashes dropped), so a raw `join` with "42d4ct" joins room 42D4CT as `?join=42d4ct`
 * does — it was refused "a 6-character join code".
 */
const typedJoinCode = z.string().max(32).transform(normalizeJoinCode).pipe(joinCode);

const token = z.string().min(16).max(64);
const id = z.string().min(1).max(64);
const stepIndex = z.number().int().min(0).max(9999);
/** Text a person reads: no control characters (a name or a title is one line). */
const line = (max: number) =>
  z
    .string()
    .max(max)
    .refine((s) => !/[\u0000-\u001f\u007f]/.test(s), 'no control characters');
const prose = (max: number) => z.string().max(max);

/** The question a step asks the room: the page's question model (src/views/library/question.ts). */
const RoomQuestionSchema = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('choice'),
    text: prose(ROOM_LIMITS.questionChars),
    options: z
      .array(
        z.object({ id: line(ROOM_LIMITS.answerChars).min(1), text: line(ROOM_LIMITS.optionChars) }),
      )
      .min(2)
      .max(ROOM_LIMITS.options),
  }),
  z.object({
    kind: z.literal('number'),
    text: prose(ROOM_LIMITS.questionChars),
    /** What the number counts ("rows", "$"), shown beside the input. */
    unit: line(40),
  }),
  z.object({
    /** A challenge solved on the student's own laptop: the answer is whether they solved it. */
    kind: z.literal('challenge'),
    text: prose(ROOM_LIMITS.questionChars),
    /** The challenge's id: the phones link to it (`?challenge=<id>`, docs/challenges.md). */
    challenge: z
      .string()
      .max(64)
      .regex(/^[a-z0-9]+(-[a-z0-9]+)*$/, 'lower-case words joined by hyphens')
      .optional(),
    /**
     * A lesson's own challenge (not shipped): the whole challenge, as its link's hash carries it
     * (`ch=<version>.<payload>`, docs/challenges.md) — the phones open `?challenge=<id>#ch=…`.
     */
    carried: z
      .string()
      .max(ROOM_LIMITS.challengeLinkChars)
      .regex(/^ch=\d+\.[A-Za-z0-9_-]+$/, 'a challenge link’s hash, ch=<version>.<payload>')
      .optional(),
  }),
]);
export type RoomQuestion = z.infer<typeof RoomQuestionSchema>;

/** One step of a session: what the presenter has open now. */
export const RoomStepSchema = z.object({
  stepIndex,
  title: line(ROOM_LIMITS.titleChars),
  /**
   * The story's setup — what the pipeline is, what will go wrong, the numbers the question needs —
   * on the phones too: a back row reads it there rather than from the projector.
   */
  setup: prose(ROOM_LIMITS.setupChars).optional(),
  question: RoomQuestionSchema,
});
export type RoomStep = z.infer<typeof RoomStepSchema>;

/** What the reveal tells the room: the answer in words, and the right answer's value if any. */
export const RoomRevealSchema = z.object({
  answer: prose(ROOM_LIMITS.revealChars),
  /** The right answer as an answer value (a choice's id, a number) — students see theirs marked. */
  correct: line(ROOM_LIMITS.answerChars).optional(),
});
export type RoomReveal = z.infer<typeof RoomRevealSchema>;

/**
 * A student's solution of a challenge, as the challenge format writes a solution (its
 * `solution.knobs` and `solution.faults`, docs/challenges.md): the changes from the challenge's
 * start, kept by the challenge tab when an attempt solved it (src/platform/keptSolution.ts) and
 * sent with "Solved it". The faults are checked here for their shape only (a `kind`, scalar
 * fields): the presenter's page checks the whole attempt against the challenge's rules and goal
 * before it opens one (src/views/challenge/solutionAttempt.ts).
 */
const scalar = z.union([
  z.string().max(ROOM_LIMITS.solutionChars),
  z.number(),
  z.boolean(),
  z.null(),
]);
export const RoomSolutionSchema = z
  .strictObject({
    knobs: z
      .array(
        z.strictObject({
          path: z
            .string()
            .min(1)
            .max(200)
            .regex(/^[A-Za-z0-9._-]+$/, 'a dotted knob path, e.g. producer.enable.idempotence'),
          value: scalar,
        }),
      )
      .max(10),
    faults: z
      .array(
        z
          .object({
            kind: z
              .string()
              .min(1)
              .max(40)
              .regex(/^[a-z-]+$/, 'a fault kind'),
          })
          .catchall(
            // A fault's fields: scalars, a list of them, or an object of them (its `match`).
            z.union([scalar, z.array(scalar).max(20), z.record(z.string(), scalar)]),
          ),
      )
      .max(10),
  })
  .refine((s) => s.knobs.length + s.faults.length > 0, 'no change from the challenge’s start')
  .refine(
    (s) => JSON.stringify(s).length <= ROOM_LIMITS.solutionChars,
    `at most ${ROOM_LIMITS.solutionChars} characters as JSON`,
  );
export type RoomSolution = z.infer<typeof RoomSolutionSchema>;

/** The two answers of a challenge step. */
export const CHALLENGE_ANSWERS = [
  { id: 'solved', text: 'Solved it' },
  { id: 'not-solved', text: 'Not yet' },
] as const;

// ── Client → server ─────────────────────────────────────────────────────────────────────────────
// Each message has its fields and no other (zod's strictObject): a field the protocol does not
// have — a `studentId` on an answer, as if for another student — is refused, naming it, rather
// than dropped without a word.
export const ClientMessageSchema = z.discriminatedUnion('type', [
  z.strictObject({
    type: z.literal('join'),
    code: typedJoinCode,
    /** Optional; never shown to other students. */
    name: line(ROOM_LIMITS.nameChars).optional(),
    /** The token of an earlier join (kept in localStorage): a reload rejoins as the same student. */
    studentToken: token.optional(),
  }),
  z.strictObject({ type: z.literal('present'), sessionId: id, presenterToken: token }),
  /**
   * Opens `step`. The step already open is kept; one asked earlier in the session comes back as
   * the room left it, its answers kept (a lesson's PageUp) — unless `again`: the presenter's "Ask
   * again", a new round with no answer.
   */
  z.strictObject({
    type: z.literal('publish'),
    step: RoomStepSchema,
    again: z.boolean().optional(),
  }),
  /** The presenter's R: no answer may change from now on; the answer itself shows later. */
  z.strictObject({ type: z.literal('close'), stepIndex }),
  z.strictObject({ type: z.literal('reveal'), stepIndex, reveal: RoomRevealSchema }),
  z.strictObject({
    type: z.literal('answer'),
    stepIndex,
    value: line(ROOM_LIMITS.answerChars).min(1),
    /**
     * With a challenge's "solved": the solution the student's challenge tab kept (absent when it
     * kept none: "Solved it" counts as ever). Relayed to the presenter only, never to a student.
     */
    solution: RoomSolutionSchema.optional(),
  }),
  /** The presenter's "End the room": the session takes no more answers nor students. */
  z.strictObject({ type: z.literal('end') }),
]);
export type ClientMessage = z.infer<typeof ClientMessageSchema>;

/** Per answer value, how many students gave it. */
const counts = z.record(z.string(), z.number().int().min(0));
const tally = z.object({
  stepIndex,
  counts,
  /** Students who answered this step. */
  answered: z.number().int().min(0),
  /**
   * The students it is asked of: present now (a connection open) and any who answered; once its
   * answers closed (or the room moved on, or ended), those present then (docs/classroom.md).
   */
  students: z.number().int().min(0),
});
export type RoomTally = z.infer<typeof tally>;

/**
 * One step the room was asked, as the room ended with it — what the teacher's results file has of
 * it: the question (the setup left out: it was on screen), the answer revealed (null when never
 * revealed), the room's tally, and this student's answer.
 */
const RoomStepResultSchema = z.object({
  step: RoomStepSchema.omit({ setup: true }),
  reveal: RoomRevealSchema.nullable(),
  tally,
  answer: z.string().nullable(),
});
export type RoomStepResult = z.infer<typeof RoomStepResultSchema>;

/**
 * The solutions sent for a step's round, to its presenter only — anonymous ("Solution 1", …): the
 * same changes sent by several students are one, with how many sent it; in the order first sent.
 */
const solutions = z.array(
  z.object({ solution: RoomSolutionSchema, students: z.number().int().min(1) }),
);
export type RoomSolutions = z.infer<typeof solutions>;

/** Why a message was refused: a stable id for code, and `message` for people. */
const REFUSAL_REASONS = [
  'malformed',
  'too-large',
  'too-fast',
  'unknown-code',
  'code-expired',
  'room-full',
  'not-joined',
  'presenter-only',
  'bad-token',
  'no-step',
  'stale-step',
  'closed',
  'revealed',
  'bad-answer',
  'ended',
  'already-joined',
] as const;
export type RefusalReason = (typeof REFUSAL_REASONS)[number];

// ── Server → client ─────────────────────────────────────────────────────────────────────────────
/**
 * How often the server sends `heartbeat` (told in `joined` and `presenting`): a page that hears
 * nothing for that long and as much again (at most 5 s more) takes its socket for dead.
 */
const heartbeatMs = z.number().int().min(1).optional();

export const ServerMessageSchema = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('joined'),
    sessionId: id,
    studentToken: token,
    heartbeatMs,
    step: RoomStepSchema.nullable(),
    /** This student's answer to the current step, if any (a reload shows it again). */
    answer: z.string().nullable(),
    /** Whether the current step's answers are closed (R was pressed, or it was revealed). */
    closed: z.boolean(),
    reveal: RoomRevealSchema.nullable(),
    /**
     * The step's tally once it is revealed (null before: a phone sees the room's answers with
     * the answer only), so that a reload or a reconnection shows the room's bars again.
     */
    tally: tally.nullable().optional(),
  }),
  z.object({
    type: z.literal('presenting'),
    sessionId: id,
    heartbeatMs,
    code: joinCode,
    joinUrl: z.string(),
    codeExpiresAt: z.number(),
    step: RoomStepSchema.nullable(),
    tally: tally.nullable(),
    closed: z.boolean(),
    reveal: RoomRevealSchema.nullable(),
    /** The students present now (a connection of theirs open): "N students joined". */
    students: z.number().int().min(0),
    /** The solutions sent for the step open (a challenge's round), anonymous. */
    solutions: solutions.optional(),
  }),
  /**
   * A step, to every student: a new one has its answers open and nothing revealed (the optional
   * fields absent); one asked before and opened again (a lesson's PageUp) comes with this
   * student's answer, whether the answers are closed, and its reveal and tally (null until it
   * is revealed).
   */
  z.object({
    type: z.literal('step'),
    step: RoomStepSchema,
    answer: z.string().nullable().optional(),
    closed: z.boolean().optional(),
    reveal: RoomRevealSchema.nullable().optional(),
    tally: tally.nullable().optional(),
  }),
  z.object({ type: z.literal('accepted'), stepIndex, value: z.string() }),
  /** To everyone in the session: the step's answers are closed (the presenter's R). */
  z.object({ type: z.literal('closed'), stepIndex }),
  /**
   * To presenters, as a student joins or leaves (their last connection closed): the students
   * present now — the room's "N students joined" before any question is asked, and after.
   */
  z.object({ type: z.literal('attendance'), students: z.number().int().min(0) }),
  /** To presenters only, after an answer to a challenge's round: the solutions sent for it. */
  z.object({ type: z.literal('solutions'), stepIndex, solutions }),
  /** To presenters, after every answer: the live histogram. */
  z.object({ type: z.literal('tally'), tally }),
  /** To everyone in the session. */
  z.object({ type: z.literal('reveal'), reveal: RoomRevealSchema, tally }),
  /**
   * To every student when the presenter ends the room (and to one who rejoins after): every step
   * asked, in the order asked, with the room's results and this student's answers. The phone
   * shows them and stops reconnecting.
   */
  z.object({ type: z.literal('end'), results: z.array(RoomStepResultSchema) }),
  /**
   * The server's heartbeat, to every page in a session, with its ws ping: a browser's page never
   * sees a ping (https://developer.mozilla.org/en-US/docs/Web/API/WebSocket has no ping event),
   * so this is how an idle phone knows its socket still reaches the server.
   */
  z.object({ type: z.literal('heartbeat') }),
  z.object({
    type: z.literal('refused'),
    reason: z.enum(REFUSAL_REASONS),
    message: z.string(),
    /** The field at fault, when there is one ("name", "step.title"). */
    field: z.string().optional(),
  }),
]);
export type ServerMessage = z.infer<typeof ServerMessageSchema>;

/** What POST /api/sessions answers. The presenter token is for the presenter's page only. */
export const CreatedSessionSchema = z.object({
  sessionId: id,
  code: joinCode,
  joinUrl: z.string(),
  presenterToken: token,
  codeExpiresAt: z.number(),
});
export type CreatedSession = z.infer<typeof CreatedSessionSchema>;

/** GET /api/classroom: how the page knows it is served by the classroom server. */
export const CLASSROOM_PROBE = { classroom: 'delivery-lab', version: 1 } as const;

/**
 * Whether a unit a student wrote is the question's: the same word, singular or plural ("row" for
 * "rows", "payments" for "payments at the reader"), and "dollar"/"usd" for `$`.
 */
function sameUnit(written: string, asked: string): boolean {
  const one = (w: string) => w.toLowerCase().replace(/s$/, '');
  if (asked === '$') return written === '$' || ['dollar', 'usd'].includes(one(written));
  return one(written) === one(asked.split(/\s+/)[0] ?? '');
}

/**
 * An answer as the server keeps it, or why it is refused: a choice's id among the options, a
 * number written plainly or with the question's unit (`12`, `-3`, `2.5`, `18 rows`, `$80`; kept
 * as `Number` prints it), or a challenge's outcome.
 */
export function normalizeAnswer(
  question: RoomQuestion,
  value: string,
): { ok: true; value: string } | { ok: false; message: string } {
  switch (question.kind) {
    case 'choice':
      return question.options.some((o) => o.id === value)
        ? { ok: true, value }
        : { ok: false, message: 'the answer is not one of the choices' };
    case 'number': {
      // The number may come with the question's unit, as people write it ("18 payments",
      // "$80", "80 dollars"): the unit printed beside the box is not a second answer.
      const m = /^(\$\s*)?(-?\d{1,12}(?:\.\d{1,6})?)\s*([a-z]*)$/i.exec(
        value.trim().replace(/,/g, ''),
      );
      if (!m) return { ok: false, message: `the answer must be a number, such as 12 or 2.5` };
      const unit = m[1] ? '$' : m[3]!.toLowerCase();
      if (unit && !sameUnit(unit, question.unit))
        return { ok: false, message: `the answer is counted in ${question.unit}: give a number` };
      return { ok: true, value: String(Number(m[2])) };
    }
    case 'challenge':
      return CHALLENGE_ANSWERS.some((a) => a.id === value)
        ? { ok: true, value }
        : { ok: false, message: 'the answer must be "solved" or "not-solved"' };
    default: {
      const never: never = question;
      return never;
    }
  }
}

/** A zod failure as one sentence naming the field ("name: no control characters"). */
export function describeIssue(error: z.ZodError): { field: string; message: string } {
  const issue = error.issues[0];
  if (issue?.code === 'unrecognized_keys') {
    const field = [...issue.path.map(String), issue.keys[0] ?? ''].join('.');
    return { field, message: `${field}: not a field of this message` };
  }
  const field = issue ? issue.path.map(String).join('.') : '';
  return { field, message: `${field || 'message'}: ${issue?.message ?? 'invalid'}` };
}
