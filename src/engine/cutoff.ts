/** Words for a run that stopped before its work was done. */
import type { Run } from './simulate';
import { groupDigits } from './groupDigits';

/**
 * Entries per event above which a run with every event sent was busy with something else than
 * its workload: a run takes about 3 (batched) to 15 (each event alone) entries per event
 * (docs/format.md, limits), so dozens more are a loop — a crash after every record, restarted at once.
 */
const BUSY_ENTRIES_PER_EVENT = 100;

/** `x` with two significant digits, rounded down: "about 600,000 events fit". */
function roughly(x: number): number {
  const unit = 10 ** Math.max(0, Math.floor(Math.log10(Math.max(1, x))) - 1);
  return Math.floor(x / unit) * unit;
}

/**
 * Why a run stopped at the trace limit, in words for a parenthesis: how far the workload had got
 * and about how many events fit with these settings, e.g. "its trace reached the limit of
 * 10,000,000 entries when 664,211 of the 2,000,000 events had been sent — about 15 entries per
 * event with these settings, so about 600,000 events fit". A workload that big is the usual
 * reason — also when every event was sent and the pipeline was still working through them (a
 * fast source ahead of a slow job); only a run with every event sent, each carried through
 * already or at far more entries per event than a run takes, kept itself busy instead (a crash
 * loop). `short` leaves out the estimate and the guess (for a sentence that tells the rest).
 * Returns '' for a run that did not stop at the trace limit.
 */
export function traceLimitWords(run: Run, short = false): string {
  if (run.cutOffBy !== 'trace-limit') return '';
  const t = run.trace;
  const limit = t.count[t.length - 1]!;
  const at = run.events.at;
  let sent = 0;
  for (let i = 0; i < at.length; i++) if (at[i]! <= run.endTime) sent++;
  const n = (x: number) => groupDigits(x);
  const reached = `its trace reached the limit of ${n(limit)} entries`;
  if (sent === 0) return `${reached} before any event was sent`;
  if (sent < at.length) {
    if (short) return `${reached} when ${n(sent)} of the ${n(at.length)} events had been sent`;
    const perEvent = Math.max(1, Math.round(limit / sent));
    // A tenth spare for the run's tail.
    return `${reached} when ${n(sent)} of the ${n(at.length)} events had been sent — about ${n(perEvent)} entries per event with these settings, so about ${n(roughly((limit / perEvent) * 0.9))} events fit`;
  }
  if (short) return reached;
  // Every event was sent: how many had been carried to the end of the pipeline (the verdict's
  // point) tells a workload still in progress from a run that keeps itself busy.
  const v = run.verdict;
  const end = v.points.find((p) => p.name === v.primary)!;
  let done = 0;
  for (let j = 0; j < run.events.identities; j++)
    if (Math.max(end.rows[j]!, end.effects[j]!) > 0) done++;
  if (done >= run.events.identities || limit / at.length > BUSY_ENTRIES_PER_EVENT)
    return `${reached} after every event was sent: the scenario keeps the run busy without settling (a crash after every record, restarted at once?)`;
  const through = `after all ${n(at.length)} events had been sent, with the pipeline still working through them (${n(done)} had reached ${v.primary})`;
  if (done === 0) return `${reached} ${through}: a smaller workload fits`;
  const perEvent = Math.max(1, Math.round(limit / done));
  return `${reached} ${through} — about ${n(perEvent)} entries per event with these settings, so about ${n(roughly(done * 0.9))} events fit`;
}
