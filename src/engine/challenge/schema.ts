/**
 * The challenge format, version 1: a goal over the run a student makes from a starting scenario,
 * with what the student may change to reach it, hints, and a minimal reference solution.
 *
 * A challenge names no answer: the engine decides success on the student's own run (the checker's
 * fates, {@link goalMet}), and the rules ({@link ruleIssues}) compare the attempt with the start.
 * Published as JSON Schema (`public/challenge.schema.json`, scripts/schema.ts); validated, migrated
 * and reported like a scenario (src/engine/scenario/validate.ts), each problem naming its field.
 */
import { z } from 'zod';
import { LIMITS } from '../scenario/limits';
import { FaultSchema } from '../scenario/schema';

/** The version this build writes. */
export const CHALLENGE_VERSION = 1;

/** Upper bounds of a challenge (a small teaching object: a hostile file is refused early). */
export const CHALLENGE_LIMITS = {
  /** Faults a student may add, knobs they may change. */
  changes: 10,
  hints: 6,
  /** Attempts before a hint unlocks. */
  attempts: 100,
  /** Events a goal may ask for ("lose at least N"). */
  events: 1_000,
} as const;

const text = () => z.string().min(1).max(LIMITS.textLength);
const shortText = () => z.string().min(1).max(LIMITS.stringLength);
/** A knob's dotted path as the Knobs tab writes it (`producer.enable.idempotence`). */
const knobPath = () =>
  z
    .string()
    .min(1)
    .max(LIMITS.stringLength)
    .regex(/^[A-Za-z0-9._-]+$/, {
      message: 'a dotted knob path, e.g. producer.enable.idempotence',
    });

/** The fault kinds a scenario knows (`crash`, `drop-response`, …). */
export type FaultKind = z.output<typeof FaultSchema>['kind'];
/** The fault kinds a scenario knows (`crash`, `drop-response`, …); `random` is a union of its own. */
export const FAULT_KINDS = [
  ...new Set(
    FaultSchema.options.map((o) =>
      'shape' in o ? o.shape.kind.value : o.options[0].shape.kind.value,
    ),
  ),
] as [FaultKind, ...FaultKind[]];

/** Where the pipeline's lesson is: the library's sections a student browses by. */
export const CHALLENGE_AREAS = ['producer', 'consumer', 'flink', 'spark', 'sink'] as const;

/** One knob set to a value (a JSON scalar: knobs are numbers, strings, booleans or null). */
const ChallengeKnobSchema = z.strictObject({
  path: knobPath(),
  value: z.union([z.string().max(LIMITS.stringLength), z.number(), z.boolean(), z.null()]),
});

/**
 * The starting scenario: a library preset (`preset-id/variant-id`), optionally without its own
 * faults and with knobs set, or a scenario written inline (validated as any scenario file).
 */
const ChallengeStartSchema = z.union([
  z.strictObject({
    preset: shortText(),
    /** Start from the preset with none of its faults: the student places them. */
    withoutFaults: z.boolean().default(false),
    /** Knobs set on the preset before the student starts. */
    set: z.array(ChallengeKnobSchema).max(CHALLENGE_LIMITS.changes).default([]),
  }),
  z.strictObject({
    /** A whole scenario, as a scenario file writes it. */
    scenario: z.record(z.string(), z.unknown()),
  }),
]);

/**
 * What the student's run must show at the end of the pipeline (the checker's primary point, and
 * the processor's side effects where it makes any), in a run that drains:
 * - `lose`: at least `atLeast` business events never took effect;
 * - `duplicate`: at least `atLeast` took effect twice or more;
 * - `exact`: every event took effect exactly once.
 */
export const GoalSchema = z.discriminatedUnion('kind', [
  z.strictObject({
    kind: z.literal('lose'),
    atLeast: z.number().int().min(1).max(CHALLENGE_LIMITS.events).default(1),
  }),
  z.strictObject({
    kind: z.literal('duplicate'),
    atLeast: z.number().int().min(1).max(CHALLENGE_LIMITS.events).default(1),
  }),
  z.strictObject({ kind: z.literal('exact') }),
]);

/**
 * What the student may change. Everything else (the workload, the seed, the start's own faults)
 * stays as it is, and an attempt that changes it is refused, saying what.
 */
export const AllowSchema = z.strictObject({
  /** Faults added to the start's: at most `max`, of these kinds (default: any kind). */
  faults: z
    .strictObject({
      max: z.number().int().min(0).max(CHALLENGE_LIMITS.changes).default(0),
      kinds: z.array(z.enum(FAULT_KINDS)).min(1).optional(),
    })
    .default({ max: 0 }),
  /**
   * Knobs changed from the start: at most `max` (each configuration value whose effect differs
   * counts once); `locked` ones (or any knob under a locked prefix) must not change at all.
   */
  knobs: z
    .strictObject({
      max: z.number().int().min(0).max(CHALLENGE_LIMITS.changes).default(0),
      locked: z.array(knobPath()).max(CHALLENGE_LIMITS.changes).default([]),
    })
    .default({ max: 0, locked: [] }),
});

/** A hint, shown once the student has made `after` attempts. */
const HintSchema = z.strictObject({
  after: z.number().int().min(1).max(CHALLENGE_LIMITS.attempts),
  text: text(),
});

/** A challenge file. */
export const ChallengeSchema = z.strictObject({
  /** Where editors find this schema (`challenge.schema.json`); ignored by the app. */
  $schema: z.string().max(LIMITS.stringLength).optional(),
  version: z.literal(CHALLENGE_VERSION),
  /** Part of the contract: `?challenge=<id>`, a lesson step's challenge. */
  id: z
    .string()
    .min(1)
    .max(60)
    .regex(/^[a-z0-9]+(-[a-z0-9]+)*$/, { message: 'lower-case words joined by hyphens' }),
  title: shortText(),
  area: z.enum(CHALLENGE_AREAS),
  /** The situation, in words: the pipeline, what is set, what the student is to do. */
  intro: text(),
  start: ChallengeStartSchema,
  goal: GoalSchema,
  allow: AllowSchema.default({ faults: { max: 0 }, knobs: { max: 0, locked: [] } }),
  hints: z.array(HintSchema).max(CHALLENGE_LIMITS.hints).default([]),
  /** A minimal solution: the faults it adds and the knobs it sets (in this order). */
  solution: z.strictObject({
    faults: z.array(FaultSchema).max(CHALLENGE_LIMITS.changes).default([]),
    knobs: z.array(ChallengeKnobSchema).max(CHALLENGE_LIMITS.changes).default([]),
    /** Why it works, in a sentence or two (shown with it). */
    why: text(),
  }),
});

/** A challenge as written (defaults not yet applied). */
export type ChallengeInput = z.input<typeof ChallengeSchema>;
/** A validated challenge with every default applied. */
export type Challenge = z.output<typeof ChallengeSchema>;
export type Goal = z.output<typeof GoalSchema>;
export type ChallengeStart = z.output<typeof ChallengeStartSchema>;
export type ChallengeKnob = z.output<typeof ChallengeKnobSchema>;
