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
   * variant the question is about when it is not the first one.
   */
  predict: { question: string; answer: string; variant?: string };
  /** Documentation it rests on (URLs). */
  sources: string[];
  /** The first one is the default variant. */
  variants: PresetVariant[];
}
