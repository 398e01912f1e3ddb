/**
 * The batch fault atlas as `sim --explore` runs it: the placements of ./atlas.ts filtered by kind,
 * one at a time (depth 1) or two at a time (depth 2), each trial judged against the claim and
 * classified with the streaming atlas's outcomes, and the minimal counterexample.
 *
 * A pair is one placement of the job's first run, then one placement of the run that first fault
 * makes (./atlas.ts enumerates it again on that run): so the second fault may strike an attempt
 * only the first one caused — the retry after a crash, the re-run of a clear — as a scheduler's
 * retries do. The same two placements reached in either order are one trial. Pairs are bounded by
 * the streaming atlas's {@link PAIR_RUN_LIMIT} runs.
 * Pure and deterministic: the same scenario gives the same trials, in the same order.
 */
import { outcomeOf, PAIR_RUN_LIMIT, type Outcome } from '../atlas/explore';
import type { Guarantee } from '../scenario/schema';
import {
  batchPlacements,
  judgeCell,
  withPlacement,
  type BatchAtlasCell,
  type BatchPlacement,
} from './atlas';
import { checkBatch, type BatchVerdict } from './checker';
import type { BatchConfig } from './schema';
import { simulateBatch, type BatchRun } from './simulateBatch';
import { explainBatch } from '../explain/batch';
import { BATCH_PLACEMENT_KINDS, type BatchPlacementKind } from '../atlas/kinds';

/** The kinds of batch placement, simplest first (the counterexample's tie-break): ../atlas/kinds.ts. */
export { BATCH_PLACEMENT_KINDS, type BatchPlacementKind } from '../atlas/kinds';

/** One trial's result, in the streaming atlas's terms (a batch run always ends: never stuck). */
interface BatchTrialResult {
  outcome: Outcome;
  /** Events with two rows or more; events missing from their own partition. */
  duplicated: number;
  lost: number;
  wrongPartitionRows: number;
}

export interface BatchTrial {
  /** The placements it adds, in the order they were placed. */
  placements: BatchPlacement[];
  /** When each of its faults strikes, in the run it was placed in (virtual ms). */
  times: number[];
  /** When its last fault strikes. */
  time: number;
  result: BatchTrialResult;
}

export interface BatchExploration {
  depth: 1 | 2;
  kinds: readonly BatchPlacementKind[];
  /** The job alone, with its own faults. */
  base: BatchTrialResult;
  /** Every single placement of the first run (of the chosen kinds). */
  placements: BatchPlacement[];
  trials: BatchTrial[];
}

/** The result of a run judged against `claim`. */
function classifyBatch(v: BatchVerdict): BatchTrialResult {
  const outcome: Outcome = outcomeOf(v);
  return {
    outcome,
    duplicated: v.events.filter((e) => e.fate === 'duplicated').length,
    lost: v.totals.lost,
    wrongPartitionRows: v.totals.wrongPartitionRows,
  };
}

/**
 * When a placement strikes in `run` (the run it was enumerated on): a crash at its point of its
 * attempt (the write starts `readMs` after the attempt, one row per `rowMs`), a clear at its time,
 * a late row when it lands.
 */
function strikeTime(run: BatchRun, p: BatchPlacement): number {
  if (p.kind === 'clear') return p.atMs;
  if (p.kind === 'late-row') return p.addedAtMs;
  const f = p.fault;
  const a = run.attempts.find(
    (x) => run.runs[x.run]!.logicalDate === f.logicalDate && x.tryNumber === f.tryNumber,
  );
  if (a === undefined) return run.endTime;
  const writeAt = a.startAt + run.config.task.readMs;
  const rows =
    f.point === 'before-write' ? 0 : f.point === 'mid-write' ? f.afterRows : a.read.length;
  return writeAt + rows * run.config.task.rowMs;
}

/** The job with every placement of a trial added, in order. */
function withPlacements(b: BatchConfig, ps: readonly BatchPlacement[]): BatchConfig {
  return ps.reduce(withPlacement, b);
}

/**
 * Explore a batch job: its placements of the given kinds, alone or in pairs.
 * @throws Error with the reason when pairs are past {@link PAIR_RUN_LIMIT}.
 */
export function exploreBatch(
  b: BatchConfig,
  claim: Guarantee,
  opts: { depth?: 1 | 2; kinds?: readonly BatchPlacementKind[] } = {},
): BatchExploration {
  const depth = opts.depth ?? 1;
  const kinds = opts.kinds ?? BATCH_PLACEMENT_KINDS;
  const judge = (job: BatchConfig) => classifyBatch(checkBatch(simulateBatch(job), claim));
  const first = simulateBatch(b);
  const of = (job: BatchConfig) => batchPlacements(job).filter((p) => kinds.includes(p.kind));
  const placements = of(b);
  const planned: Omit<BatchTrial, 'result'>[] =
    depth === 1
      ? placements.map((p) => {
          const t = strikeTime(first, p);
          return { placements: [p], times: [t], time: t };
        })
      : pairs(b, first, placements, of);
  return {
    depth,
    kinds,
    base: classifyBatch(checkBatch(first, claim)),
    placements,
    trials: planned.map((t) => ({ ...t, result: judge(withPlacements(b, t.placements)) })),
  };
}

/**
 * The page's atlas of pairs (src/views/batch/batchAtlas.ts): every pair `sim --explore --depth 2`
 * tries, in its order, judged as a cell of the single-fault atlas (the second fault as `then`).
 * @throws Error with the reason when pairs are past {@link PAIR_RUN_LIMIT}.
 */
export function batchPairAtlas(
  b: BatchConfig,
  claim: Guarantee,
  onProgress?: (done: number, total: number) => void,
  kinds: readonly BatchPlacementKind[] = BATCH_PLACEMENT_KINDS,
): BatchAtlasCell[] {
  const of = (job: BatchConfig) => batchPlacements(job).filter((p) => kinds.includes(p.kind));
  const planned = pairs(b, simulateBatch(b), of(b), of);
  return planned.map((t, i) => {
    const cell = judgeCell(b, claim, t.placements[0]!, t.placements[1]!);
    onProgress?.(i + 1, planned.length);
    return cell;
  });
}

/** Every pair: a first placement, then each placement of the run it makes (see the file's comment). */
function pairs(
  b: BatchConfig,
  first: BatchRun,
  placements: readonly BatchPlacement[],
  of: (job: BatchConfig) => BatchPlacement[],
): Omit<BatchTrial, 'result'>[] {
  const seen = new Set<string>();
  const out: Omit<BatchTrial, 'result'>[] = [];
  for (const p of placements) {
    const job = withPlacement(b, p);
    const run = simulateBatch(job);
    for (const q of of(job)) {
      const key = [JSON.stringify(p), JSON.stringify(q)].sort().join('\n');
      if (seen.has(key)) continue;
      seen.add(key);
      const times = [strikeTime(first, p), strikeTime(run, q)];
      out.push({ placements: [p, q], times, time: Math.max(...times) });
    }
    if (out.length > PAIR_RUN_LIMIT)
      throw new Error(
        `${placements.length} placements make more than ${PAIR_RUN_LIMIT.toLocaleString('en-US')} pairs, the bound of runs: narrow them with --kinds`,
      );
  }
  return out;
}

/** The minimal counterexample: index into `trials`, or null (every trial held, or the job alone breaks its claim). */
export function minimalBatchCounterexample(
  x: Pick<BatchExploration, 'base' | 'trials'>,
): number | null {
  if (x.base.outcome !== 'held') return null;
  const rank = (t: BatchTrial) =>
    Math.max(...t.placements.map((p) => BATCH_PLACEMENT_KINDS.indexOf(p.kind)));
  let best: number | null = null;
  x.trials.forEach((t, i) => {
    if (t.result.outcome === 'held') return;
    const b = best === null ? null : x.trials[best]!;
    if (
      b === null ||
      t.time < b.time ||
      (t.time === b.time && t.placements.length < b.placements.length) ||
      (t.time === b.time && t.placements.length === b.placements.length && rank(t) < rank(b))
    )
      best = i;
  });
  return best;
}

/**
 * The minimal counterexample as a trial: the earliest breaking trial, or — a pair — the earlier of
 * its faults that breaks the claim on its own, run alone (a depth-2 atlas runs pairs only, and its
 * earliest breaking pair often holds a fault that breaks the claim by itself beside one that
 * changes nothing). docs/cli.md: "its counterexample is a pair only when neither of the pair's
 * faults breaks the claim alone", as the streaming atlas's (src/engine/atlas/counterexample.ts).
 */
export function batchCounterexample(
  b: BatchConfig,
  claim: Guarantee,
  x: Pick<BatchExploration, 'base' | 'trials'>,
): BatchTrial | null {
  const c = minimalBatchCounterexample(x);
  if (c === null) return null;
  const t = x.trials[c]!;
  return t.placements.length < 2 ? t : (aloneBreaks(b, claim, t) ?? t);
}

/** The earlier of a pair's faults that breaks the claim run alone, as a trial; else null. */
function aloneBreaks(b: BatchConfig, claim: Guarantee, t: BatchTrial): BatchTrial | null {
  const first = simulateBatch(b);
  const alone = t.placements
    .map((p) => ({ p, time: strikeTime(first, p) }))
    .sort((a, z) => a.time - z.time);
  for (const { p, time } of alone) {
    const result = classifyBatch(checkBatch(simulateBatch(withPlacement(b, p)), claim));
    if (result.outcome !== 'held') return { placements: [p], times: [time], time, result };
  }
  return null;
}

/**
 * The page's "Show me how this breaks" over its atlas's cells (single faults, or pairs in
 * {@link batchPairAtlas}'s order), by the rule of `sim --explore`'s counterexample
 * ({@link batchCounterexample}): the fault that strikes earliest, then fewer faults, then the
 * simplest kind — and of a pair, the fault that breaks the claim alone, judged alone. Null when
 * no cell breaks the claim, or the job breaks it as it is.
 */
export function batchCellsCounterexample(
  b: BatchConfig,
  claim: Guarantee,
  cells: readonly BatchAtlasCell[],
): BatchAtlasCell | null {
  const first = simulateBatch(b);
  const after = new Map<string, BatchRun>();
  const runAfter = (p: BatchPlacement) => {
    const key = JSON.stringify(p);
    let run = after.get(key);
    if (run === undefined) after.set(key, (run = simulateBatch(withPlacement(b, p))));
    return run;
  };
  const trials = cells.map((c): BatchTrial => {
    const placements = c.then ? [c.placement, c.then] : [c.placement];
    // Only a broken cell competes: a held one needs no time.
    const times = c.held
      ? placements.map(() => Infinity)
      : [
          strikeTime(first, c.placement),
          ...(c.then ? [strikeTime(runAfter(c.placement), c.then)] : []),
        ];
    const outcome: Outcome = c.held
      ? 'held'
      : c.lost > 0 && c.duplicates > 0
        ? 'both'
        : c.lost > 0
          ? 'losses'
          : 'duplicates';
    return {
      placements,
      times,
      time: Math.max(...times),
      result: { outcome, duplicated: 0, lost: c.lost, wrongPartitionRows: c.wrongPartitionRows },
    };
  });
  const base = classifyBatch(checkBatch(first, claim));
  const t = batchCounterexample(b, claim, { base, trials });
  if (t === null) return null;
  // A cell of the atlas, or a pair's fault judged alone.
  const i = trials.indexOf(t);
  return i >= 0 ? cells[i]! : judgeCell(b, claim, t.placements[0]!);
}

/** Why a trial breaks the claim: the first story of each fate of its run. */
export function explainBatchTrial(b: BatchConfig, claim: Guarantee, t: BatchTrial): string[] {
  const run = simulateBatch(withPlacements(b, t.placements));
  const seen = new Set<string>();
  const out: string[] = [];
  for (const e of explainBatch(run, checkBatch(run, claim))) {
    if (seen.has(e.fate)) continue;
    seen.add(e.fate);
    const more = e.events.length > 1 ? ` (and ${e.events.length - 1} more like it)` : '';
    out.push(`${e.sentence}${more}`);
  }
  return out;
}
