/**
 * Turning untrusted input (a file, a link, a paste) into a {@link Lesson}: migrate older versions,
 * apply the schema, then check what the schema cannot — that each step's preset exists, that its
 * inline scenario is a valid scenario, that its "then flip to" applies to it. Every problem is an
 * issue naming its field (`steps.2.preset`, `steps.0.scenario.producer.acks`), in the wording of
 * scenario files (src/engine/scenario/validate.ts `schemaIssues`). Nothing here throws.
 */
import {
  migrateFormat,
  parseScenario,
  readJsonText,
  keysAt,
  schemaIssues,
  REPORT_INPUT,
  type Issue,
  type MigrationStep,
} from '../../engine';
import { laneScenario } from '../../views/compare/lanes';
import { findPreset } from '../index';
import { shippedChallenges } from '../challenges/shipped';
import { checkChallenge } from '../challenges/resolve';
import { encodeChallengeLink } from '../../views/challenge/challengeLink';
import { ROOM_LIMITS } from '../../views/room/protocol';
import {
  LESSON_VERSION,
  LessonSchema,
  LessonStepSchema,
  MAX_LESSON_STEPS,
  type Lesson,
  type LessonStep,
} from './schema';
import { looksLikeChallenge } from '../challenges/looksLike';
import { flipLane } from './resolve';

export type LessonParse = { ok: true; lesson: Lesson } | { ok: false; issues: Issue[] };

/**
 * `LESSON_MIGRATIONS[n]` migrates a lesson of version n to n+1. Version 1 is the first published
 * format: the table is where the next step goes, with its test (./parse.test.ts).
 */
const LESSON_MIGRATIONS: Record<number, MigrationStep> = {};

/** Validate any value as a lesson. */
export function parseLesson(
  raw: unknown,
  migrations: Readonly<Record<number, MigrationStep>> = LESSON_MIGRATIONS,
  current = LESSON_VERSION,
): LessonParse {
  const other = otherFormat(raw);
  if (other) return { ok: false, issues: [{ path: '', message: other }] };
  const migrated = migrateFormat(raw, { current, steps: migrations, noun: 'a lesson' });
  if (!migrated.ok) return migrated;
  const parsed = LessonSchema.safeParse(migrated.value, REPORT_INPUT);
  if (!parsed.success) {
    // Every problem at once: a step the schema accepts is checked on its own even when another
    // field (the id, another step) is refused — its preset and its flip do not depend on them.
    const issues = schemaIssues(parsed.error.issues, (path) =>
      keysAt(LessonSchema, migrated.value, path),
    );
    const raw = (migrated.value as { steps?: unknown } | null)?.steps;
    const steps = Array.isArray(raw) ? raw.slice(0, MAX_LESSON_STEPS) : [];
    const more = steps.flatMap((value, k) => {
      const at = `steps.${k}`;
      if (issues.some((i) => i.path === at || i.path.startsWith(`${at}.`)))
        return namedIssues(value, at, issues);
      const step = LessonStepSchema.safeParse(value, REPORT_INPUT);
      return step.success ? stepIssues(step.data, at) : [];
    });
    return { ok: false, issues: [...issues, ...more] };
  }
  const lesson = parsed.data;
  const issues = lesson.steps.flatMap((step, k) => stepIssues(step, `steps.${k}`));
  return issues.length > 0 ? { ok: false, issues } : { ok: true, lesson };
}

/**
 * A file of the lab's other formats, opened as a lesson (the presenter's Open… on the scenario
 * the page exported, or a challenge): one sentence saying what it is and where it goes, rather
 * than each of its fields as an unknown key of a lesson. Null for anything else.
 */
function otherFormat(raw: unknown): string | null {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw) || 'steps' in raw) return null;
  if ('workload' in raw || 'batch' in raw)
    return 'a scenario file, not a lesson (it has no `steps`): put it in a step as `"scenario": {…}`, or open it with the page’s Import';
  if (looksLikeChallenge(raw))
    return 'a challenge file, not a lesson (it has no `steps`): open it with the page’s Import; a step names a shipped challenge by its id, `"challenge": "<id>"`, or carries this one, `"challenge": {…}` (docs/workshops.md)';
  return null;
}

/** Parse JSON text (a file, a paste) into a lesson. */
export function parseLessonJson(text: string): LessonParse {
  const read = readJsonText(text, 'a lesson');
  return read.ok ? parseLesson(read.raw) : read;
}

/** Whether a JSON value is meant as a lesson rather than a scenario: it lists `steps`. */
export function looksLikeLesson(raw: unknown): boolean {
  return (
    typeof raw === 'object' && raw !== null && Array.isArray((raw as { steps?: unknown }).steps)
  );
}

/**
 * A step's challenge, named by id, must be one the lab ships: the presenter tells the room its id
 * and the page opens it with `?challenge=<id>`, so an unknown id would send a whole room to
 * nothing. Ids only, not each challenge's validation (src/scenarios/challenges/index.ts does that
 * on first use). The lesson's own challenge, inline, is validated as a challenge file is.
 */
function challengeIssues(step: LessonStep, at: string): Issue[] {
  if (step.challenge === undefined) return [];
  if (typeof step.challenge !== 'string')
    return ownChallengeIssues(step.challenge, `${at}.challenge`);
  const known = shippedChallenges.map((c) => c.id);
  if (known.includes(step.challenge)) return [];
  return [
    {
      path: `${at}.challenge`,
      message: `no challenge "${step.challenge}" in the lab; known: ${known.join(', ')}`,
    },
  ];
}

/**
 * The lesson's own challenge (`"challenge": {…}`): valid as a challenge file (docs/challenges.md:
 * the format, its start, the knobs it names), with an id of its own — a shipped one's id opens
 * the shipped challenge (`?challenge=<id>`), as the page's Import says — and small enough to
 * travel whole in the link the room's phones open (`ROOM_LIMITS.challengeLinkChars`).
 */
function ownChallengeIssues(raw: unknown, at: string): Issue[] {
  const r = checkChallenge(raw);
  if (!r.ok)
    return r.issues.map((i) => ({ path: i.path ? `${at}.${i.path}` : at, message: i.message }));
  const id = r.challenge.id;
  if (shippedChallenges.some((c) => c.id === id))
    return [
      {
        path: `${at}.id`,
        message: `"${id}" is a shipped challenge's id (?challenge=${id} opens that one): give this one an id of its own, or write "challenge": "${id}" for the shipped one`,
      },
    ];
  const carried = encodeChallengeLink(r.challenge).length;
  const most = ROOM_LIMITS.challengeLinkChars;
  return carried > most
    ? [
        {
          path: at,
          message: `too large to travel in the link the students open: ${carried.toLocaleString('en-US')} characters compressed, at most ${most.toLocaleString('en-US')} — shorten its texts, or start it from a library preset rather than an inline scenario`,
        },
      ]
    : [];
}

/**
 * A step's own question names the facts its answer depends on (`needs`), each as written in the
 * setup the room reads (the step's `setup`, else its preset's): the shipped lessons' rule
 * (./library.test.ts), checked on every lesson file — a fact missing there is a question the room
 * cannot answer from what it reads (the setup says acks=0, the question needs acks=1).
 */
function needsIssues(step: LessonStep, at: string): Issue[] {
  const needs = step.question?.needs ?? [];
  if (needs.length === 0) return [];
  const found = step.preset !== undefined ? findPreset(step.preset) : undefined;
  const setup = step.setup ?? found?.preset.setup ?? '';
  // A lesson written against an earlier wording of the preset's setup still opens.
  const former = step.setup === undefined ? (found?.preset.formerSetups ?? []) : [];
  const where = step.setup !== undefined ? `${at}.setup` : 'the preset’s setup';
  return needs.flatMap((fact, k) =>
    setup.includes(fact) || former.some((text) => text.includes(fact))
      ? []
      : [
          {
            path: `${at}.question.needs.${k}`,
            message: `"${fact}" is not written in ${where}, which the room reads before answering: write it there as the answer needs it`,
          },
        ],
  );
}

/** `text` with its regular-expression characters escaped. */
function literal(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * The answer written in the step's own setup, which the room reads before it answers (peer
 * instruction: the prediction is what makes the demonstration teach, docs/workshops.md): a number
 * asked for with its word ("7 rows", "$280"), the right option's text, or the answer itself. A
 * hand edit that adds the outcome to the setup ("… The table ends with 7 rows.") turns the step
 * into a reading test; the step's own setup only (a preset's is the library's).
 */
function giveawayIssues(step: LessonStep, at: string): Issue[] {
  const q = step.question;
  const setup = step.setup;
  if (!q || setup === undefined) return [];
  const said = (words: string) =>
    `the setup says ${words}, the answer to its own question: the room reads the setup before answering — leave the outcome to the reveal (the question's \`answer\`)`;
  const lower = setup.toLowerCase();
  if (lower.includes(q.answer.trim().toLowerCase()))
    return [{ path: `${at}.setup`, message: said(`"${q.answer.trim()}"`) }];
  if (q.mark.kind === 'choice') {
    const right = q.mark.options.find((o) => o.right);
    return right && right.text.trim().length >= 8 && lower.includes(right.text.trim().toLowerCase())
      ? [{ path: `${at}.setup`, message: said(`"${right.text.trim()}" (the right option)`) }]
      : [];
  }
  for (const v of q.mark.values) {
    // "$280" (a prefix says what it is), or "7 rows" (the number, then its word or a unit).
    const words = [v.what, ...(v.units ?? [])].map((w) => literal(w.trim())).join('|');
    const pattern = v.prefix
      ? `${literal(v.prefix)}${v.value}(?!\\d|[.,]\\d)`
      : `(?<![\\w.$])${v.value}\\s+(?:${words})\\b`;
    const found = new RegExp(pattern, 'i').exec(setup);
    if (found) return [{ path: `${at}.setup`, message: said(`"${found[0]}"`) }];
  }
  return [];
}

/**
 * A step the schema refuses still has its preset and its challenge checked, when named by a
 * string the schema let pass: they depend on no other field, and a teacher who fixed the pace and
 * the question's right option learnt only then that `steps.1.preset` named no preset.
 */
function namedIssues(value: unknown, at: string, refused: readonly Issue[]): Issue[] {
  if (typeof value !== 'object' || value === null) return [];
  const { preset, challenge } = value as { preset?: unknown; challenge?: unknown };
  const free = (field: string) => !refused.some((i) => i.path.startsWith(`${at}.${field}`));
  return [
    ...(typeof preset === 'string' && free('preset') && !findPreset(preset)
      ? [unknownPreset(preset, at)]
      : []),
    ...((typeof challenge === 'string' ||
      (typeof challenge === 'object' && challenge !== null && !Array.isArray(challenge))) &&
    free('challenge')
      ? challengeIssues({ challenge } as LessonStep, at)
      : []),
  ];
}

function unknownPreset(preset: string, at: string): Issue {
  return {
    path: `${at}.preset`,
    message: `no preset "${preset}" in the library (write \`preset-id\` or \`preset-id/variant-id\`)`,
  };
}

/** What the schema alone cannot check in one step. */
function stepIssues(step: LessonStep, at: string): Issue[] {
  const references = referenceIssues(step, at);
  return [
    ...references,
    ...(references.length === 0 ? [...needsIssues(step, at), ...giveawayIssues(step, at)] : []),
    ...challengeIssues(step, at),
  ];
}

/** A step's scenario: its preset exists, its inline scenario is valid, its flip applies. */
function referenceIssues(step: LessonStep, at: string): Issue[] {
  let base: unknown;
  if (step.preset !== undefined) {
    const found = findPreset(step.preset);
    if (!found) return [unknownPreset(step.preset, at)];
    base = found.variant.scenario;
  } else {
    const r = parseScenario(step.scenario);
    if (!r.ok)
      return r.issues.map((i) => ({
        path: i.path ? `${at}.scenario.${i.path}` : `${at}.scenario`,
        message: i.message,
      }));
    base = step.scenario;
  }
  if (step.thenFlipTo) {
    const lane = laneScenario(
      base as Parameters<typeof laneScenario>[0],
      flipLane(step.thenFlipTo),
    );
    if (!lane.ok) return [{ path: `${at}.thenFlipTo`, message: lane.reason }];
  }
  return [];
}
