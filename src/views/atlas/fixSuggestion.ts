/**
 * What keeps the claim on the atlas's minimal counterexample: the engineer's next question once a
 * fault breaks their configuration ("does it tell you what to change?"). The knobs tried are those
 * of the claim's own recipe (src/scenarios/guaranteeRecipes.ts) that the scenario sets otherwise —
 * each alone, then, if none alone does, all of them together. A knob counts only if its run is
 * one Kafka or Flink would accept (the scenario validates) and the fault still strikes in it: a
 * setting under which the fault cannot happen has not shown that it survives it.
 *
 * It is a finding on this one fault, not on the atlas: the page and the CLI say so and offer the
 * knob as a Compare lane, where the other faults can be tried.
 */
import {
  classify,
  parseScenario,
  simulate,
  type FaultSpec,
  type Guarantee,
  type ScenarioInput,
} from '../../engine';
import { recipeDifferences } from '../../scenarios/guarantees';
import { setKnob } from '../../scenarios/knobPaths';
import { formatKnobValue, knobMeta } from '../edit/knobs';

/** A knob set otherwise: its path, and how it reads (`acks=all`, its real name). */
interface KnobFix {
  path: string;
  value: unknown;
  text: string;
}

export type FixSuggestion =
  /** Each of these alone keeps the claim on the fault. */
  | { kind: 'alone'; claim: Guarantee; knobs: KnobFix[] }
  /** None alone does; the recipe's knobs the scenario sets otherwise, together, do. */
  | { kind: 'together'; claim: Guarantee; knobs: KnobFix[] }
  /** Not even those together: the claim breaks on this fault under its own recipe. */
  | { kind: 'none'; claim: Guarantee; knobs: KnobFix[] };

const fixOf = (path: string, value: unknown): KnobFix => {
  const meta = knobMeta(path);
  return { path, value, text: `${meta?.name ?? path}=${formatKnobValue(meta, value)}` };
};

/**
 * Whether `input` with `faults` added holds its claim, the faults striking; false for a scenario
 * that does not validate (a knob Kafka refuses alone: idempotence without acks=all).
 */
function holds(input: ScenarioInput, faults: readonly FaultSpec[]): boolean {
  const alone = parseScenario(input);
  const faulted = parseScenario({ ...input, faults: [...(input.faults ?? []), ...faults] });
  if (!alone.ok || !faulted.ok) return false;
  const baseCutOff = simulate(alone.scenario).cutOff;
  const r = classify(simulate(faulted.scenario), baseCutOff, faults.length);
  return r.fired && r.outcome === 'held';
}

/**
 * The knobs that keep `input`'s claim when `faults` (the minimal counterexample) strike, or null
 * when the scenario already sets its claim's recipe (there is no knob of it to suggest).
 */
export function suggestFix(
  input: ScenarioInput,
  faults: readonly FaultSpec[],
): FixSuggestion | null {
  const parsed = parseScenario(input);
  if (!parsed.ok) return null;
  const claim = parsed.scenario.claim;
  const differ = recipeDifferences(input, claim);
  if (differ.length === 0) return null;
  const knobs = differ.map((d) => fixOf(d.path, d.value));
  const alone = knobs.filter((k) => holds(setKnob(input, k.path, k.value), faults));
  if (alone.length > 0) return { kind: 'alone', claim, knobs: alone };
  const all = knobs.reduce((s, k) => setKnob(s, k.path, k.value), input);
  return { kind: holds(all, faults) ? 'together' : 'none', claim, knobs };
}
