/**
 * What the guarantee switch sets in a batch pipeline (docs/semantics/batch.md#the-guarantee-switch):
 * - every guarantee: the window pinned to the logical date and the logical date's partition as the
 *   target. "Read and write in a specific partition. Never read the latest available data in a
 *   task … You can use data_interval_start as a partition"
 *   (https://airflow.apache.org/docs/apache-airflow/stable/best-practices.html#creating-a-task):
 *   a clock window makes a late run (a catch-up, a retry past midnight, a clear) read another
 *   day, which loses the run's own day and writes the clock's day twice — no guarantee survives it.
 * - at-most-once: no retries, append. A crashed attempt is never run again: an event is written
 *   at most once (lost if the crash came before the commit).
 * - at-least-once: retries, append. Every date is written in the end, but an attempt that crashed
 *   after its commit writes it again ("an INSERT statement might lead to duplicate rows").
 * - exactly-once: retries and an atomic overwrite of the logical date's partition: "the tasks
 *   should produce the same outcome on every re-run".
 * - at-least-once and exactly-once take away a dedupe store in front of the write ("dedupe
 *   nothing", as the stream's at-least-once recipe): a claim taken before the write loses the row
 *   a crash leaves claimed and unwritten, and behind an overwrite it filters the overwrite's rows —
 *   a replay while the claims live skips them all and replaces the partition with none. The
 *   overwrite is the idempotence. At-most-once keeps it: a claim before the write is at most once.
 */
import type { Guarantee } from '../scenario/schema';
import type { BatchConfig } from './schema';

/** The retries an at-least-once or exactly-once recipe sets when the job has none. */
const RECIPE_RETRIES = 2;

export function applyBatchGuarantee(b: BatchConfig, g: Guarantee): BatchConfig {
  const retries = g === 'at-most-once' ? 0 : Math.max(b.task.retries, RECIPE_RETRIES);
  const { dedupe, ...rest } = b;
  return {
    ...(g === 'at-most-once' && dedupe !== undefined ? { ...rest, dedupe } : rest),
    task: { ...b.task, retries },
    window: 'pinned',
    write: {
      ...b.write,
      mode: g === 'exactly-once' ? 'overwrite-partition' : 'append',
      partitionBy: 'logical-date',
      atomic: true,
    },
  };
}
