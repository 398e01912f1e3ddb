/**
 * A preset of the scenario library: a story told around one scenario, with variants one click
 * apart ("same failure, three sinks") and the exact outcome of each, worked out by hand.
 */
import type { ScenarioInput, Guarantee } from '../engine';

/** Where in the pipeline the failure happens (the library groups presets by it). */
export type PresetGroup =
  'guarantees' | 'producer' | 'broker' | 'consumer' | 'processor' | 'sink' | 'side effect';

/** One variant: a complete scenario (with its `expect` block) and a label. */
export interface PresetVariant {
  /** Part of the contract: `preset-id/variant-id` addresses it in the CLI, URLs and tests. */
  id: string;
  label: string;
  /** One line on what differs in this variant. */
  summary: string;
  scenario: ScenarioInput;
}

/** A library preset. Ids are part of the contract (CLI, URLs, tests, embeds). */
export interface Preset {
  id: string;
  title: string;
  group: PresetGroup;
  /** One line for the library card. */
  oneLine: string;
  /** The guarantee it illustrates. */
  illustrates: Guarantee | 'none';
  /** 2–4 sentences: who, what broke, what they saw. */
  story: string;
  /** What to watch on screen. */
  watch: string;
  /** The knob that fixes it ("try: …"). */
  fix: string;
  /**
   * A question to answer before the run, and its answer (shown after). `variant` names the
   * variant the question is about when it is not the first one; `mark` says how a prediction is
   * marked right or wrong (or that it is not, for a question answered in words).
   */
  predict: { question: string; answer: string; variant?: string; mark: PredictMark };
  /** Documentation it rests on (URLs). */
  sources: string[];
  /** The first one is the default variant. */
  variants: PresetVariant[];
}

/**
 * How a prediction, written in words, is marked against a preset's answer (src/views/library.ts,
 * `markPrediction`). Every preset says which, so no question is left silently unmarked:
 * - `numbers`: the whole numbers the question asks for, in the order it asks for them ("how many
 *   rows, and what is their sum?": the rows, then the sum); `what` names each for the reader,
 *   `prefix` is how the answer writes it (`$`). Right when the prediction holds exactly these.
 *   `alsoAsks`: a part of the question answered in words ("whether anything reports an error"),
 *   which is not marked — the page says so.
 * - `events`: the business events the question asks for ("which records…?"); the prediction
 *   names them (`e4, e5`) or a range (`e4..e7`, `e4–e7`, `e4 to e7`). Right when the sets match.
 * - `words`: answered in words by design (what a table holds): not marked, and the page says so.
 */
export type PredictMark =
  | {
      kind: 'numbers';
      values: { value: number; what: string; prefix?: string }[];
      alsoAsks?: string;
    }
  | { kind: 'events'; ids: string[] }
  | { kind: 'words' };
