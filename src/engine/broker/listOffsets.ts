/**
 * A reader's ListOffsets for the latest offset — the consumer's `auto.offset.reset=latest` for a
 * partition with no committed offset, Flink's `OffsetsInitializer.latest()` and Spark's
 * `startingOffsets=latest` at the job's or query's start, and each Spark trigger's planning. The answer is the
 * leader's high watermark, except while a new leader's lags behind the start offset of its
 * epoch: then it is OFFSET_NOT_AVAILABLE, a retriable error (KIP-207, Kafka's
 * Partition.fetchOffsetForTimestamp;
 * https://kafka.apache.org/42/javadoc/org/apache/kafka/common/errors/OffsetNotAvailableException.html),
 * which the Kafka clients retry — the Admin client's ListOffsetsHandler and the consumer's offset
 * lookup alike — `retry.backoff.ms` later (docs/semantics/broker.md#a-new-leaders-high-watermark).
 */
import type { EntryId } from '../ids';
import { NO_EVENT } from '../ids';
import type { Actor } from '../world';
import { writeReject } from '../traceWriters';
import { errorIndex, type Cluster, type Topic } from './cluster';
import type { Partition } from './partition';

/** The clients' default `retry.backoff.ms` (https://kafka.apache.org/documentation/#adminclientconfigs_retry.backoff.ms). */
export const LIST_OFFSETS_RETRY_BACKOFF_MS = 100;

/**
 * Look up the latest offset of `p` for `reader`: null when its leader answers (its high
 * watermark, `Partition.hw`, or the last stable offset for read_committed), else the 'reject'
 * entry (OFFSET_NOT_AVAILABLE, from the leader) that the caller retries after
 * {@link LIST_OFFSETS_RETRY_BACKOFF_MS}. The broker checks the high watermark whatever the
 * isolation level.
 */
export function latestOffsetRefused(
  reader: Actor,
  cluster: Cluster,
  p: Partition,
  cause: EntryId,
): EntryId | null {
  if (p.latestOffsetAvailable()) return null;
  const w = reader.world;
  const leader = cluster.leaderOf(p);
  return writeReject(
    w.trace,
    w.now,
    reader.id,
    cause,
    NO_EVENT,
    p.topic,
    p.index,
    p.hw,
    -1,
    errorIndex('OFFSET_NOT_AVAILABLE'),
    leader ? leader.id : -1,
  );
}

/** {@link latestOffsetRefused} for each of `topic`'s partitions: the first refusal, or null. */
export function latestOffsetsRefused(
  reader: Actor,
  cluster: Cluster,
  topic: Topic,
  cause: EntryId,
): EntryId | null {
  for (const p of topic.partitions) {
    const refused = latestOffsetRefused(reader, cluster, p, cause);
    if (refused !== null) return refused;
  }
  return null;
}
