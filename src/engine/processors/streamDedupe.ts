/**
 * Dedupe inside a stream processor, bounded in time: a key is remembered only for a while, so a
 * copy that comes later than that passes through (docs/semantics/stream-dedupe.md).
 *
 * - Spark `dropDuplicatesWithinWatermark(["id"])` after `withWatermark(col, delay)`: "Events are
 *   deduplicated as long as the time distance of earliest and latest events are smaller than the
 *   delay threshold of watermark", and "too late data older than watermark will be dropped"
 *   (https://spark.apache.org/docs/latest/api/python/reference/pyspark.sql/api/pyspark.sql.DataFrame.dropDuplicatesWithinWatermark.html).
 *   A key is kept until the watermark passes its first copy's event time + the delay.
 * - Spark `dropDuplicates(["id", col])` with a watermark on `col`: the event-time column is part of
 *   the key, and a key is kept until the watermark passes that event time
 *   (https://spark.apache.org/docs/latest/streaming/apis-on-dataframes-and-datasets.html#streaming-deduplication).
 * - Flink keyed dedupe (`ROW_NUMBER() OVER (PARTITION BY id ORDER BY proctime) = 1`, keep first)
 *   with state TTL (`table.exec.state.ttl`, `StateTtlConfig`): the key's state expires `ttl` after
 *   it was written, in processing time; an expired entry is never returned
 *   (https://nightlies.apache.org/flink/flink-docs-stable/docs/dev/table/sql/queries/deduplication/,
 *   https://nightlies.apache.org/flink/flink-docs-stable/docs/dev/table/config/#table-exec-state-ttl,
 *   https://nightlies.apache.org/flink/flink-docs-stable/docs/dev/datastream/fault-tolerance/state/#state-time-to-live-ttl).
 *
 * The state is plain data (Maps of keys → times) so it snapshots and restores by copying: a Map,
 * not an object with a field per key, as every state whose keys come and go (a fault atlas's
 * save point writes an object's fields back, but does not take a field away: src/engine/core/rewind.ts).
 */

/** What the dedupe does with one record. */
export type DedupeDecision = 'pass' | 'duplicate' | 'late';

/** Spark's deduplication state: what the state store holds after a committed micro-batch. */
export interface WatermarkDedupeState {
  /** Key → the event time at or after which the watermark evicts it. */
  keys: Map<string, number>;
  /** The largest event time seen so far (ms), -1 before any record. */
  maxEventTime: number;
}

export function emptyWatermarkState(): WatermarkDedupeState {
  return { keys: new Map(), maxEventTime: -1 };
}

export function copyWatermarkState(s: WatermarkDedupeState): WatermarkDedupeState {
  return { keys: new Map(s.keys), maxEventTime: s.maxEventTime };
}

/**
 * The watermark for the next micro-batch: "max event time seen by the engine minus the late
 * threshold", set at the end of a batch; -1 (none) before any record.
 */
export function nextWatermark(s: WatermarkDedupeState, delayMs: number): number {
  return s.maxEventTime < 0 ? -1 : Math.max(0, s.maxEventTime - delayMs);
}

/**
 * One record through Spark's dedupe, at a batch whose watermark is `watermark`: late data is
 * dropped, a key still in the state is a duplicate, else the key is stored until its eviction.
 */
export function sparkDedupe(
  s: WatermarkDedupeState,
  operator: 'dropDuplicatesWithinWatermark' | 'dropDuplicates',
  id: number,
  eventTime: number,
  delayMs: number,
  watermark: number,
): DedupeDecision {
  if (eventTime > s.maxEventTime) s.maxEventTime = eventTime;
  if (watermark >= 0) {
    for (const [k, until] of s.keys) if (until <= watermark) s.keys.delete(k);
    if (eventTime <= watermark) return 'late';
  }
  const key = operator === 'dropDuplicates' ? `${id}@${eventTime}` : `${id}`;
  if (s.keys.has(key)) return 'duplicate';
  s.keys.set(key, operator === 'dropDuplicates' ? eventTime : eventTime + delayMs);
  return 'pass';
}

/**
 * One record through Flink's keep-first dedupe with a state TTL (`ttlMs`, 0 = never expires), at
 * processing time `now`: `written` holds, per key, when its state was written. A key whose state
 * is older than the TTL is expired ("never returned"): the record is the first again.
 */
export function ttlDedupe(
  written: Map<number, number>,
  id: number,
  now: number,
  ttlMs: number,
): DedupeDecision {
  const at = written.get(id);
  if (at !== undefined && (ttlMs === 0 || at + ttlMs > now)) return 'duplicate';
  written.set(id, now);
  return 'pass';
}
