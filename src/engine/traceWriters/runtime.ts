/**
 * Trace writers for the world itself: messages, processes' lives, faults and the run's end.
 * The fields' meaning per kind is documented on {@link ENTRY_KINDS} in trace.ts; each writer
 * takes only the fields its kind uses, by name, and leaves the others at -1.
 */
import { NO_ENTRY, type ActorId, type EntryId, type EventId } from '../ids';
import { K, type Trace } from '../trace';

/**
 * A message leaves `actor` (or is lost: `lost`): `type` = index in MESSAGE_TYPES, the other
 * fields the records it carries (-1: none); peer, arrival and transaction are set with
 * `set(e, { peer, until, txn })`.
 */
export function writeMessage(
  t: Trace,
  time: number,
  lost: boolean,
  actor: ActorId,
  cause: EntryId,
  event: EventId,
  topic: number,
  partition: number,
  offset: number,
  records: number,
  type: number,
): EntryId {
  const kind = lost ? K['msg-lost'] : K.msg;
  return t.add(time, kind, actor, cause, event, topic, partition, offset, records, type) as EntryId;
}

/** A process dies (`faultIndex` -1: not by a fault). */
export function writeCrash(
  t: Trace,
  time: number,
  actor: ActorId,
  cause: EntryId,
  faultIndex: number,
): EntryId {
  return t.add(time, K.crash, actor, cause, -1, -1, -1, -1, -1, faultIndex) as EntryId;
}

/** A process starts again as `incarnation`. */
export function writeRestart(
  t: Trace,
  time: number,
  actor: ActorId,
  cause: EntryId,
  incarnation: number,
): EntryId {
  return t.add(time, K.restart, actor, cause, -1, -1, -1, -1, -1, incarnation) as EntryId;
}

/** A fault fires. */
export function writeFault(
  t: Trace,
  time: number,
  actor: ActorId,
  cause: EntryId,
  event: EventId,
  faultIndex: number,
): EntryId {
  return t.add(time, K.fault, actor, cause, event, -1, -1, -1, -1, faultIndex) as EntryId;
}

/** A process stops making progress until `until` (a long pause). */
export function writeStall(
  t: Trace,
  time: number,
  actor: ActorId,
  cause: EntryId,
  until: number,
): EntryId {
  const e = t.add(time, K.stall, actor, cause) as EntryId;
  t.set(e, { until });
  return e;
}

/** The run ends: `how` = END_SETTLED / END_STOP / END_TRACE_LIMIT, `entries` = the limit reached (-1). */
export function writeEnd(t: Trace, time: number, entries: number, how: number): EntryId {
  return t.add(time, K.end, 0, NO_ENTRY, -1, -1, -1, -1, entries, how) as EntryId;
}
