/**
 * A preset of the scenario library: a story told around one scenario, with variants one click
 * apart ("same failure, three sinks") and the exact outcome of each, worked out by hand.
 */
import type { ScenarioInput, Guarantee } from '../engine';

/** Where in the pipeline the failure happens (the library groups presets by it). */
export type PresetGroup =
  | 'guarantees'
  | 'producer'
  | 'broker'
  | 'consumer'
  | 'processor'
  | 'sink'
  | 'side effect'
  | 'batch';

/** One variant: a complete scenario (with its `expect` block) and a label. */
export interface PresetVariant {
  /** Part of the contract: `preset-id/variant-id` addresses it in the CLI, URLs and tests. */
  id: string;
  label: string;
  /** One line on what differs in this variant. */
  summary: string;
  scenario: ScenarioInput;
  /**
   * The ids of its faults that never fire in its own run, kept on purpose: at-most-once keeps its
   * siblings' lost acknowledgement, which acks=0 gives nothing to lose (Compare's lanes show it
   * fire under the other guarantees). The page does not warn of them while they are as shipped
   * (src/views/run/neverFired.ts); src/views/run/neverFired.test.ts checks this list against
   * every variant's run.
   */
  neverFires?: readonly string[];
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
  /**
   * The setup, shown before the question is answered: what the pipeline is, what will go wrong,
   * and every number a student needs to answer the question from it and the pipeline on screen
   * (`predict.needs` lists them; a unit test checks each is here). Tells nothing of the outcome.
   */
  setup: string;
  /**
   * Earlier wordings of `setup`, word for word: a lesson file's `needs` quotes the setup it was
   * written against, and a reworded setup (the sink's key column named as its card names it)
   * must not make last week's lesson refuse to open. A need found here still counts as written.
   */
  formerSetups?: readonly string[];
  /**
   * The reveal, hidden until the answer: 2–4 sentences on who, what broke, what they saw and why.
   */
  story: string;
  /** What to watch on screen. */
  watch: string;
  /** The knob that fixes it ("try: …"). */
  fix: string;
  /**
   * A question to answer before the run, and its answer (shown after). `variant` names the
   * variant the question is about when it is not the first one; `mark` says how a prediction is
   * marked right or wrong (or that it is not, for a question answered in words); `needs` is the
   * rule that makes the question answerable: the facts the answer depends on, each as it is
   * written in `setup` (a number with its words: "10 records", "$40").
   */
  predict: {
    question: string;
    answer: string;
    variant?: string;
    mark: PredictMark;
    needs: string[];
  };
  /** Documentation it rests on (URLs). */
  sources: string[];
  /**
   * A bare preset id opens its default variant: the one `predict.variant` names, else the first
   * (src/scenarios/defaultVariant.ts).
   */
  variants: PresetVariant[];
}

/** One number a question asks for ({@link PredictMark} `numbers`). */
export interface AskedNumber {
  value: number;
  /** What it counts, for the reader ("rows", "sum"). */
  what: string;
  /** How the answer writes it before the digits (`$`). */
  prefix?: string;
  /**
   * Words accepted after the number as its unit ("rows", "charges"), singular and plural; a
   * prediction whose number carries another unit the question knows is read in that unit.
   */
  units?: string[];
  /** How far off is still right (default 0: exactly). */
  tolerance?: number;
  /**
   * The same answer in another unit: "2 charges" for "$80" (p-77, $40, charged twice). Right when
   * the prediction gives this value in one of these units.
   */
  alsoAs?: { value: number; units: string[] };
}

/** One option of a multiple-choice question ({@link PredictMark} `choice`). */
export interface ChoiceOption {
  /** Stable id (kept in a prediction). */
  id: string;
  text: string;
  /** Exactly one option of a question is right. */
  right?: true;
  /** A wrong option: the misconception it stands for, and why not, in one line. */
  whyNot?: string;
}

/**
 * How a prediction is marked against a preset's answer (src/views/library/question.ts, `markPrediction`).
 * Every preset says which, so no question is left silently unmarked:
 * - `numbers`: the whole numbers the question asks for, in the order it asks for them ("how many
 *   rows, and what is their sum?": the rows, then the sum), each with its unit and tolerance.
 *   `alsoAsks`: a part of the question answered in words, which is not marked — the page says so.
 * - `events`: the business events the question asks for ("which records…?"); the prediction
 *   names them (`e4, e5`) or a range (`e4..e7`, `e4–e7`, `e4 to e7`). Right when the sets match.
 * - `choice`: multiple choice, 3–4 options, exactly one right; each wrong one says why not.
 * - `words`: answered in words by design: not marked, and the page says so.
 */
export type PredictMark =
  | { kind: 'numbers'; values: AskedNumber[]; alsoAsks?: string }
  | { kind: 'events'; ids: string[] }
  | { kind: 'choice'; options: ChoiceOption[] }
  | { kind: 'words' };
