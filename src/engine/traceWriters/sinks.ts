/**
 * Trace writers for the sinks: table rows, statements and external side effects.
 * The fields' meaning per kind is documented on {@link ENTRY_KINDS} in trace.ts; each writer
 * takes only the fields its kind uses, by name, and leaves the others at -1.
 */
import type { ActorId, EntryId, EventId } from '../ids';
import { K, type Trace } from '../trace';

/** A sink row is inserted. */
export function writeRowInsert(
  t: Trace,
  time: number,
  actor: ActorId,
  cause: EntryId,
  event: EventId,
  topic: number,
  partition: number,
  offset: number,
  count: number,
  rowId: number,
): EntryId {
  return t.add(
    time,
    K['row-insert'],
    actor,
    cause,
    event,
    topic,
    partition,
    offset,
    count,
    rowId,
  ) as EntryId;
}

/** A sink row is updated in place: `changed` 1 if the value changed. */
export function writeRowUpdate(
  t: Trace,
  time: number,
  actor: ActorId,
  cause: EntryId,
  event: EventId,
  topic: number,
  partition: number,
  offset: number,
  changed: number,
  rowId: number,
): EntryId {
  return t.add(
    time,
    K['row-update'],
    actor,
    cause,
    event,
    topic,
    partition,
    offset,
    changed,
    rowId,
  ) as EntryId;
}

/** A sink write is a no-op: `reason` = index in SKIP_REASONS. */
export function writeRowSkip(
  t: Trace,
  time: number,
  actor: ActorId,
  cause: EntryId,
  event: EventId,
  topic: number,
  partition: number,
  offset: number,
  reason: number,
): EntryId {
  return t.add(
    time,
    K['row-skip'],
    actor,
    cause,
    event,
    topic,
    partition,
    offset,
    1,
    reason,
  ) as EntryId;
}

/** A sink statement fails and rolls back. */
export function writeStatementError(
  t: Trace,
  time: number,
  actor: ActorId,
  cause: EntryId,
  event: EventId,
  rows: number,
  error: number,
): EntryId {
  return t.add(time, K['stmt-error'], actor, cause, event, -1, -1, -1, rows, error) as EntryId;
}

/** An external side effect happens. */
export function writeEffect(
  t: Trace,
  time: number,
  actor: ActorId,
  cause: EntryId,
  event: EventId,
  topic: number,
  partition: number,
  offset: number,
  effectNo: number,
): EntryId {
  return t.add(
    time,
    K.effect,
    actor,
    cause,
    event,
    topic,
    partition,
    offset,
    1,
    effectNo,
  ) as EntryId;
}

/** A side-effect call is answered from the idempotency store. */
export function writeEffectReplayed(
  t: Trace,
  time: number,
  actor: ActorId,
  cause: EntryId,
  event: EventId,
  topic: number,
  partition: number,
  offset: number,
  reason: number,
): EntryId {
  return t.add(
    time,
    K['effect-replayed'],
    actor,
    cause,
    event,
    topic,
    partition,
    offset,
    1,
    reason,
  ) as EntryId;
}
