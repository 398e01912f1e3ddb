/**
 * Generates `public/scenario.schema.json`, the JSON Schema of the scenario format, from the zod
 * schema the engine validates with (src/engine/scenario/schema.ts) — one source of truth — and
 * `public/lesson.schema.json`, the lesson format's (src/scenarios/lessons/schema.ts).
 * `public/challenge.schema.json`, the challenge format's (src/engine/challenge/schema.ts).
 *
 *   npm run schema            # rewrite both
 *
 * `z.toJSONSchema(ScenarioSchema, { io: 'input' })` describes a scenario *as written*: fields
 * with a default are optional and carry it as `default`; discriminated unions (`processor.type`,
 * `sink.type`, `faults[].kind`) become `oneOf` with a `const` discriminator; the limits (string
 * lengths, list sizes, time ranges) are `maxLength`/`maxItems`/`maximum`, so editors refuse an
 * oversized file as the app does. https://zod.dev/json-schema
 *
 * What JSON Schema cannot say is added or described here: "exactly one of workload.events or
 * workload.generate" becomes a `oneOf`; the cross-field checks (`replication.factor` ≤ brokers,
 * fault targets that exist, the combinations Kafka refuses) are named in the description — the
 * app and the CLI still check them.
 *
 * A unit test (src/cli/schema.test.ts) fails when the committed file differs from what this
 * script generates, so the schema cannot go stale.
 */
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { format, resolveConfig } from 'prettier';
import { z } from 'zod';
import {
  CHALLENGE_VERSION,
  ChallengeSchema,
  CURRENT_VERSION,
  LIMITS,
  MAX_JSON_CHARS,
  ScenarioSchema,
} from '../src/engine';
import { LESSON_VERSION, LessonSchema, MAX_LESSON_STEPS } from '../src/scenarios/lessons';

/** Where the schema is published (served next to the app, so any static host works). */
export const SCHEMA_PATH = 'public/scenario.schema.json';

/** The scenario JSON Schema as an object. */
export function scenarioJsonSchema(): Record<string, unknown> {
  const generated = z.toJSONSchema(ScenarioSchema, { io: 'input' }) as Record<string, unknown>;
  const { $schema, ...rest } = generated;
  const properties = rest.properties as Record<string, Record<string, unknown>>;
  // z.refine cannot be expressed; this one can.
  properties.workload = {
    ...properties.workload,
    oneOf: [{ required: ['events'] }, { required: ['generate'] }],
    description:
      'Give exactly one of `events` (listed one by one) or `generate` (a seeded generator).',
  };
  // Each kind of scenario says what it requires: a streaming scenario its workload, a batch one
  // its `batch` part, whose source table's rows are then its business events (parseScenario).
  const required = (rest.required as string[]).filter((k) => k !== 'workload');
  rest.required = required;
  rest.oneOf = [
    {
      title: 'streaming scenario',
      required: ['workload'],
      not: { required: ['batch'] },
    },
    {
      title: 'batch scenario',
      required: ['batch'],
      description:
        'A batch job over a source table (docs/format.md); `workload` may be left out: the rows of `batch.source` are the business events.',
    },
  ];
  // `random` is itself a union on `what`: list its variants beside the other kinds (one flat
  // oneOf, each member with a `kind` const), which editors complete and explain better.
  const faults = properties.faults as { items: { oneOf: Record<string, unknown>[] } };
  faults.items.oneOf = faults.items.oneOf.flatMap((k) =>
    Array.isArray(k.oneOf) ? (k.oneOf as Record<string, unknown>[]) : [k],
  );
  const limits = [
    `at most ${LIMITS.explicitEvents} listed events or ${LIMITS.generatedEvents} generated ones`,
    `${LIMITS.faults} faults`,
    `${LIMITS.readers} readers`,
    `names and ids of at most ${LIMITS.stringLength} characters (free text ${LIMITS.textLength})`,
    `times of at most ${LIMITS.timeMs} ms (7 days)`,
    `files of at most ${MAX_JSON_CHARS} characters`,
  ].join(', ');
  return {
    $schema,
    title: `Delivery Lab scenario, version ${CURRENT_VERSION}`,
    description:
      'A complete, plain-data description of a run of the Delivery Lab pipeline simulator: ' +
      'workload, topology, every knob (with the real systems’ names and defaults), the seed and ' +
      `the fault schedule. Times are virtual milliseconds. Limits: ${limits}. ` +
      'Checked by the app beyond this schema: replication.factor ≤ brokers, ' +
      'min.insync.replicas ≤ replication.factor, replica.fetch.wait.max.ms ≤ ' +
      'replica.lag.time.max.ms, fault targets and event ids that exist, reader ' +
      'topics that exist, and the settings Kafka, Flink and PostgreSQL refuse together.',
    ...rest,
  };
}

/**
 * The file's text, formatted by Prettier with the project's settings — so `npm run format` leaves
 * it as generated and the staleness test keeps meaning "the schema changed".
 */
export async function scenarioJsonSchemaText(): Promise<string> {
  return formatted(SCHEMA_PATH, scenarioJsonSchema());
}

/** Where the lesson format's schema is published, beside the scenario's. */
export const LESSON_SCHEMA_PATH = 'public/lesson.schema.json';

/**
 * The lesson JSON Schema as an object: an inline step scenario refers to the scenario's, an
 * inline challenge to the challenge's.
 */
export function lessonJsonSchema(): Record<string, unknown> {
  const generated = z.toJSONSchema(LessonSchema, { io: 'input' }) as Record<string, unknown>;
  const { $schema, ...rest } = generated;
  const steps = (rest.properties as { steps: { items: Record<string, unknown> } }).steps;
  const step = steps.items as { properties: Record<string, unknown> };
  step.properties.scenario = {
    $ref: 'scenario.schema.json',
    description: 'An inline scenario, as a scenario file writes it.',
  };
  const named = (step.properties.challenge as { anyOf: Record<string, unknown>[] }).anyOf[0]!;
  step.properties.challenge = {
    anyOf: [
      { ...named, description: 'A shipped challenge, by its id.' },
      {
        $ref: 'challenge.schema.json',
        description: 'The lesson’s own challenge, as a challenge file writes it.',
      },
    ],
  };
  steps.items = {
    ...steps.items,
    oneOf: [{ required: ['preset'] }, { required: ['scenario'] }],
  };
  return {
    $schema,
    title: `Delivery Lab lesson, version ${LESSON_VERSION}`,
    description:
      'A presenter’s sequence of Delivery Lab stories (docs/workshops.md): a title and up to ' +
      `${MAX_LESSON_STEPS} steps, each a library preset (\`preset-id\` or \`preset-id/variant-id\`) or an ` +
      'inline scenario, with its question, presenter note, panels, pace, "then flip to" and ' +
      'challenge (a shipped one by id, or its own inline). Checked by the app beyond this ' +
      'schema: presets and challenges that exist, inline scenarios and challenges that ' +
      'validate, a "then flip to" that applies to its step.',
    ...rest,
  };
}

/** The lesson schema file's text (Prettier-formatted, as the scenario's). */
export async function lessonJsonSchemaText(): Promise<string> {
  return formatted(LESSON_SCHEMA_PATH, lessonJsonSchema());
}

async function formatted(path: string, value: unknown): Promise<string> {
  const options = (await resolveConfig(path)) ?? {};
  return format(JSON.stringify(value), { ...options, parser: 'json' });
}

/** Where the challenge format's schema is published (docs/challenges.md). */
export const CHALLENGE_SCHEMA_PATH = 'public/challenge.schema.json';

/**
 * The challenge JSON Schema as an object. An inline start scenario refers to the scenario's
 * schema beside it (the zod schema takes it as an object and validates it as a scenario).
 */
export function challengeJsonSchema(): Record<string, unknown> {
  const generated = z.toJSONSchema(ChallengeSchema, { io: 'input' }) as Record<string, unknown>;
  const { $schema, ...rest } = generated;
  const properties = rest.properties as Record<string, { anyOf: Record<string, unknown>[] }>;
  const inline = properties.start!.anyOf[1] as { properties: Record<string, unknown> };
  inline.properties.scenario = {
    $ref: 'scenario.schema.json',
    description: 'A whole scenario, as a scenario file writes it.',
  };
  return {
    $schema,
    title: `Delivery Lab challenge, version ${CHALLENGE_VERSION}`,
    description:
      'A goal over the run a student makes from a starting scenario (a library preset or an ' +
      'inline scenario), what the student may change (faults, knobs), hints unlocked after ' +
      'attempts, and a minimal reference solution. The engine decides success on the run. ' +
      'Checked by the app beyond this schema: the preset exists, the solution keeps the ' +
      "challenge's own rules, hints unlock in order, and the challenge allows some change.",
    ...rest,
  };
}

/** The challenge schema's text, formatted as {@link scenarioJsonSchemaText} formats its own. */
export async function challengeJsonSchemaText(): Promise<string> {
  const options = (await resolveConfig(CHALLENGE_SCHEMA_PATH)) ?? {};
  return format(JSON.stringify(challengeJsonSchema()), { ...options, parser: 'json' });
}

// Run when executed directly (`npm run schema`), not when imported by the test.
if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  writeFileSync(SCHEMA_PATH, await scenarioJsonSchemaText());
  writeFileSync(LESSON_SCHEMA_PATH, await lessonJsonSchemaText());
  writeFileSync(CHALLENGE_SCHEMA_PATH, await challengeJsonSchemaText());
  process.stdout.write(
    `wrote ${SCHEMA_PATH}, ${LESSON_SCHEMA_PATH} and ${CHALLENGE_SCHEMA_PATH}\n`,
  );
}
