/**
 * Where two compared runs part: the first trace entry at which they differ (the counterfactual's
 * point of divergence). The engine is deterministic and its trace append-only, so two runs of
 * scenarios that differ in one knob share every entry up to the first moment that knob matters;
 * entry by entry, the first difference is that moment.
 */
import { TRACE_COLUMNS } from '../../engine';
import { describeEntry } from '../diagrams/describe';
import type { RunView } from '../run/runView';

/** The first entry where two runs differ. */
export interface Divergence {
  /** Entry index (0-based) of the first difference; the entries before it are identical. */
  entry: number;
  /** Virtual time (ms) of that moment: the earlier of the two entries' times. */
  time: number;
  /** What each run does there, in words (null: that run's trace has ended). */
  base: string | null;
  other: string | null;
}

/** Whether entry i is the same in both runs: every column, and the actors and topics it names. */
function sameEntry(a: RunView, b: RunView, i: number): boolean {
  for (const c of TRACE_COLUMNS) {
    const x = a.cols[c][i]!;
    const y = b.cols[c][i]!;
    if (c === 'actor' || c === 'peer') {
      if ((x < 0 ? '' : a.actors[x]) !== (y < 0 ? '' : b.actors[y])) return false;
    } else if (c === 'topic') {
      if ((x < 0 ? '' : a.topics[x]) !== (y < 0 ? '' : b.topics[y])) return false;
    } else if (x !== y) return false;
  }
  return true;
}

/** The first entry at which `other` departs from `base`, or null when the traces are identical. */
export function firstDivergence(base: RunView, other: RunView): Divergence | null {
  const n = Math.min(base.n, other.n);
  let i = 0;
  while (i < n && sameEntry(base, other, i)) i++;
  if (i === base.n && i === other.n) return null;
  const inBase = i < base.n;
  const inOther = i < other.n;
  const time = Math.min(
    inBase ? base.cols.time[i]! : Infinity,
    inOther ? other.cols.time[i]! : Infinity,
  );
  return {
    entry: i,
    time,
    base: inBase ? describeEntry(base, i) : null,
    other: inOther ? describeEntry(other, i) : null,
  };
}
