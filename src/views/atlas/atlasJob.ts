/**
 * The fault atlas cut into jobs for the page's Web Workers: a plan (the scenario's own run and
 * its placements), then contiguous slices of the trials ({@link trialChunks}), each run by
 * whichever worker is free ({@link runAtlasSlice}), then the atlas assembled in slice order
 * ({@link assembleSlices}). Each result depends on its trial alone, so the atlas is the same for
 * any number of workers and any order the chunks finish in. The
 * worker (src/platform/atlas.worker.ts) and its client (src/platform/atlasWorkers.ts) only move
 * these values between threads.
 */
import {
  assembleAtlas,
  trialSlices,
  classify,
  enumeratePlacements,
  firstRun,
  runTrials,
  trialFaults,
  trialIndices,
  type Atlas,
  type BufferPool,
  type Placement,
  type PlacementKind,
  type Scenario,
  type TrialResult,
  type TrialSession,
} from '../../engine';

export { trialSlices, trialSession } from '../../engine';
/** @public read by platform/atlasWorkers.ts from the dynamically imported job module */
export { PLACEMENT_KINDS } from '../../engine';

/** Chunks per worker: a worker that starts late or draws cheap trials takes more of them. */
const CHUNKS_PER_WORKER = 8;
/** …but no chunk under this many trials (each chunk is a message each way). */
const MIN_CHUNK = 8;

/**
 * `total` trials cut into contiguous chunks for `workers` workers, handed out as each worker
 * frees up: about {@link CHUNKS_PER_WORKER} each, of at least {@link MIN_CHUNK} trials.
 */
export function trialChunks(total: number, workers: number): { from: number; to: number }[] {
  const parts = Math.min(workers * CHUNKS_PER_WORKER, Math.floor(total / MIN_CHUNK));
  return trialSlices(total, Math.max(1, parts));
}

/** What a worker needs to run a slice, and the main thread to assemble the atlas. */
export interface AtlasPlan {
  depth: 1 | 2;
  kinds: readonly PlacementKind[];
  /** The scenario alone, with its own faults. */
  base: TrialResult;
  baseCutOff: boolean;
  placements: Placement[];
  /** Business events of the workload (pairs are bounded by it). */
  events: number;
  /** How many trials: placements, or pairs of them. */
  trials: number;
}

/** The plan of an atlas, or why pairs are refused (the engine's bound, in words). */
export function planAtlas(
  s: Scenario,
  depth: 1 | 2,
  kinds: readonly PlacementKind[],
  pool?: BufferPool,
): AtlasPlan | { refused: string } {
  const first = firstRun(s, pool);
  const base = classify(first, true);
  const placements = enumeratePlacements(s, first, kinds);
  const events = first.events.count;
  const baseCutOff = first.cutOff;
  pool?.reclaim(first);
  const indices = trialIndices(placements.length, depth, events);
  if ('refused' in indices) return indices;
  return { depth, kinds, base, baseCutOff, placements, events, trials: indices.length };
}

/**
 * The trials `[from, to)` of a plan, run; `cancelled`, `onProgress` and `session` (what a
 * worker's chunks of one atlas share: `trialSession(s)`) as {@link runTrials}'s.
 */
export function runAtlasSlice(
  s: Scenario,
  plan: AtlasPlan,
  from: number,
  to: number,
  opts: {
    pool?: BufferPool;
    onProgress?: (done: number, total: number) => void;
    cancelled?: () => boolean;
    session?: TrialSession;
  } = {},
): TrialResult[] {
  const indices = trialIndices(plan.placements.length, plan.depth, plan.events);
  if ('refused' in indices) throw new Error(indices.refused);
  const trials = trialFaults(plan.placements, indices.slice(from, to));
  return runTrials(s, trials, plan.baseCutOff, opts);
}

/** The atlas from its slices' results, concatenated in slice order. */
export function assembleSlices(
  s: Scenario,
  plan: AtlasPlan,
  slices: readonly (readonly TrialResult[])[],
): Atlas {
  const indices = trialIndices(plan.placements.length, plan.depth, plan.events);
  if ('refused' in indices) throw new Error(indices.refused);
  return assembleAtlas(
    s,
    plan.depth,
    plan.kinds,
    plan.base,
    plan.placements,
    indices,
    slices.flat(),
  );
}
