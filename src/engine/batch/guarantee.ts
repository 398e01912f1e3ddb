/**
 * What the guarantee switch sets in a batch pipeline (docs/semantics/batch.md#the-guarantee-switch):
 * - at-most-once: no retries, append. A crashed attempt is never run again: an event is written
 *   at most once (lost if the crash came before the commit).
 * - at-least-once: retries, append. Every date is written in the end, but an attempt that crashed
 *   after its commit writes it again ("an INSERT statement might lead to duplicate rows").
 * - exactly-once: retries, the window pinned to the logical date, and an atomic overwrite of the
 *   logical date's partition: "the tasks should produce the same outcome on every re-run"
 *   (https://airflow.apache.org/docs/apache-airflow/stable/best-practices.html#creating-a-task).
 */
import type { Guarantee } from '../scenario/schema';
import type { BatchConfig } from './schema';

/** The retries an at-least-once or exactly-once recipe sets when the job has none. */
const RECIPE_RETRIES = 2;

export function applyBatchGuarantee(b: BatchConfig, g: Guarantee): BatchConfig {
  const retries = g === 'at-most-once' ? 0 : Math.max(b.task.retries, RECIPE_RETRIES);
  const task = { ...b.task, retries };
  if (g !== 'exactly-once')
    return { ...b, task, write: { ...b.write, mode: 'append', atomic: true } };
  return {
    ...b,
    task,
    window: 'pinned',
    write: { ...b.write, mode: 'overwrite-partition', partitionBy: 'logical-date', atomic: true },
  };
}
