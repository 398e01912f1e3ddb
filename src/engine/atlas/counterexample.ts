/**
 * The fault atlas, step 3: the minimal counterexample — the trial that breaks the claim first
 * (its last fault strikes earliest), with the fewest faults, the simplest kind — and its
 * explanation, from the run that trial makes.
 */
import type { FaultSpec } from '../scenario/schema';
import { simulate } from '../simulate';
import { PLACEMENT_KINDS, type Placement } from './placements';
import { firstRun, runTrials, withFaults, type Atlas, type TrialResult } from './explore';

/** The minimal counterexample of an atlas. */
export interface Counterexample {
  /**
   * Index into `atlas.trials`: the trial it was found in (at depth 2, a pair whose other fault
   * was not needed when one of its faults breaks the claim alone).
   */
  trial: number;
  /** The faults it adds, as the scenario format writes them. */
  faults: FaultSpec[];
  /** Each fault in words (see Placement.label). */
  labels: string[];
  /** When its last fault strikes in the first run (ms). */
  time: number;
  result: TrialResult;
}

/** Whether a trial breaks the claim (anything but held). */
export function breaks(r: TrialResult): boolean {
  return r.outcome !== 'held';
}

/**
 * The earliest, simplest trial that breaks the claim, or null when every trial held (the
 * configuration survives every placement explored) or when the scenario breaks it on its own. Order: the time its last fault strikes,
 * then the number of faults, then the kind (in {@link PLACEMENT_KINDS} order), then atlas order.
 */
export function minimalCounterexample(atlas: Atlas): Counterexample | null {
  // The scenario breaks its claim with its own faults: no fault needs adding, every trial breaks.
  if (breaks(atlas.base)) return null;
  let best: { key: number[]; trial: number } | null = null;
  atlas.trials.forEach((t, i) => {
    if (!breaks(t.result)) return;
    const key = counterexampleKey(atlas.placements, t.placements, i);
    if (!best || compareCounterexampleKeys(key, best.key) < 0) best = { key, trial: i };
  });
  if (best === null) return null;
  const { trial, key } = best as { key: number[]; trial: number };
  const t = atlas.trials[trial]!;
  const ps = t.placements.map((j) => atlas.placements[j]!);
  return (
    (ps.length > 1 ? aloneBreaks(atlas, trial) : null) ?? {
      trial,
      faults: ps.map((p) => p.fault),
      labels: ps.map((p) => p.label),
      time: key[0]!,
      result: t.result,
    }
  );
}

/**
 * A pair's fault that breaks the claim on its own (the earliest, then the first), run alone — a
 * depth-2 atlas runs pairs only, and the earliest pair to break often holds one fault that
 * changes nothing beside one that breaks the claim by itself; or null when it takes both.
 */
function aloneBreaks(atlas: Atlas, trial: number): Counterexample | null {
  const cached = ALONE.get(atlas)?.get(trial);
  if (cached !== undefined) return cached;
  const ps = atlas.trials[trial]!.placements.map((j) => atlas.placements[j]!);
  ps.sort((a, b) => a.time - b.time);
  const s = atlas.scenario;
  const results = runTrials(
    s,
    ps.map((p) => [p.fault]),
    firstRun(s).cutOff,
  );
  const k = results.findIndex(breaks);
  const found: Counterexample | null =
    k < 0
      ? null
      : {
          trial,
          faults: [ps[k]!.fault],
          labels: [ps[k]!.label],
          time: ps[k]!.time,
          result: results[k]!,
        };
  const byTrial = ALONE.get(atlas) ?? new Map<number, Counterexample | null>();
  byTrial.set(trial, found);
  ALONE.set(atlas, byTrial);
  return found;
}

/** {@link aloneBreaks} per atlas: the page asks for the counterexample at each render. */
const ALONE = new WeakMap<Atlas, Map<number, Counterexample | null>>();

const KIND_RANK = new Map(PLACEMENT_KINDS.map((k, i) => [k, i]));

/**
 * Where trial number `index` (adding `trial`, indices into `placements`) stands in the order of
 * {@link minimalCounterexample}; known before it runs, so the page can tell whether a break
 * found so far is the minimal one while other trials still run.
 */
export function counterexampleKey(
  placements: readonly Placement[],
  trial: readonly number[],
  index: number,
): number[] {
  const ps = trial.map((j) => placements[j]!);
  return [
    Math.max(...ps.map((p) => p.time)),
    ps.length,
    Math.max(...ps.map((p) => KIND_RANK.get(p.kind)!)),
    index,
  ];
}

/** Negative when key `a` comes first in the counterexample order. */
export function compareCounterexampleKeys(a: readonly number[], b: readonly number[]): number {
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return a[i]! - b[i]!;
  return 0;
}

/**
 * Why the counterexample breaks the claim: the explanations of its run, one sentence per kind of
 * anomaly (the first of each), as the checker words them.
 */
export function explainCounterexample(atlas: Atlas, c: Counterexample): string[] {
  const run = simulate(withFaults(atlas.scenario, c.faults));
  const seen = new Set<string>();
  const out: string[] = [];
  for (const e of run.verdict.explanations) {
    if (seen.has(e.fate)) continue;
    seen.add(e.fate);
    const more = e.events.length > 1 ? ` (and ${e.events.length - 1} more like it)` : '';
    out.push(`${e.sentence}${more}`);
  }
  return out;
}
