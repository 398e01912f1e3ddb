/**
 * One trace entry in words, for the "trace of the selected event" list and token labels:
 * "consumer-0 processed p-5 from payments-0@5 (attempt 2)". Field meanings per kind follow
 * src/engine/trace.ts (ENTRY_KINDS).
 */
import {
  CHECKPOINT_STEPS,
  ERROR_CODES,
  SEND_CAUSES,
  SKIP_REASONS,
  TXN_STATES,
  failoverCause,
  fencedExit,
  firstIdleCheckpoint,
  END_STOP,
  END_TRACE_LIMIT,
  describeFault,
} from '../../engine';
import { messageLabel } from '../edit/faultActions';
import { faultName } from '../edit/faultName';
import { formatCountOf, formatDuration, formatMs } from '../run/format';
import { K, kindName, messageTypeName } from '../run/kinds';
import { eventIdOf, type RunView } from '../run/runView';

/** Business id carried by entry i, or ''. */
/**
 * A processor's (re)start in words, for the Event trace and the diagrams alike. Flink restores its
 * last completed checkpoint (source offsets and state as a pair); Spark has no checkpoint to
 * restore — it reads its offsets log and commit log, and a batch logged but not committed runs
 * again with the same id and offsets
 * (https://spark.apache.org/docs/latest/structured-streaming-programming-guide.html#recovering-from-failures-with-checkpointing).
 * @param actor - `flink` or `spark`; @param ckpt - the checkpoint (Flink) or the last logged
 *   batch (Spark), -1 for none; @param offset - where the source resumes.
 */
/**
 * Checkpoints `first`..`last` that completed while the Flink job was idle, in words: Flink's
 * coordinator triggers one every `intervalMs` whatever the traffic, and one with nothing new
 * completes with the same source position and state
 * (https://nightlies.apache.org/flink/flink-docs-stable/docs/dev/datastream/fault-tolerance/checkpointing/).
 * @param fromMs - the first one's trigger time; @param offset - the source position they hold.
 */
export function idleCheckpointsWords(
  first: number,
  last: number,
  fromMs: number,
  intervalMs: number,
  offset: number,
): string {
  const held = offset >= 0 ? `nothing new, source offset ${offset}` : 'nothing new';
  return first >= last
    ? `checkpoint ${last} completed while the job was idle (triggered at ${formatMs(fromMs)}, ${held})`
    : `checkpoints ${first}–${last} completed while the job was idle (one every ${formatDuration(intervalMs)} from ${formatMs(fromMs)}, ${held})`;
}

export function restoreWords(actor: string, ckpt: number, offset: number): string {
  if (actor === 'spark')
    return ckpt >= 0
      ? `query restarted · offsets log up to batch ${ckpt} · from offset ${offset}`
      : `query started with no offsets log · startingOffsets → offset ${offset}`;
  return ckpt >= 0
    ? `restored checkpoint ${ckpt} · source from offset ${offset}`
    : `started without a checkpoint · source from offset ${offset}`;
}

function entryEventId(v: RunView, i: number): string {
  const e = v.cols.event[i]!;
  return e >= 0 ? eventIdOf(v.events, v.events.identity[e]!) : '';
}

/** `payments-0@5`. */
function at(v: RunView, i: number): string {
  const c = v.cols;
  const topic = c.topic[i]! >= 0 ? v.topics[c.topic[i]!] : undefined;
  const p = c.partition[i]!;
  const o = c.offset[i]!;
  if (topic === undefined || p < 0) return '';
  return o >= 0 ? `${topic}-${p}@${o}` : `${topic}-${p}`;
}

/** An actor as the event log names it: a downstream reader with its name (`reader-0 (rc)`). */
function actorLabel(v: RunView, a: number): string {
  const name = v.actors[a] ?? '?';
  const r = /^reader-(\d+)$/.exec(name);
  const reader = r ? v.scenario.readers[Number(r[1])] : undefined;
  return reader ? `${name} (${reader.name})` : name;
}

/** Entry `i` as one sentence. */
export function describeEntry(v: RunView, i: number): string {
  const c = v.cols;
  const k = c.kind[i]!;
  const who = actorLabel(v, c.actor[i]!);
  const ev = entryEventId(v, i);
  const n = c.count[i]!;
  const aux = c.aux[i]!;
  switch (kindName(k)) {
    case 'app-send': {
      const cause = SEND_CAUSES[aux] ?? 'first';
      return `the application sends ${ev}${cause === 'first' ? '' : ` again (${cause})`}`;
    }
    case 'app-send-failed':
      return `the application’s send of ${ev} failed (${ERROR_CODES[aux] ?? 'error'})`;
    case 'msg':
    case 'msg-lost': {
      const type = messageTypeName(aux);
      // A coordinator's message carries its API in `count`, not a number of records.
      const txn = type === 'txn-request' || type === 'txn-response';
      const what = txn
        ? `${messageLabel(type, n)}${ev ? ` of ${ev}` : ''}`
        : `${messageLabel(type)}${ev ? ` of ${ev}` : ''}${n > 1 ? ` (${formatCountOf(n, 'record')})` : ''}`;
      const to = v.actors[c.peer[i]!] ?? '?';
      return k === K['msg-lost']
        ? `${what} from ${who} to ${to} is LOST`
        : `${who} → ${to}: ${what}`;
    }
    case 'batch':
      return `the producer batches ${formatCountOf(n, 'record')} for partition ${c.partition[i]}`;
    case 'retry':
      return `the producer retries the batch of ${ev} (attempt ${aux})`;
    case 'ack':
      // Offset -1: acks=0, no answer is awaited — "the record will be immediately added to the
      // socket buffer and considered sent … the offset given back for each record will always be
      // set to -1" (https://kafka.apache.org/documentation/#producerconfigs_acks).
      return c.offset[i]! >= 0
        ? `${who} gets the ack of ${ev} (offset ${c.offset[i]})`
        : `${who} considers ${ev} sent without an ack (acks=0)`;
    case 'batch-failed':
      return `the producer gives up on ${formatCountOf(n, 'record')} (${ERROR_CODES[aux] ?? 'error'})`;
    case 'append':
      return `${who} appends ${n > 1 ? `${formatCountOf(n, 'record')} from ` : ''}${ev} at ${at(v, i)}`;
    case 'dedupe':
      return `${who} recognises a retried batch of ${ev} and does not append it again`;
    case 'reject': {
      // A client's own timeout: it refused nothing, it stopped waiting (and sends again).
      if (ERROR_CODES[aux] === 'REQUEST_TIMED_OUT')
        return `${who} gets no answer within request.timeout.ms (REQUEST_TIMED_OUT)`;
      // A broker process crash seen by its client (src/engine/connections.ts): the reset of an
      // open connection, or a connection attempt refused while it is down.
      const broker = c.peer[i]! >= 0 ? (v.actors[c.peer[i]!] ?? '?') : null;
      if (broker && ERROR_CODES[aux] === 'NETWORK_EXCEPTION')
        return n >= 0
          ? `${broker} crashed: ${who}'s connection to it closed and the request of ${ev} failed with NETWORK_EXCEPTION → retried after retry.backoff.ms, once connected again`
          : `${broker} crashed: ${who}'s connection to it closed and its fetch from ${at(v, i)} failed with NETWORK_EXCEPTION → fetched again once connected (to the new leader if it moved)`;
      // A new leader's high watermark behind its epoch's start (src/engine/broker/listOffsets.ts).
      if (ERROR_CODES[aux] === 'OFFSET_NOT_AVAILABLE')
        return `${broker ?? 'the new leader'} cannot yet answer ${who}'s ListOffsets for the latest offset of ${at(v, i).replace(/@.*/, '')}: its high watermark is behind the start of its leader epoch (OFFSET_NOT_AVAILABLE) → asked again after retry.backoff.ms`;
      if (broker && ERROR_CODES[aux] === 'CONNECTION_REFUSED')
        return `${who} cannot connect to ${broker}: connection refused (${broker} is down) → ${n >= 0 ? `the batch of ${ev} waits` : 'the fetch waits'}; next attempt after reconnect.backoff.ms`;
      return `${who} refuses a request (${ERROR_CODES[aux] ?? 'error'})`;
    }
    case 'hw':
      // A new leader starts from the high watermark it learned as a follower (aux 1).
      return aux === 1
        ? `high watermark of ${at(v, i).replace(/@.*/, '')} is ${c.offset[i]}: the new leader's own, learned as a follower a fetch round behind the old leader's; it moves again as its followers fetch`
        : `high watermark of ${at(v, i).replace(/@.*/, '')} moves to ${c.offset[i]}`;
    case 'truncate':
      return `${at(v, i)}: ${formatCountOf(n, 'record')} cut by a new leader`;
    case 'leader':
      return `new leader of ${at(v, i).replace(/@.*/, '')}: broker-${aux}`;
    case 'isr':
      return `broker-${aux} ${n === 1 ? 'rejoins' : 'leaves'} the ISR of ${at(v, i).replace(/@.*/, '')}`;
    case 'crash': {
      // The JobManager failing the job over after an expired checkpoint (no fault behind it).
      const why = failoverCause(c, i);
      if (why >= 0)
        return `${who} FAILS OVER: checkpoint ${c.ckpt[why]} expired, more failed checkpoints than execution.checkpointing.tolerable-failed-checkpoints`;
      if (fencedExit(c, i))
        return `${who} EXITS: its producer was fenced by a newer instance with the same transactional.id — it closes the producer and stops, the newer instance does its work`;
      return `${who} CRASHES`;
    }
    case 'restart':
      return `${who} restarts (incarnation ${aux})`;
    case 'stall':
      return `${who} stalls until ${c.until[i]} ms`;
    case 'fault': {
      // A fault without an id is a number the reader cannot find (an atlas placement added to a
      // Compare lane is "fault 2"): what it is follows. An id names it already.
      const f = v.scenario.faults[aux];
      return `${faultName(f, aux)} fires${f && !f.id ? ` (${describeFault(f)})` : ''}`;
    }
    case 'poll':
      return `${who} polls ${formatCountOf(n, 'record')} from ${at(v, i)}`;
    case 'process':
      // Flink's entries carry the keyed state (aux = key index, count = its count), not an attempt.
      if (who === 'flink')
        return `${who} processes ${ev} from ${at(v, i)} (its key's count is now ${n})`;
      return `${who} processes ${ev} from ${at(v, i)}${aux > 0 ? ` (incarnation ${aux})` : ''}`;
    case 'row-insert':
      return `${who} inserts a row for ${ev}`;
    case 'row-update':
      return `${who} updates the row of ${ev}${n === 1 ? '' : ' (same value)'}`;
    case 'row-skip':
      return `${who} skips ${ev} (${SKIP_REASONS[aux] ?? 'no-op'})`;
    case 'stmt-error':
      return `${who}: statement fails (${ERROR_CODES[aux] ?? 'error'}), ${formatCountOf(n, 'record')} rolled back`;
    case 'commit':
      return `offsets committed: ${at(v, i).replace(/@.*/, '')} → ${c.offset[i]}`;
    case 'commit-failed':
      if (ERROR_CODES[aux] === 'COMMIT_TIMEOUT')
        return `${who}'s commitSync gives up after default.api.timeout.ms (COMMIT_TIMEOUT)`;
      return `offset commit refused (${ERROR_CODES[aux] ?? 'error'})`;
    case 'assign':
      return `${who} is assigned ${at(v, i).replace(/@.*/, '')} from offset ${c.offset[i]}`;
    case 'revoke':
      return `${who} loses ${at(v, i)}`;
    case 'txn':
      return `transaction ${c.txn[i]}: ${TXN_STATES[aux] ?? 'state'}`;
    case 'marker':
      return `${aux === 1 ? 'commit' : 'abort'} marker of transaction ${c.txn[i]} at ${at(v, i)}`;
    case 'fenced':
      return `a producer is fenced (epoch ${aux})`;
    case 'checkpoint':
      // The database's side of the JDBC exactly-once sink (XA), by step.
      if (v.actors[c.actor[i]!] === 'sink') {
        const step = CHECKPOINT_STEPS[aux];
        const xid = `XA transaction ${c.txn[i]} of checkpoint ${c.ckpt[i]}`;
        if (step === 'pre-committed')
          return `${who}: PREPARE TRANSACTION — ${xid} holds ${formatCountOf(n, 'record')}, durable and invisible`;
        if (step === 'committed')
          return `${who}: COMMIT PREPARED — ${xid}, its rows become visible`;
        if (step === 'aborted')
          return c.until[i]! >= 0
            ? `${who}: ROLLBACK PREPARED — ${xid}, ${formatCountOf(n, 'record')} discarded`
            : `${who}: ROLLBACK — ${xid}, never prepared, ${formatCountOf(n, 'record')} discarded`;
      }
      if (CHECKPOINT_STEPS[aux] === 'idle') {
        const p = v.scenario.processor;
        const interval = p.type === 'flink' ? (p['execution.checkpointing.interval'] ?? 0) : 0;
        return `${who}: ${idleCheckpointsWords(firstIdleCheckpoint(c, i), c.ckpt[i]!, c.until[i]!, interval, c.offset[i]!)}`;
      }
      return CHECKPOINT_STEPS[aux] === 'source-position'
        ? `checkpoint ${c.ckpt[i]} holds the source at ${at(v, i)}`
        : `checkpoint ${c.ckpt[i]}: ${CHECKPOINT_STEPS[aux] ?? 'step'}`;
    case 'restore':
      return `${who}: ${restoreWords(v.actors[c.actor[i]!]!, c.ckpt[i]!, c.offset[i]!)}`;
    case 'batch-planned':
      return `micro-batch ${c.ckpt[i]} planned: ${formatCountOf(n, 'record')} from offset ${c.offset[i]}`;
    case 'batch-committed':
      return `micro-batch ${c.ckpt[i]} committed`;
    case 'effect':
      return `${who}: effect #${aux} for ${ev}`;
    case 'effect-replayed':
      return `${who} answers ${ev} from its idempotency store`;
    case 'data-loss':
      return `DATA LOSS: ${formatCountOf(n, 'record')} gone for good`;
    case 'end':
      return aux === END_TRACE_LIMIT
        ? 'the run is cut off: its trace reached its size limit'
        : aux === END_STOP
          ? 'the run is cut off'
          : 'nothing is left to happen: the run ends';
    case 'stream-dedupe':
      return aux === 1
        ? `${who} drops ${ev} as late: its event time is at or before the watermark (${c.until[i]} ms)`
        : `${who} drops ${ev}: its key is still in the dedupe state${who === 'flink' ? ` (until ${c.until[i]} ms)` : ''}`;
    case 'leave-group':
      return `${who}'s POLL TIMEOUT: its batch kept poll() waiting longer than max.poll.interval.ms; it drops out of the group — a static member, it stops heartbeating (no LeaveGroup) — and has no generation now (its next offset commit fails); the coordinator removes it at ${c.until[i]} ms unless it polls again first`;
  }
}
