/**
 * A Spark micro-batch as data: the offset-log entry that plans it, and one attempt of it as it
 * runs — its read, its records processed so far, its rows — held in a plain record that the
 * query's queued tasks and held calls name, so a snapshot copies a batch in flight
 * (docs/ARCHITECTURE.md, "Pending work and forks"). The query that runs it: ./spark.ts.
 */
import type { SinkRow } from '../sinks/table';
import type { Rec } from './consumer';
import { copyWatermarkState, type WatermarkDedupeState } from './streamDedupe';

/** One offset-log entry: the batch's range per partition ([start, end)) and its timestamp. */
export interface PlannedBatch {
  id: number;
  start: number[];
  end: number[];
  /** The batch timestamp (current_timestamp() inside the batch). */
  timestamp: number;
  /** The watermark the batch runs with (offset-log metadata, `batchWatermarkMs`); -1: none. */
  watermark: number;
}

/**
 * One attempt of a batch as it runs: its history entry, its dedupe state so far, its read — the
 * records read and where the read stands (partition `p`, offset `from`) — then its processing:
 * the next record to process (`i`) and the rows for the sink so far.
 */
export interface BatchRun {
  batch: PlannedBatch;
  attempt: { committedAt: number };
  state: WatermarkDedupeState;
  recs: Rec[];
  p: number;
  from: number;
  i: number;
  rows: SinkRow[];
}

/**
 * A new attempt of `batch`, its read at the start of its range. The batch's dedupe works on a
 * copy of the committed state `committed`: it becomes the state at commit.
 */
export function startBatchRun(
  batch: PlannedBatch,
  attempt: { committedAt: number },
  committed: WatermarkDedupeState,
): BatchRun {
  const state = copyWatermarkState(committed);
  return { batch, attempt, state, recs: [], p: 0, from: batch.start[0] ?? 0, i: 0, rows: [] };
}

/**
 * `maxOffsetsPerTrigger` (`max`, undefined: no limit): where a batch from `start` ends, given the
 * partitions' ends `hw`. "The specified total number of offsets will be proportionally split
 * across topicPartitions of different volume"
 * (https://spark.apache.org/docs/latest/streaming/structured-streaming-kafka-integration.html).
 * As the Kafka source's `rateLimit` does it: each partition with `size` new offsets out of
 * `total` takes `limit · (size / total)` (doubles), rounded down — or up when below 1, "Don't
 * completely starve small topicpartitions" — and never past its end. Nothing is handed out
 * again, so a batch may hold fewer than the limit (3 partitions of 5, limit 10: 3 + 3 + 3) or,
 * with more partitions holding data than the limit, more (3 partitions of 3, limit 2: 1 + 1 + 1)
 * (https://github.com/apache/spark/blob/master/connector/kafka-0-10-sql/src/main/scala/org/apache/spark/sql/kafka010/KafkaMicroBatchStream.scala).
 */
export function rateLimit(max: number | undefined, start: number[], hw: number[]): number[] {
  if (max === undefined) return [...hw];
  const sizes = hw.map((h, i) => h - start[i]!);
  const total = sizes.reduce((a, n) => (n > 0 ? a + n : a), 0);
  if (total < 1) return [...hw];
  return hw.map((end, i) => {
    const size = sizes[i]!;
    if (size <= 0) return end;
    const prorate = max * (size / total);
    return Math.min(end, start[i]! + (prorate < 1 ? Math.ceil(prorate) : Math.floor(prorate)));
  });
}
