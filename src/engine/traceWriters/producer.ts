/**
 * Trace writers for the producer client and the application that calls send().
 * The fields' meaning per kind is documented on {@link ENTRY_KINDS} in trace.ts; each writer
 * takes only the fields its kind uses, by name, and leaves the others at -1.
 */
import { NO_EVENT, type ActorId, type EntryId, type EventId } from '../ids';
import { K, type Trace } from '../trace';

/** The application calls send(): `sendCause` = index in SEND_CAUSES. */
export function writeAppSend(
  t: Trace,
  time: number,
  actor: ActorId,
  cause: EntryId,
  event: EventId,
  topic: number,
  partition: number,
  sendCause: number,
): EntryId {
  return t.add(
    time,
    K['app-send'],
    actor,
    cause,
    event,
    topic,
    partition,
    -1,
    -1,
    sendCause,
  ) as EntryId;
}

/**
 * The transaction (its number, -1: none) that an app-send's record joined. Known only once
 * send() has returned: the client registers a transaction with its first record
 * (AddPartitionsToTxn), so this annotates the 'app-send' entry afterwards.
 */
export function writeAppSendTxn(t: Trace, appSend: EntryId, txn: number): void {
  t.set(appSend, { txn });
}

/** The application's send() failed or its wait timed out: `error` = index in ERROR_CODES. */
export function writeAppSendFailed(
  t: Trace,
  time: number,
  actor: ActorId,
  cause: EntryId,
  event: EventId,
  topic: number,
  error: number,
): EntryId {
  return t.add(
    time,
    K['app-send-failed'],
    actor,
    cause,
    event,
    topic,
    -1,
    -1,
    -1,
    error,
  ) as EntryId;
}

/** The producer re-sends a batch (`event` = its first event). */
export function writeRetry(
  t: Trace,
  time: number,
  actor: ActorId,
  cause: EntryId,
  event: EventId,
  topic: number,
  partition: number,
  records: number,
  attempt: number,
): EntryId {
  return t.add(
    time,
    K.retry,
    actor,
    cause,
    event,
    topic,
    partition,
    -1,
    records,
    attempt,
  ) as EntryId;
}

/** The producer's batch succeeded: `offset` = its base offset (-1 with acks=0). */
export function writeAck(
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
  return t.add(time, K.ack, actor, cause, event, topic, partition, offset, records) as EntryId;
}

/** The producer gives up on a batch. */
export function writeBatchFailed(
  t: Trace,
  time: number,
  actor: ActorId,
  cause: EntryId,
  event: EventId,
  topic: number,
  partition: number,
  records: number,
  error: number,
): EntryId {
  return t.add(
    time,
    K['batch-failed'],
    actor,
    cause,
    event,
    topic,
    partition,
    -1,
    records,
    error,
  ) as EntryId;
}

/**
 * A request failed: `error` = index in ERROR_CODES; the other fields locate what it carried,
 * `peer` = the broker it was for, `txn` = the transaction's number (-1: none).
 */
export function writeReject(
  t: Trace,
  time: number,
  actor: ActorId,
  cause: EntryId,
  event: EventId,
  topic: number,
  partition: number,
  offset: number,
  records: number,
  error: number,
  peer: number = -1,
  txn: number = -1,
): EntryId {
  const e = t.add(
    time,
    K.reject,
    actor,
    cause,
    event,
    topic,
    partition,
    offset,
    records,
    error,
  ) as EntryId;
  if (peer !== -1 || txn !== -1) t.set(e, { peer, txn });
  return e;
}

/**
 * A transactional request refused: by the coordinator (CONCURRENT_TRANSACTIONS, PRODUCER_FENCED,
 * INVALID_PRODUCER_EPOCH), or by the client itself when its request timed out. `error` is the
 * code's index, `txn` the transaction's number (-1: none).
 */
export function writeTxnReject(
  t: Trace,
  time: number,
  actor: ActorId,
  cause: EntryId,
  error: number,
  txn: number = -1,
): EntryId {
  return writeReject(t, time, actor, cause, NO_EVENT, -1, -1, -1, -1, error, -1, txn);
}

/** A producer is fenced. */
export function writeFenced(
  t: Trace,
  time: number,
  actor: ActorId,
  cause: EntryId,
  epoch: number,
): EntryId {
  return t.add(time, K.fenced, actor, cause, -1, -1, -1, -1, -1, epoch) as EntryId;
}
