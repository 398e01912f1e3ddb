/**
 * An atlas while it runs: the trials of the chunks finished so far (in trial order, whatever
 * order the workers finished them in), the trials not run yet, and the minimal counterexample
 * found so far — provisional while a trial that would come before it in its order
 * (src/engine/atlas/counterexample.ts) has not run. View state only: the final atlas is still
 * assembled from every chunk by ./atlasJob.ts `assembleSlices`.
 */
import {
  assembleAtlas,
  compareCounterexampleKeys,
  counterexampleKey,
  minimalCounterexample,
  trialIndices,
  type Atlas,
  type FaultSpec,
  type Scenario,
  type TrialResult,
} from '../../engine';
import type { AtlasPlan } from './atlasJob';
import { resultText } from './heatCells';

/** A running atlas's trials: those run so far and those not run yet. */
export interface AtlasSoFar {
  /** The trials run so far, in trial order (`partial`: true until every one has run). */
  atlas: Atlas;
  /** Each of `atlas.trials`' number in the whole atlas (its place in trial order). */
  index: number[];
  /** The trials not run yet: their placements (indices into `atlas.placements`) and number. */
  pending: { placements: number[]; index: number }[];
  /** Trials run, of all. */
  done: number;
  total: number;
}

/**
 * The atlas of `s` so far from its plan and its chunks `[from, to)`, each with its results once
 * finished (`undefined` while it runs or waits).
 */
export function atlasSoFar(
  s: Scenario,
  plan: AtlasPlan,
  chunks: readonly { from: number; to: number }[],
  results: readonly (readonly TrialResult[] | undefined)[],
): AtlasSoFar {
  const indices = trialIndices(plan.placements.length, plan.depth, plan.events);
  if ('refused' in indices) throw new Error(indices.refused);
  const ran: TrialResult[] = [];
  const ranIndices: number[][] = [];
  const index: number[] = [];
  const pending: AtlasSoFar['pending'] = [];
  chunks.forEach(({ from, to }, c) => {
    const r = results[c];
    for (let i = from; i < to; i++) {
      if (r) {
        ran.push(r[i - from]!);
        ranIndices.push(indices[i]!);
        index.push(i);
      } else pending.push({ placements: indices[i]!, index: i });
    }
  });
  const atlas = assembleAtlas(
    s,
    plan.depth,
    plan.kinds,
    plan.base,
    plan.placements,
    ranIndices,
    ran,
  );
  // assembleAtlas counts against the trials given: these are a part of the whole.
  return {
    atlas: { ...atlas, partial: pending.length > 0 },
    index,
    pending,
    done: ran.length,
    total: indices.length,
  };
}

/** The minimal counterexample found so far, and whether it is the atlas's own already. */
export interface CounterexampleSoFar {
  faults: FaultSpec[];
  labels: string[];
  /** "held", or what broke: "2 duplicated". */
  result: string;
  /**
   * True once every trial that would come before it (earlier, simpler) has run: no trial still
   * to run can take its place, so it is the final atlas's minimal counterexample.
   */
  final: boolean;
}

/** The earliest, simplest break among the trials run so far; null when none broke yet. */
export function counterexampleSoFar(soFar: AtlasSoFar): CounterexampleSoFar | null {
  const c = minimalCounterexample(soFar.atlas);
  if (!c) return null;
  const { placements } = soFar.atlas;
  const key = counterexampleKey(
    placements,
    soFar.atlas.trials[c.trial]!.placements,
    soFar.index[c.trial]!,
  );
  const final = soFar.pending.every(
    (p) => compareCounterexampleKeys(counterexampleKey(placements, p.placements, p.index), key) > 0,
  );
  return { faults: c.faults, labels: c.labels, result: resultText(c.result), final };
}
