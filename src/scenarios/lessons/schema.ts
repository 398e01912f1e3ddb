/**
 * The lesson file format: a title and an ordered list of steps a presenter walks a room through,
 * each a library preset (or one of its variants) or an inline scenario, with what the room is
 * asked before its run plays. Validated like a scenario (zod, versioned, the same wording of
 * issues: ./parse.ts) and published as JSON Schema (`public/lesson.schema.json`, `npm run schema`).
 * The format is described for authors in docs/workshops.md.
 */
import { z } from 'zod';
import { GuaranteeSchema, LIMITS, PACE_MAX, PACE_MIN } from '../../engine';

/** The version this build writes. */
export const LESSON_VERSION = 1;

/** Most steps in one lesson: a 90-minute session is a dozen stories, not hundreds. */
export const MAX_LESSON_STEPS = 40;

/** The panels a step may show on the projector (all of them when the step names none). */
export const LESSON_PANELS = ['pipeline', 'counters', 'transport'] as const;

/**
 * What the room reads: a title, a setup, a question, an option. Spaces only would put an empty
 * heading or question on the projector (a hand edit that cleared a value but kept its quotes).
 */
const notBlank = (s: z.ZodString) =>
  s.refine((v) => v.length === 0 || v.trim() !== '', {
    message: 'must not be blank (spaces only): write the words, or leave the field out',
  });
const text = () => notBlank(z.string().min(1).max(LIMITS.textLength));
const label = () => notBlank(z.string().min(1).max(LIMITS.stringLength));

/**
 * Markdown in a title: strong or emphasis (`**x**`, `__x__`, `*x*`, `_x_` as words), code
 * (`` `x` ``), a link (`[x](url)`) or a heading mark. A title is shown as plain text on the
 * projector, the notes and the students' phones, so the marks would show as written.
 * Identifiers keep their underscores (`read_committed`, `transactional.id`).
 */
const MARKDOWN_IN_TITLE = [
  /`[^`]+`/,
  /\*\*[^*\s][^*]*\*\*/,
  /(?<![\w])__[^_\s][^_]*__(?![\w])/,
  /(?<![\w*])\*[^*\s][^*]*\*(?![\w*])/,
  /(?<![\w])_[^_\s][^_]*_(?![\w])/,
  /\[[^\]]+\]\([^)]*\)/,
  /^#{1,6}\s/,
];

/** A title: plain text, refused with the Markdown it holds. */
const title = () =>
  label().superRefine((v, ctx) => {
    for (const re of MARKDOWN_IN_TITLE) {
      const found = re.exec(v);
      if (found)
        return ctx.addIssue({
          code: 'custom',
          message: `Markdown is not rendered in a title: "${found[0]}" would show its marks as written on the projector — write it as plain text`,
        });
    }
  });

/** One option of a multiple-choice question (as a preset's: src/scenarios/types.ts ChoiceOption). */
const ChoiceOptionSchema = z.strictObject({
  id: label(),
  text: label(),
  right: z.literal(true).optional(),
  whyNot: text().optional(),
});

/** One number a question asks for (as a preset's: src/scenarios/types.ts AskedNumber). */
const AskedNumberSchema = z.strictObject({
  value: z.number().int().min(0).max(1e9),
  what: label(),
  prefix: z.string().max(3).optional(),
  units: z.array(label()).max(10).optional(),
  tolerance: z.number().int().min(0).max(1e9).optional(),
});

/**
 * How the room answers: a choice among 3–4 options (exactly one right) or numbers — the page's
 * question model (src/views/library/question.ts `markPrediction`).
 */
const MarkSchema = z.discriminatedUnion('kind', [
  z.strictObject({
    kind: z.literal('choice'),
    options: z
      .array(ChoiceOptionSchema)
      .min(3)
      .max(4)
      .refine((o) => o.filter((x) => x.right).length === 1, {
        message: 'exactly one option is right (`"right": true`)',
      })
      .superRefine((o, ctx) => {
        // The room's answers are kept by the option's id (the results CSV's `answer`, the marks):
        // two options with one id would count a vote for either as the first.
        o.forEach((x, k) => {
          const first = o.findIndex((y) => y.id === x.id);
          if (first < k)
            ctx.addIssue({
              code: 'custom',
              path: [k, 'id'],
              message: `"${x.id}" is option ${first + 1}’s id too: each option needs an id of its own`,
            });
        });
      }),
  }),
  z.strictObject({
    kind: z.literal('numbers'),
    values: z.array(AskedNumberSchema).min(1).max(4),
  }),
]);

/** A step's own question, in place of its preset's (or of the question any run can be asked). */
const LessonQuestionSchema = z.strictObject({
  question: text(),
  /** Shown on the reveal. */
  answer: text(),
  mark: MarkSchema,
  /**
   * The facts the answer depends on, each as written in the step's `setup` (or its preset's):
   * the library's rule that makes a question answerable (tested for every shipped lesson).
   */
  needs: z.array(label()).max(10).default([]),
});

/** A compare step: after the reveal, the same run beside this guarantee or knob ("then flip to"). */
const FlipSchema = z.union([
  z.strictObject({ guarantee: GuaranteeSchema }),
  z.strictObject({
    /** A knob's path as Compare and the CLI name it (`producer.enable.idempotence`). */
    knob: label(),
    value: z.union([z.string().max(LIMITS.stringLength), z.number(), z.boolean()]),
  }),
]);

export const LessonStepSchema = z
  .strictObject({
    title: title(),
    /** A library preset, `preset-id` or `preset-id/variant-id`. */
    preset: label().optional(),
    /** An inline scenario (validated as a scenario file is: its issues name `steps.N.scenario.…`). */
    scenario: z.record(z.string(), z.unknown()).optional(),
    /** What the room reads before it answers (default: the preset's setup). */
    setup: text().optional(),
    question: LessonQuestionSchema.optional(),
    /** For the presenter's eyes only (the notes window). */
    note: text().optional(),
    panels: z.array(z.enum(LESSON_PANELS)).min(1).max(LESSON_PANELS.length).optional(),
    /** Playback speed, virtual ms per real ms (default: the scenario's own pace). */
    pace: z.number().min(PACE_MIN).max(PACE_MAX).optional(),
    thenFlipTo: FlipSchema.optional(),
    /**
     * A challenge the students then solve on their own laptops: a shipped one by its id, or the
     * author's own written inline as a challenge file is (docs/challenges.md; its issues name
     * `steps.N.challenge.…`, ./parse.ts).
     */
    challenge: z.union([label(), z.record(z.string(), z.unknown())]).optional(),
  })
  .superRefine((s, ctx) => {
    if ((s.preset === undefined) === (s.scenario === undefined))
      ctx.addIssue({
        code: 'custom',
        path: ['preset'],
        message:
          'give exactly one of `preset` (a library preset, `id` or `id/variant`) or `scenario` (inline)',
      });
  });

export const LessonSchema = z.strictObject({
  /** Where editors find this schema (`lesson.schema.json`). */
  $schema: z.string().max(LIMITS.stringLength).optional(),
  version: z.literal(LESSON_VERSION),
  /** Its address in the library and in `?lesson=`: lower case, digits and hyphens. */
  id: z
    .string()
    .min(1)
    .max(80)
    .regex(
      /^[a-z0-9][a-z0-9-]*$/,
      'lower-case letters, digits and hyphens (as `exactly-once-101`)',
    ),
  title: title(),
  description: text().optional(),
  steps: z.array(LessonStepSchema).min(1).max(MAX_LESSON_STEPS),
});

/** A lesson as written. */
export type LessonInput = z.input<typeof LessonSchema>;
/** A validated lesson, defaults applied. */
export type Lesson = z.output<typeof LessonSchema>;
export type LessonStep = z.output<typeof LessonStepSchema>;
export type LessonPanel = (typeof LESSON_PANELS)[number];
