/**
 * Trace writers for the processors: consumers, Flink and Spark jobs.
 * The fields' meaning per kind is documented on {@link ENTRY_KINDS} in trace.ts; each writer
 * takes only the fields its kind uses, by name, and leaves the others at -1.
 */
import type { ActorId, EntryId, EventId } from '../ids';
import { K, type Trace } from '../trace';

/** A consumer receives records from poll() (`event` = the first's). */
export function writePoll(
  t: Trace,
  time: number,
  actor: ActorId,
  cause: EntryId,
  event: EventId,
  topic: number,
  partition: number,
  offset: number,
  records: number,
): EntryId {
  return t.add(time, K.poll, actor, cause, event, topic, partition, offset, records) as EntryId;
}

/** A record is processed: `attemptOrKey` = the incarnation (Flink: the key index), `count` 1 (Flink: the key's running count). */
export function writeProcess(
  t: Trace,
  time: number,
  actor: ActorId,
  cause: EntryId,
  event: EventId,
  topic: number,
  partition: number,
  offset: number,
  count: number,
  attemptOrKey: number,
): EntryId {
  return t.add(
    time,
    K.process,
    actor,
    cause,
    event,
    topic,
    partition,
    offset,
    count,
    attemptOrKey,
  ) as EntryId;
}

/** A consumer (re)starts reading a partition at `position`. */
export function writeAssign(
  t: Trace,
  time: number,
  actor: ActorId,
  cause: EntryId,
  topic: number,
  partition: number,
  position: number,
): EntryId {
  return t.add(time, K.assign, actor, cause, -1, topic, partition, position) as EntryId;
}

/** A consumer stops owning a partition. */
export function writeRevoke(
  t: Trace,
  time: number,
  actor: ActorId,
  cause: EntryId,
  topic: number,
  partition: number,
): EntryId {
  return t.add(time, K.revoke, actor, cause, -1, topic, partition) as EntryId;
}

/** A consumer leaves its group after its poll timeout: the coordinator removes it at `until`. */
export function writeLeaveGroup(
  t: Trace,
  time: number,
  actor: ActorId,
  cause: EntryId,
  topic: number,
  until: number,
): EntryId {
  const e = t.add(time, K['leave-group'], actor, cause, -1, topic, -1, -1, -1, 0) as EntryId;
  t.set(e, { until });
  return e;
}

/**
 * A step of checkpoint `ckpt`: `step` = index in CHECKPOINT_STEPS; `txn` and `until` as that
 * step uses them (-1: none).
 */
export function writeCheckpoint(
  t: Trace,
  time: number,
  actor: ActorId,
  cause: EntryId,
  topic: number,
  partition: number,
  offset: number,
  keys: number,
  step: number,
  ckpt: number,
  txn: number,
  until: number,
): EntryId {
  const e = t.add(
    time,
    K.checkpoint,
    actor,
    cause,
    -1,
    topic,
    partition,
    offset,
    keys,
    step,
  ) as EntryId;
  t.set(e, { ckpt, txn, until });
  return e;
}

/**
 * Spark writes batch `batchId`'s offset log entry (`start` = partition 0's); `watermark` = the
 * dedupe's watermark for it (-1: no dedupe).
 */
export function writeBatchPlanned(
  t: Trace,
  time: number,
  actor: ActorId,
  cause: EntryId,
  topic: number,
  start: number,
  records: number,
  batchId: number,
  watermark: number,
): EntryId {
  const e = t.add(time, K['batch-planned'], actor, cause, -1, topic, 0, start, records) as EntryId;
  t.set(e, { ckpt: batchId, until: watermark });
  return e;
}

/** Spark writes batch `batchId`'s commit log entry (`end` = partition 0's). */
export function writeBatchCommitted(
  t: Trace,
  time: number,
  actor: ActorId,
  cause: EntryId,
  topic: number,
  end: number,
  rows: number,
  batchId: number,
): EntryId {
  const e = t.add(time, K['batch-committed'], actor, cause, -1, topic, 0, end, rows) as EntryId;
  t.set(e, { ckpt: batchId });
  return e;
}

/**
 * A stream processor's dedupe drops a record: `late` 1 late, 0 a copy; `until` = Spark's
 * watermark, or when Flink's state for the key expires (-1: never).
 */
export function writeStreamDedupe(
  t: Trace,
  time: number,
  actor: ActorId,
  cause: EntryId,
  event: EventId,
  topic: number,
  partition: number,
  offset: number,
  late: number,
  until: number,
): EntryId {
  const e = t.add(
    time,
    K['stream-dedupe'],
    actor,
    cause,
    event,
    topic,
    partition,
    offset,
    1,
    late,
  ) as EntryId;
  t.set(e, { until });
  return e;
}
