/**
 * A batch scenario from end to end: simulate its `batch` part, check it against the scenario's
 * claim, explain what went wrong, and compare it with the scenario's `expect` block.
 */
import type { Scenario } from '../scenario/schema';
import type { ExpectMismatch } from '../expect';
import { checkBatch, rowsPerEvent, type BatchVerdict } from './checker';
import { simulateBatch, type BatchRun } from './simulateBatch';
import { explainBatch, type BatchExplanation } from '../explain/batch';

export interface BatchResult {
  run: BatchRun;
  verdict: BatchVerdict;
  explanations: BatchExplanation[];
}

/** Run a scenario's batch part (throws if the scenario has none). */
export function runBatch(s: Scenario): BatchResult {
  if (s.batch === undefined) throw new Error(`scenario "${s.name}" has no batch part`);
  const run = simulateBatch(s.batch);
  const verdict = checkBatch(run, s.claim);
  return { run, verdict, explanations: explainBatch(run, verdict) };
}

/**
 * The scenario's `expect` against a batch result: `totals` (rows, duplicates, lost, sum, events),
 * `rows` (rows per event id, in any partition) and `observed`.
 */
export function compareBatchExpect(r: BatchResult, expect: Scenario['expect']): ExpectMismatch[] {
  const out: ExpectMismatch[] = [];
  if (expect === undefined) return out;
  const t = r.verdict.totals;
  const actual = {
    rows: t.rows,
    duplicates: t.duplicates,
    lost: t.lost,
    sum: t.observedSum,
    events: t.events,
  };
  for (const [k, want] of Object.entries(expect.totals ?? {}))
    if (want !== undefined && actual[k as keyof typeof actual] !== want)
      out.push({ path: `totals.${k}`, expected: want, actual: actual[k as keyof typeof actual] });
  const rows = rowsPerEvent(r.verdict);
  for (const [id, want] of Object.entries(expect.rows ?? {}))
    if ((rows[id] ?? 0) !== want)
      out.push({ path: `rows.${id}`, expected: want, actual: rows[id] ?? 0 });
  if (expect.observed !== undefined && expect.observed !== r.verdict.observed)
    out.push({ path: 'observed', expected: expect.observed, actual: r.verdict.observed });
  return out;
}
