/**
 * Trace writers for the broker: the log, replication, offsets and transactions.
 * The fields' meaning per kind is documented on {@link ENTRY_KINDS} in trace.ts; each writer
 * takes only the fields its kind uses, by name, and leaves the others at -1.
 */
import type { ActorId, EntryId, EventId } from '../ids';
import { K, type Trace } from '../trace';

/**
 * A partition leader appends a batch: `firstSeq` = its first sequence number (-1: not
 * idempotent), `txn` = the transaction's number it belongs to (-1: none).
 */
export function writeAppend(
  t: Trace,
  time: number,
  actor: ActorId,
  cause: EntryId,
  event: EventId,
  topic: number,
  partition: number,
  baseOffset: number,
  records: number,
  firstSeq: number,
  txn: number,
): EntryId {
  const e = t.add(
    time,
    K.append,
    actor,
    cause,
    event,
    topic,
    partition,
    baseOffset,
    records,
    firstSeq,
  ) as EntryId;
  if (txn >= 0) t.set(e, { txn });
  return e;
}

/** The broker recognised an already-written batch: `offset` = where it was written. */
export function writeDedupe(
  t: Trace,
  time: number,
  actor: ActorId,
  cause: EntryId,
  event: EventId,
  topic: number,
  partition: number,
  offset: number,
  records: number,
  firstSeq: number,
): EntryId {
  return t.add(
    time,
    K.dedupe,
    actor,
    cause,
    event,
    topic,
    partition,
    offset,
    records,
    firstSeq,
  ) as EntryId;
}

/**
 * The high watermark moves; `learned`: to the one a new leader learned as a follower, at its
 * election (aux 1, docs/semantics/broker.md#a-new-leaders-high-watermark).
 */
export function writeHighWatermark(
  t: Trace,
  time: number,
  actor: ActorId,
  cause: EntryId,
  topic: number,
  partition: number,
  highWatermark: number,
  learned = false,
): EntryId {
  return t.add(
    time,
    K.hw,
    actor,
    cause,
    -1,
    topic,
    partition,
    highWatermark,
    -1,
    learned ? 1 : -1,
  ) as EntryId;
}

/** Records above a new leader's log end are cut. */
export function writeTruncate(
  t: Trace,
  time: number,
  actor: ActorId,
  cause: EntryId,
  topic: number,
  partition: number,
  firstRemoved: number,
  removed: number,
): EntryId {
  return t.add(
    time,
    K.truncate,
    actor,
    cause,
    -1,
    topic,
    partition,
    firstRemoved,
    removed,
  ) as EntryId;
}

/**
 * A new partition leader (`broker` -1: none, the partition is offline) with its leader `epoch`
 * (-1: none), kept in the txn column.
 */
export function writeLeader(
  t: Trace,
  time: number,
  actor: ActorId,
  cause: EntryId,
  topic: number,
  partition: number,
  logEnd: number,
  broker: number,
  epoch: number,
): EntryId {
  const e = t.add(
    time,
    K.leader,
    actor,
    cause,
    -1,
    topic,
    partition,
    logEnd,
    -1,
    broker,
  ) as EntryId;
  t.set(e, { txn: epoch });
  return e;
}

/** A replica rejoins (`joined` 1) or drops out of (0) the ISR. */
export function writeIsr(
  t: Trace,
  time: number,
  actor: ActorId,
  cause: EntryId,
  topic: number,
  partition: number,
  logEnd: number,
  joined: number,
  broker: number,
): EntryId {
  return t.add(time, K.isr, actor, cause, -1, topic, partition, logEnd, joined, broker) as EntryId;
}

/** Records are lost for good: `txn` = the expired transaction that held them (-1: none). */
export function writeDataLoss(
  t: Trace,
  time: number,
  actor: ActorId,
  cause: EntryId,
  topic: number,
  partition: number,
  firstOffset: number,
  records: number,
  error: number,
  txn: number,
): EntryId {
  const e = t.add(
    time,
    K['data-loss'],
    actor,
    cause,
    -1,
    topic,
    partition,
    firstOffset,
    records,
    error,
  ) as EntryId;
  t.set(e, { txn });
  return e;
}

/** The coordinator commits a consumer offset for `committer` (the peer column). */
export function writeCommit(
  t: Trace,
  time: number,
  actor: ActorId,
  cause: EntryId,
  topic: number,
  partition: number,
  nextOffset: number,
  generation: number,
  committer: ActorId,
): EntryId {
  const e = t.add(
    time,
    K.commit,
    actor,
    cause,
    -1,
    topic,
    partition,
    nextOffset,
    -1,
    generation,
  ) as EntryId;
  t.set(e, { peer: committer });
  return e;
}

/** An offset commit is refused. */
export function writeCommitFailed(
  t: Trace,
  time: number,
  actor: ActorId,
  cause: EntryId,
  topic: number,
  partition: number,
  offset: number,
  error: number,
): EntryId {
  return t.add(
    time,
    K['commit-failed'],
    actor,
    cause,
    -1,
    topic,
    partition,
    offset,
    -1,
    error,
  ) as EntryId;
}

/**
 * Transaction `txn` (its number) changes state: `state` = index in TXN_STATES, `reason` =
 * TXN_REASON_* (-1: none).
 */
export function writeTxn(
  t: Trace,
  time: number,
  actor: ActorId,
  cause: EntryId,
  reason: number,
  state: number,
  txn: number,
): EntryId {
  const e = t.add(time, K.txn, actor, cause, -1, -1, -1, -1, reason, state) as EntryId;
  t.set(e, { txn });
  return e;
}

/** A marker of transaction `txn` is written: `commit` 1 commit / 0 abort. */
export function writeMarker(
  t: Trace,
  time: number,
  actor: ActorId,
  cause: EntryId,
  topic: number,
  partition: number,
  offset: number,
  commit: number,
  txn: number,
): EntryId {
  const e = t.add(time, K.marker, actor, cause, -1, topic, partition, offset, 1, commit) as EntryId;
  t.set(e, { txn });
  return e;
}
