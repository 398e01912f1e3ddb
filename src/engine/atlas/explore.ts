/**
 * The fault atlas, step 2: run the scenario once per trial (one placement, or a pair) and
 * classify each outcome against the scenario's claim.
 *
 * {@link runTrials} is a plain function over a slice of the trial list, so the page can split the
 * list between Web Workers and the CLI can run it whole: each result depends on its trial alone,
 * so the atlas is the same for any number of workers and any chunking. It reports progress and
 * stops between two runs when asked to. Each trial's run is a continuation of the scenario's own
 * (continuation.ts), the same run as from scratch ({@link runTrial}, trial.ts).
 */
import type { FaultSpec, ObservedGuarantee, Scenario } from '../scenario/schema';
import { simulate, type Run } from '../simulate';
import type { BufferPool } from '../core/pool';
import { buildEvents } from '../scenario/workload';
import { forEachTrialRun, type TrialPath } from './continuation';
import type { RejoinedVerdict, RejoinStats } from './rejoin';
import type { TrialSession } from './session';
import { K } from '../trace';
import {
  enumeratePlacements,
  PLACEMENT_KINDS,
  type Placement,
  type PlacementKind,
} from './placements';

export { runTrial, withFaults } from './trial';
export { DEFAULT_TRIAL_PATH, forkMoment, type TrialPath } from './continuation';

/**
 * What a trial did to the claim: `held` (the observed guarantee is within the claimed one — an
 * at-least-once claim holds with duplicates, which are counted all the same), else what broke it:
 * `duplicates`, `losses` or `both`; `stuck` when the run was cut off with work still pending
 * where the scenario alone drained (a pipeline that never finished: its counts are not final).
 */
export type Outcome = 'held' | 'duplicates' | 'losses' | 'both' | 'stuck';

/** Outcomes from best to worst (a heat-map cell shows its worst). */
export const OUTCOMES: readonly Outcome[] = ['held', 'duplicates', 'losses', 'both', 'stuck'];

/**
 * How many trials broke the claim, given the trials per outcome: every one that did not hold
 * (duplicates, losses, both or stuck). What `expect.atlas`'s `breaks` pins, in the CLI's check
 * and in the page's exported pin alike.
 */
export function breaksOf(perOutcome: Readonly<Record<Outcome, number>>): number {
  return perOutcome.duplicates + perOutcome.losses + perOutcome.both + perOutcome.stuck;
}

/** The classified result of one run. */
export interface TrialResult {
  outcome: Outcome;
  /** Business events applied twice or more at the end of the pipeline (or by its side effects). */
  duplicated: number;
  /** Business events that never took effect there. */
  lost: number;
  /** Whether every added fault fired (a placement the run never reached changes nothing). */
  fired: boolean;
}

/**
 * The scenario's own run, recording where faults could strike (for {@link enumeratePlacements}).
 */
export function firstRun(s: Scenario, pool?: BufferPool): Run {
  return simulate(s, { opportunities: true, pool });
}

/**
 * A finished run's outcome from its verdict: held, or broken by what the checker observed
 * (duplicates: at-least-once; losses: at-most-once; both). One rule for the stream and batch atlases.
 */
export function outcomeOf(v: {
  held: boolean;
  observed: ObservedGuarantee;
}): Exclude<Outcome, 'stuck'> {
  if (v.held) return 'held';
  if (v.observed === 'at-least-once') return 'duplicates';
  if (v.observed === 'at-most-once') return 'losses';
  return 'both';
}

/**
 * Classify a finished run. `baseCutOff`: whether the scenario alone was cut off (then a cut-off
 * trial is not "stuck" because of the added fault). `added`: how many faults were appended.
 */
export function classify(run: Run, baseCutOff: boolean, added = 0): TrialResult {
  return classifyVerdict(run, baseCutOff, firedAll(run, added));
}

/**
 * A trial's result from the run whose final state is its own — itself, or the scenario's own run
 * it rejoined (./rejoin.ts) — and whether its faults fired.
 */
function classifyVerdict(
  run: { verdict: RejoinedVerdict; cutOff: boolean },
  baseCutOff: boolean,
  fired: boolean,
): TrialResult {
  const v = run.verdict;
  let duplicated = 0;
  let lost = 0;
  for (let j = 0; j < v.fate.length; j++) {
    if (v.fate[j] === 0) lost++;
    else if (v.fate[j] === 2) duplicated++;
  }
  // Side effects inside the processor count too (the verdict's observed guarantee weighs them).
  const fx = v.sideEffects ? v.points.find((p) => p.name === 'effects') : undefined;
  if (fx) {
    let fxLost = 0;
    let fxDup = 0;
    for (let j = 0; j < fx.rows.length; j++) {
      if (fx.rows[j] === 0) fxLost++;
      else if (fx.rows[j]! >= 2) fxDup++;
    }
    lost = Math.max(lost, fxLost);
    duplicated = Math.max(duplicated, fxDup);
  }
  const outcome: Outcome = run.cutOff && !baseCutOff ? 'stuck' : outcomeOf(v);
  return { outcome, duplicated, lost, fired };
}

/** Whether each of the last `added` faults of the run's scenario fired at least once. */
function firedAll(run: Run, added: number): boolean {
  if (added === 0) return true;
  const first = run.scenario.faults.length - added;
  const fired = new Uint8Array(added);
  let left = added;
  const t = run.trace;
  const kind = t.kind;
  const aux = t.aux;
  // Up to the last of them to fire only: a trial's fault fires soon after its fork, and a whole
  // scan of the trace per trial was the trial layer's dearest loop (profile, docs/benchmarks.md).
  for (let e = 0; e < t.length && left > 0; e++) {
    if (kind[e] !== K.fault) continue;
    const i = aux[e]! - first;
    if (i >= 0 && fired[i] === 0) {
      fired[i] = 1;
      left--;
    }
  }
  return left === 0;
}

/** Options of {@link runTrials}. */
export interface RunTrialsOptions {
  /** First trial to run (default 0) and the end of the slice (exclusive; default all). */
  from?: number;
  to?: number;
  /** Memory reused from run to run (each run's arrays are given back before the next). */
  pool?: BufferPool;
  /** After each run: trials done in this slice, and the slice's size. */
  onProgress?: (done: number, total: number) => void;
  /** Asked before each run: true stops there (the results so far are returned). */
  cancelled?: () => boolean;
  /** How each trial's run is made (default `DEFAULT_TRIAL_PATH`, rewound from save points: ./continuation.ts says why); every path gives the same runs. */
  path?: TrialPath;
  /** When a trial forks on the `auto` path (a benchmark's knob; see `ENTRIES_PER_COPIED_OBJECT`). */
  entriesPerObject?: number;
  /**
   * False: every trial runs to its end, none stops where it rejoins the scenario's own run
   * (./rejoin.ts; the same results either way — a benchmark's and a test's knob).
   */
  rejoin?: boolean;
  /**
   * Filled with what the rejoin test did (trials tried, rejoined, entries skipped…): in this
   * call, or with a session, in every call of the session so far.
   */
  rejoinStats?: RejoinStats;
  /**
   * What the calls over one atlas's trials share (./session.ts: a worker's chunks); a session of
   * `s`. Without it, each call builds its own.
   */
  session?: TrialSession;
  /** The rewind path checks each restore (a test's knob: see `SavePointOptions.verify`). */
  verifyRewind?: boolean;
}

/**
 * Run `s` with each trial's faults added, over the slice `[from, to)` of `trials`.
 * @param baseCutOff - whether `s` alone was cut off (see {@link classify}).
 * @returns one result per trial run, in order (fewer when cancelled).
 */
export function runTrials(
  s: Scenario,
  trials: readonly (readonly FaultSpec[])[],
  baseCutOff: boolean,
  opts: RunTrialsOptions = {},
): TrialResult[] {
  const from = opts.from ?? 0;
  const to = Math.min(opts.to ?? trials.length, trials.length);
  const slice = trials.slice(from, to);
  const out: (TrialResult | undefined)[] = new Array<TrialResult | undefined>(slice.length);
  // Every trial has the workload of `s`: its event columns are built once (outside the pool,
  // whose arrays each run gives back) and shared.
  const session = opts.session;
  if (session && session.scenario !== s) throw new Error('a trial session of another scenario');
  const events = session?.events ?? buildEvents(s.workload, s.seed);
  let done = 0;
  forEachTrialRun(
    s,
    slice,
    events,
    (k, run) => {
      out[k] = classify(run, baseCutOff, slice[k]!.length);
      opts.pool?.reclaim(run);
      opts.onProgress?.(++done, slice.length);
    },
    {
      path: opts.path,
      pool: opts.pool,
      cancelled: opts.cancelled,
      entriesPerObject: opts.entriesPerObject,
      onRejoined:
        opts.rejoin === false
          ? undefined
          : (k, r) => {
              out[k] = classifyVerdict(
                { verdict: r.verdict, cutOff: r.reference.cutOff },
                baseCutOff,
                r.fired,
              );
              opts.onProgress?.(++done, slice.length);
            },
      rejoinStats: opts.rejoinStats,
      rejoinRecord: session?.rejoin,
      verifyRewind: opts.verifyRewind,
    },
  );
  // Cancelled: the trials run before the first one that did not (a fork may run them out of order).
  const ran = out.findIndex((r) => r === undefined);
  return (ran < 0 ? out : out.slice(0, ran)) as TrialResult[];
}

/** The bound on pairs (depth 2): at most this many runs… */
export const PAIR_RUN_LIMIT = 20_000;
/** …and only for scenarios of at most this many business events. */
export const PAIR_EVENT_LIMIT = 50;

/**
 * Every pair (i < j) of `n` placements, in order, or why pairs are refused: more than
 * {@link PAIR_RUN_LIMIT} of them, or a workload of more than {@link PAIR_EVENT_LIMIT} events.
 */
export function pairsOf(n: number, events: number): [number, number][] | { refused: string } {
  if (events > PAIR_EVENT_LIMIT)
    return {
      refused: `pairs are explored for scenarios of at most ${PAIR_EVENT_LIMIT} events; this one has ${events}`,
    };
  const count = (n * (n - 1)) / 2;
  if (count > PAIR_RUN_LIMIT)
    return {
      refused: `${n} placements make ${count.toLocaleString('en-US')} pairs, more than the bound of ${PAIR_RUN_LIMIT.toLocaleString('en-US')} runs: narrow them with --kinds`,
    };
  const out: [number, number][] = [];
  for (let i = 0; i < n; i++) for (let j = i + 1; j < n; j++) out.push([i, j]);
  return out;
}

/** A finished atlas. */
export interface Atlas {
  /** The scenario explored (its own faults kept). */
  scenario: Scenario;
  depth: 1 | 2;
  kinds: readonly PlacementKind[];
  /** The scenario alone: whether its own faults already break the claim. */
  base: TrialResult;
  /** Every single placement, in atlas order. */
  placements: Placement[];
  /**
   * Each trial: the placements it adds (one index at depth 1, two at depth 2) and its result,
   * in trial order (shorter than the full list when cancelled).
   */
  trials: { placements: number[]; result: TrialResult }[];
  /** True when the run was cancelled before every trial ran. */
  partial: boolean;
}

/** Options of {@link explore}. */
export interface ExploreOptions extends Omit<RunTrialsOptions, 'from' | 'to'> {
  depth?: 1 | 2;
  kinds?: readonly PlacementKind[];
}

/**
 * The whole atlas on one thread (the CLI, tests, the benchmark): the first run, the placements,
 * and every trial. The page splits {@link runTrials} between workers instead, with the same
 * pieces ({@link firstRun}, {@link enumeratePlacements}, {@link trialFaults}).
 * @throws Error with the reason when pairs are refused (see {@link pairsOf}).
 */
export function explore(s: Scenario, opts: ExploreOptions = {}): Atlas {
  const depth = opts.depth ?? 1;
  const kinds = opts.kinds ?? PLACEMENT_KINDS;
  const first = firstRun(s, opts.pool);
  const base = classify(first, true);
  const baseCutOff = first.cutOff;
  const placements = enumeratePlacements(s, first, kinds);
  const events = first.events.count;
  opts.pool?.reclaim(first);
  const indices = trialIndices(placements.length, depth, events);
  if ('refused' in indices) throw new Error(indices.refused);
  const trials = trialFaults(placements, indices);
  const results = runTrials(s, trials, baseCutOff, opts);
  return assembleAtlas(s, depth, kinds, base, placements, indices, results);
}

/**
 * The atlas from its pieces: what {@link explore} returns, and what the page builds once its
 * workers have sent back their slices' results ({@link trialSlices}), concatenated in slice order.
 * `results` shorter than `indices` (a cancel) makes a partial atlas of the trials that ran.
 */
export function assembleAtlas(
  s: Scenario,
  depth: 1 | 2,
  kinds: readonly PlacementKind[],
  base: TrialResult,
  placements: Placement[],
  indices: readonly number[][],
  results: readonly TrialResult[],
): Atlas {
  return {
    scenario: s,
    depth,
    kinds,
    base,
    placements,
    trials: results.map((result, i) => ({ placements: indices[i]!, result })),
    partial: results.length < indices.length,
  };
}

/**
 * `total` trials cut into `parts` contiguous slices `[from, to)` of nearly equal size (the first
 * ones one longer), for as many workers: each runs {@link runTrials} on its slice. The split does
 * not change any result, only who computes it.
 */
export function trialSlices(total: number, parts: number): { from: number; to: number }[] {
  const n = Math.max(1, Math.min(parts, total));
  const size = Math.floor(total / n);
  const extra = total % n;
  const out: { from: number; to: number }[] = [];
  let from = 0;
  for (let i = 0; i < n; i++) {
    const to = from + size + (i < extra ? 1 : 0);
    out.push({ from, to });
    from = to;
  }
  return out;
}

/** The trials' placement indices: each placement alone, or every pair. */
export function trialIndices(
  n: number,
  depth: 1 | 2,
  events: number,
): number[][] | { refused: string } {
  if (depth === 1) return Array.from({ length: n }, (_, i) => [i]);
  return pairsOf(n, events);
}

/** The faults each trial adds. */
export function trialFaults(
  placements: readonly Placement[],
  indices: readonly (readonly number[])[],
): FaultSpec[][] {
  return indices.map((ix) => ix.map((i) => placements[i]!.fault));
}
