/** Words for a run that stopped before its work was done. */
import type { Run } from './simulate';

/**
 * Why a run stopped at the trace limit, in words for a parenthesis: how far the workload had got
 * and about how many events fit with these settings, e.g. "its trace reached the limit of
 * 10,000,000 entries when 664,211 of the 2,000,000 events had been sent — about 15 entries per
 * event with these settings, so about 600,000 events fit". A workload that big is the usual
 * reason; with every event sent, the run kept itself busy instead (a crash loop). `short`
 * leaves out the estimate and the guess (for a sentence that tells the rest). Returns '' for a
 * run that did not stop at the trace limit.
 */
export function traceLimitWords(run: Run, short = false): string {
  if (run.cutOffBy !== 'trace-limit') return '';
  const t = run.trace;
  const limit = t.count[t.length - 1]!;
  const at = run.events.at;
  let sent = 0;
  for (let i = 0; i < at.length; i++) if (at[i]! <= run.endTime) sent++;
  const n = (x: number) => x.toLocaleString('en-US');
  const reached = `its trace reached the limit of ${n(limit)} entries`;
  if (sent === 0) return `${reached} before any event was sent`;
  if (sent >= at.length)
    return short
      ? reached
      : `${reached} after every event was sent: the scenario keeps the run busy without settling (a crash after every record, restarted at once?)`;
  if (short) return `${reached} when ${n(sent)} of the ${n(at.length)} events had been sent`;
  const perEvent = Math.max(1, Math.round(limit / sent));
  // Two significant digits, rounded down, with a tenth spare for the run's tail.
  const raw = (limit / perEvent) * 0.9;
  const unit = 10 ** Math.max(0, Math.floor(Math.log10(raw)) - 1);
  const fits = Math.floor(raw / unit) * unit;
  return `${reached} when ${n(sent)} of the ${n(at.length)} events had been sent — about ${n(perEvent)} entries per event with these settings, so about ${n(fits)} events fit`;
}
