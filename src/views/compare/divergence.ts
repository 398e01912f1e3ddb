/**
 * Where two compared runs part: the first trace entry at which they differ (the counterfactual's
 * point of divergence). The engine is deterministic and its trace append-only, so two runs of
 * scenarios that differ in one knob share every entry up to the first moment that knob matters;
 * entry by entry, the first difference is that moment.
 */
import { TRACE_COLUMNS } from '../../engine';
import { describeEntry } from '../diagrams/describe';
import { formatMs } from '../run/format';
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

/** Whether column c of entry i is the same in both runs (actors and topics by name). */
function sameColumn(a: RunView, b: RunView, i: number, c: (typeof TRACE_COLUMNS)[number]): boolean {
  const x = a.cols[c][i]!;
  const y = b.cols[c][i]!;
  if (c === 'actor' || c === 'peer')
    return (x < 0 ? '' : a.actors[x]) === (y < 0 ? '' : b.actors[y]);
  if (c === 'topic') return (x < 0 ? '' : a.topics[x]) === (y < 0 ? '' : b.topics[y]);
  return x === y;
}

/** Whether entry i is the same in both runs: every column, and the actors and topics it names. */
function sameEntry(a: RunView, b: RunView, i: number): boolean {
  return TRACE_COLUMNS.every((c) => sameColumn(a, b, i, c));
}

/**
 * One column of entry i in words, for the columns the entry's sentence may leave out (a send's
 * transaction, a time, an offset…): what tells two entries apart when their sentences read alike.
 */
function columnWords(v: RunView, i: number, c: (typeof TRACE_COLUMNS)[number]): string {
  const x = v.cols[c][i]!;
  switch (c) {
    case 'time':
      return `at ${formatMs(x)}`;
    case 'until':
      return x < 0 ? 'no end time' : `until ${formatMs(x)}`;
    case 'txn':
      return x < 0 ? 'outside any transaction' : `in transaction ${x}`;
    case 'ckpt':
      return x < 0 ? 'outside any checkpoint' : `of checkpoint ${x}`;
    case 'cause':
      return x < 0 ? 'with no cause' : `caused by entry ${x + 1}`;
    case 'actor':
    case 'peer':
      return x < 0 ? `no ${c}` : `${c} ${v.actors[x]}`;
    case 'topic':
      return x < 0 ? 'no topic' : `topic ${v.topics[x]}`;
    default:
      return x < 0 ? `no ${c}` : `${c} ${x}`;
  }
}

/**
 * The two sentences of a divergence: each entry described; when both read alike (the columns
 * that differ are ones the sentence leaves out), each followed by those columns in words.
 */
function described(base: RunView, other: RunView, i: number): [string, string] {
  const a = describeEntry(base, i);
  const b = describeEntry(other, i);
  if (a !== b) return [a, b];
  const cols = TRACE_COLUMNS.filter((c) => !sameColumn(base, other, i, c));
  const words = (v: RunView) => cols.map((c) => columnWords(v, i, c)).join(', ');
  return [`${a} (${words(base)})`, `${b} (${words(other)})`];
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
  const [b, o] =
    inBase && inOther
      ? described(base, other, i)
      : [inBase ? describeEntry(base, i) : null, inOther ? describeEntry(other, i) : null];
  return { entry: i, time, base: b, other: o };
}
