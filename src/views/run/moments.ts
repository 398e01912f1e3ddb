/**
 * The moments a story turns on — a fault firing, a commit, a checkpoint, a retry, an anomaly —
 * found in the run's trace, so playback can jump from one to the next (← / →) instead of
 * stepping one engine event at a time (a Flink run has 2,500 of them). Pure and cached per view.
 */
import { formatCount, formatMs } from './format';
import { CK, K, TX } from './kinds';
import type { RunView } from './runView';

export type MomentKind = 'fault' | 'commit' | 'checkpoint' | 'retry' | 'anomaly';

/** One moment: the trace entry it lands on (the cursor stands just after it). */
export interface Moment {
  entry: number;
  kind: MomentKind;
}

/**
 * The kind of moment trace entry `i` is, or null:
 * - fault: a scheduled or random fault fires ('fault');
 * - commit: offsets committed ('commit'), a Spark batch committed, a transaction's commit
 *   completed (CompleteCommit);
 * - checkpoint: a Flink checkpoint completed or aborted, or a restore from one;
 * - retry: the producer re-sends a batch.
 */
function kindOf(v: RunView, i: number): MomentKind | null {
  const k = v.cols.kind[i]!;
  const aux = v.cols.aux[i]!;
  if (k === K.fault) return 'fault';
  if (k === K.commit || k === K['batch-committed']) return 'commit';
  if (k === K.txn && aux === TX.CompleteCommit) return 'commit';
  if (k === K.checkpoint && (aux === CK.completed || aux === CK.aborted)) return 'checkpoint';
  if (k === K.restore) return 'checkpoint';
  if (k === K.retry) return 'retry';
  return null;
}

const cache = new WeakMap<RunView, Moment[]>();

/**
 * Every moment of the run, in trace order. Moments of one kind at one instant (a commit of each
 * partition at once) are one moment, on the last of them. An anomaly is the last entry an
 * explanation cites: where that loss or duplicate became what it is.
 */
export function moments(v: RunView): Moment[] {
  let out = cache.get(v);
  if (out) return out;
  const found: Moment[] = [];
  for (let i = 0; i < v.n; i++) {
    const kind = kindOf(v, i);
    if (kind) found.push({ entry: i, kind });
  }
  for (const x of v.verdict.explanations) {
    const last = x.entries.reduce((m, e) => (e < v.n ? Math.max(m, e) : m), -1);
    if (last >= 0) found.push({ entry: last, kind: 'anomaly' });
  }
  found.sort((a, b) => a.entry - b.entry);
  out = [];
  for (const m of found) {
    const prev = out[out.length - 1];
    if (prev && prev.kind === m.kind && v.cols.time[prev.entry] === v.cols.time[m.entry])
      out[out.length - 1] = m;
    else if (!(prev && prev.kind === m.kind && prev.entry === m.entry)) out.push(m);
  }
  cache.set(v, out);
  return out;
}

/**
 * The moment after (`delta` > 0) or before (< 0) the cursor standing at `idx` entries applied,
 * leaving out the kinds in `without` (anomalies, while the outcome is hidden), or null.
 */
export function nextMoment(
  v: RunView,
  idx: number,
  delta: number,
  without: readonly MomentKind[] = [],
): Moment | null {
  const all = moments(v).filter((m) => !without.includes(m.kind));
  if (delta > 0) return all.find((m) => m.entry + 1 > idx) ?? null;
  for (let k = all.length - 1; k >= 0; k--) if (all[k]!.entry + 1 < idx) return all[k]!;
  return null;
}

/**
 * Why a jump found no moment, for the status line — said as a landing is, so a press at the last
 * stop is not silent: "No later fault, commit, checkpoint, retry or anomaly — the commit at event
 * 61, 1.102 s, is the last one". `without`: the kinds the jump leaves out.
 */
export function noMomentWords(
  v: RunView,
  delta: number,
  without: readonly MomentKind[] = [],
): string {
  const all = moments(v).filter((m) => !without.includes(m.kind));
  const kinds = 'fault, commit, checkpoint, retry or anomaly';
  if (all.length === 0) return `No ${kinds} in this run to jump to`;
  const edge = delta > 0 ? all[all.length - 1]! : all[0]!;
  const where = `the ${edge.kind} at event ${formatCount(edge.entry + 1)}, ${formatMs(v.cols.time[edge.entry]!)}`;
  return delta > 0
    ? `No later ${kinds} — ${where}, is the last one`
    : `No earlier ${kinds} — ${where}, is the first one`;
}
