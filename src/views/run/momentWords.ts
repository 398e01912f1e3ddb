/**
 * Where a jump landed, in words: its own module because the words read the trace entry with
 * describe.ts (~3.4 kB gzip), which an embed loads only at its first jump
 * (src/store/momentWordsOnDemand.ts).
 */
import { describeEntry } from '../diagrams/describe';
import { formatCount, formatMs } from './format';
import type { Moment } from './moments';
import type { RunView } from './runView';

/** Where a jump landed, for the status line: "Next commit — event 61 at 1.102 s: …". */
export function momentWords(v: RunView, m: Moment, delta: number): string {
  return `${delta > 0 ? 'Next' : 'Previous'} ${m.kind} — event ${formatCount(m.entry + 1)} at ${formatMs(v.cols.time[m.entry]!)}: ${describeEntry(v, m.entry)}`;
}
