/**
 * Per-cursor derivations: what the dashboard shows at one moment of a run. Each is a binary search
 * plus a few reads of the arrays {@link toRunView} precomputed, so scrubbing a million-entry run
 * costs microseconds per panel.
 *
 * Cursor: `idx` = number of trace entries applied (0…n); `t` = virtual time in ms. Playing and
 * scrubbing set `t` and derive `idx = indexAtTime(view, t)`; stepping moves `idx` one entry and sets
 * `t` to that entry's time.
 */
import { effectiveIdempotence, normalizeAcks, type MessageType, type Scenario } from '../../engine';
import { K, messageTypeName } from './kinds';
import {
  MSG_BLOCK,
  REC,
  eventIdOf,
  type PartitionLogView,
  type RunView,
  type TableView,
} from './runView';
import { lastBefore, lowerBound, rowOf, upperBound, valueAt } from './steps';

export {
  batchRowsAt,
  checkpointRowsAt,
  processorsAt,
  stateUpdatesAt,
  type CheckpointRow,
  type ProcessorStatus,
} from './processorAt';
export { entriesOfIdentity, ledgerRowAt, type LiveFate } from './ledgerAt';

/** Number of trace entries with time ≤ t. */
export function indexAtTime(v: RunView, t: number): number {
  return upperBound(v.cols.time, t);
}

/** Time of the cursor after applying `idx` entries (0 before the first). */
export function timeAtIndex(v: RunView, idx: number): number {
  return idx <= 0 ? 0 : v.cols.time[Math.min(idx, v.n) - 1]!;
}

/** The counters shown at a cursor. Amounts in the workload's currency units. */
export interface Counters {
  /** Business events (distinct ids) in the workload. */
  events: number;
  /** Business events the application has sent so far. */
  sent: number;
  /**
   * Σ amount of the business events sent so far, plus the table's pre-existing rows: what `sum`
   * should be with exactly those in.
   */
  sentAmount: number;
  /** Rows the sink table holds from before the run under ids no event has (they stay). */
  preexistingRows: number;
  /** Rows the point should hold with the events sent so far (and those from before the run). */
  expectedRows: number;
  /** Rows (records, effects) at the primary point. */
  rows: number;
  /** Duplicate rows: Σ max(rows − 1, 0). */
  duplicates: number;
  /** Events with no row yet — lost once the run is over (`final`). */
  missing: number;
  /** Events applied twice or more. */
  doubleCounted: number;
  sum: number;
  trueSum: number;
  /** Σ amount applied more than once. */
  doubleAmount: number;
  /** Σ amount of events with no row yet. */
  missingAmount: number;
  /** Records processed by the processor (attempts). */
  processed: number;
  /** True once every entry is applied: `missing` is then final ("lost"). */
  final: boolean;
}

/** Counters at cursor `idx`. */
export function countersAt(v: RunView, idx: number): Counters {
  const i = Math.max(0, Math.min(idx, v.n));
  const p = v.prefix;
  return {
    events: v.events.identities,
    sent: p.sent[i]!,
    sentAmount: p.sentAmount[i]! + v.events.preexisting.untouchedSum,
    preexistingRows: v.events.preexisting.rows,
    expectedRows: p.expectedRows[i]! + v.events.preexisting.rows,
    rows: p.rows[i]!,
    duplicates: p.duplicates[i]!,
    missing: p.missing[i]!,
    doubleCounted: p.doubleCounted[i]!,
    sum: p.sum[i]!,
    trueSum: v.events.trueSum + v.events.preexisting.sum,
    doubleAmount: p.doubleAmount[i]!,
    missingAmount: p.missingAmount[i]!,
    processed: p.processed[i]!,
    final: i >= v.n,
  };
}

/** A partition's markers at a cursor. */
export interface PartitionMarks {
  /** Log end offset. */
  leo: number;
  /** High watermark: below it every in-sync replica has the record. */
  hw: number;
  /** Last stable offset: read_committed readers stop here. */
  lso: number;
  /** Committed offset (next to read) of each group, -1 before its first commit. */
  commits: { group: string; offset: number }[];
  /** Leader broker number, -1 when offline. */
  leader: number;
}

/** HW, LSO, LEO and committed offsets of a partition at `idx`. */
export function partitionAt(log: PartitionLogView, idx: number): PartitionMarks {
  return {
    leo: valueAt(log.leo, idx, 0),
    hw: valueAt(log.hw, idx, 0),
    lso: valueAt(log.lso, idx, 0),
    commits: log.commits.map((c) => ({ group: c.group, offset: valueAt(c.steps, idx, -1) })),
    leader: valueAt(log.leader, idx, log.leader0),
  };
}

/**
 * What the source application and its producer have done by a cursor, in records (Kafka's
 * producer metrics count records too: record-send-total, record-retry-total, record-error-total),
 * never in batches: with `linger.ms` one acknowledgement covers several records.
 */
export interface ProducerCounts {
  /** Business events handed to send() for the first time. */
  sent: number;
  /** Sends of an event again by the application (app-resend, source duplicate, transaction re-send). */
  resent: number;
  /** Records in batches the producer re-sent itself after an error or a timeout. */
  retries: number;
  /** Records whose batch succeeded (with acks=0: completed without any response). */
  acks: number;
  /** Records the producer gave up on, or whose send the application stopped waiting for. */
  failures: number;
  /** Records of retried batches the broker recognised (idempotence) and did not append again. */
  dedupes: number;
}

/** The records counted by the first `lowerBound(at, idx)` entries of a batch kind. */
function recordsAt(at: Int32Array, total: Int32Array, idx: number): number {
  const j = lowerBound(at, idx);
  return j > 0 ? total[j - 1]! : 0;
}

/** Producer counts at `idx`. */
export function producerAt(v: RunView, idx: number): ProducerCounts {
  const p = v.producer;
  return {
    sent: lowerBound(p.sends, idx),
    resent: lowerBound(p.resends, idx),
    retries: recordsAt(p.retries, p.retryRecords, idx),
    acks: recordsAt(p.acks, p.ackRecords, idx),
    failures: recordsAt(p.failures, p.failedRecords, idx),
    dedupes: recordsAt(p.dedupes, p.dedupeRecords, idx),
  };
}

/**
 * Status of a log cell. `data`: readable by everyone (below the HW, no transaction or a committed
 * one). `above-hw`: written by the leader, not yet on every in-sync replica. `open-txn`: in a
 * transaction not yet decided (read_committed readers wait). `aborted`: in an aborted transaction
 * (read_committed readers skip it). Markers are transaction control records.
 */
export type CellStatus =
  'data' | 'above-hw' | 'open-txn' | 'aborted' | 'commit-marker' | 'abort-marker';

/** One offset of a partition log at a cursor. */
export interface Cell {
  offset: number;
  /** Record version (index into the log's columns). */
  version: number;
  /** Workload event, -1 for a marker. */
  event: number;
  /** Identity (business id index), -1 for a marker. */
  identity: number;
  txn: number;
  status: CellStatus;
  /** The 'append' / 'marker' entry that wrote it. */
  entry: number;
}

/** The record at `offset` of a partition at `idx`, or null if the log does not reach it. */
export function cellAt(
  v: RunView,
  log: PartitionLogView,
  offset: number,
  idx: number,
  hw = valueAt(log.hw, idx, 0),
): Cell | null {
  if (offset < 0 || offset >= log.headVersion.length) return null;
  let ver = log.headVersion[offset]!;
  while (ver >= 0 && !(log.addedAt[ver]! < idx && log.removedAt[ver]! >= idx))
    ver = log.prevVersion[ver]!;
  if (ver < 0) return null;
  const flags = log.flags[ver]!;
  const txn = log.txn[ver]!;
  const event = log.event[ver]!;
  let status: CellStatus;
  if (flags === REC.commitMarker) status = 'commit-marker';
  else if (flags === REC.abortMarker) status = 'abort-marker';
  else {
    const end = txn >= 0 ? log.txnEnd.get(txn) : undefined;
    if (end && end.entry < idx && !end.commit) status = 'aborted';
    else if (txn >= 0 && !(end && end.entry < idx)) status = 'open-txn';
    else status = offset < hw ? 'data' : 'above-hw';
  }
  return {
    offset,
    version: ver,
    event,
    identity: event >= 0 ? v.events.identity[event]! : -1,
    txn,
    status,
    entry: log.addedAt[ver]!,
  };
}

/** A message in flight at a cursor: an animated token. */
export interface Token {
  /** The 'msg' / 'msg-lost' entry. */
  entry: number;
  type: MessageType | 'message';
  /** Sender and receiver actor indices. */
  from: number;
  to: number;
  /** 0 at the sender, 1 at the receiver. */
  progress: number;
  /** Lost on the way (dropped by a fault or a dead receiver). */
  lost: boolean;
  /** First workload event carried, -1 if none. */
  event: number;
  /** Records carried (-1 if not a data message). */
  count: number;
  partition: number;
  /** Sent at / would arrive at (ms). */
  sentAt: number;
  until: number;
}

/** Whether a message type travels back towards its sender's request (an ack or response). */
export function isResponse(type: MessageType | 'message'): boolean {
  return type.endsWith('-response') || type === 'checkpoint-ack';
}

/**
 * Messages in flight at time `t` among the first `idx` entries (time ≤ t < until). A lost message
 * stays visible until it would have arrived, so the loss can be seen (and clicked). At the end of
 * the run nothing is in flight: a message sent at the last moment would arrive after the run
 * stopped — it never arrives, and a token left hanging over its sender would say otherwise.
 * @param out - reused array (cleared first), to spare the garbage collector 60 times a second.
 * @param max - cap on the number of tokens returned.
 */
export function tokensAt(
  v: RunView,
  t: number,
  idx: number,
  out: Token[] = [],
  max = 5000,
): Token[] {
  out.length = 0;
  if (t >= v.endTime && idx >= v.n) return out;
  const c = v.cols;
  const msgs = v.msgs;
  const q = lowerBound(msgs, idx);
  if (q === 0) return out;
  for (let b = Math.floor((q - 1) / MSG_BLOCK); b >= 0 && out.length < max; b--) {
    if (v.msgBlockUntil[b]! <= t) continue;
    const end = Math.min(q, (b + 1) * MSG_BLOCK);
    for (let k = end - 1; k >= b * MSG_BLOCK; k--) {
      const i = msgs[k]!;
      const until = c.until[i]!;
      const sent = c.time[i]!;
      if (until <= t || sent > t) continue;
      out.push({
        entry: i,
        type: messageTypeName(c.aux[i]!),
        from: c.actor[i]!,
        to: c.peer[i]!,
        progress: until > sent ? (t - sent) / (until - sent) : 1,
        lost: c.kind[i] === K['msg-lost'],
        event: c.event[i]!,
        count: c.count[i]!,
        partition: c.partition[i]!,
        sentAt: sent,
        until,
      });
      if (out.length >= max) break;
    }
  }
  return out;
}

/** Rows of a table present at `idx`. Rows are in insertion order, initial rows first. */
export function rowsAt(tb: TableView, idx: number): number {
  return lowerBound(tb.insertedAt, idx);
}

/** Amount of row `r` at `idx` (after the updates applied by then). */
export function rowAmountAt(tb: TableView, r: number, idx: number): number {
  const s = tb.updStart[r]!;
  const e = tb.updStart[r + 1]!;
  const k = lowerBound(tb.updEntry, idx, s, e);
  return k === s ? tb.amount0[r]! : tb.updAmount[k - 1]!;
}

/** Number of updates applied to row `r` by `idx`. */
export function rowUpdatesAt(tb: TableView, r: number, idx: number): number {
  const s = tb.updStart[r]!;
  return lowerBound(tb.updEntry, idx, s, tb.updStart[r + 1]!) - s;
}

/** Where a table row came from: `partition@offset`, or `initial` for a row the table started with. */
export function rowSource(tb: TableView, r: number): string {
  return tb.partition[r]! >= 0 ? `${tb.partition[r]}@${tb.offset[r]}` : 'initial';
}

const sourceWidths = new WeakMap<TableView, number>();

/**
 * Characters of the longest {@link rowSource} over the whole run: the column is sized to it once,
 * so it does not jump as rows arrive.
 */
export function sourceChars(tb: TableView): number {
  let n = sourceWidths.get(tb);
  if (n === undefined) {
    n = 1;
    for (let r = 0; r < tb.partition.length; r++) n = Math.max(n, rowSource(tb, r).length);
    sourceWidths.set(tb, n);
  }
  return n;
}

/** Business id of a table row (its event's id, or the initial row's label). */
export function rowId(v: RunView, tb: TableView, r: number): string {
  const e = tb.event[r]!;
  return e >= 0 ? eventIdOf(v.events, v.events.identity[e]!) : (tb.initialLabels[r] ?? '?');
}

/** Identity of a table row, or -1. */
export function rowIdentity(v: RunView, tb: TableView, r: number): number {
  const e = tb.event[r]!;
  if (e >= 0) return v.events.identity[e]!;
  const label = tb.initialLabels[r];
  if (label === undefined) return -1;
  if (v.events.ids) return v.events.ids.indexOf(label);
  return -1;
}

/**
 * Whether an actor is up, down, stalled or restarting at `idx`. Restarting: a job (Flink, Spark)
 * between its `restart` and the `restore` of its state — waiting out its restart delay (Flink's
 * RESTARTING), not processing yet.
 */
export type Life = 'up' | 'down' | 'stalled' | 'restarting';

/** An actor's life at a cursor: up / down (crashed, not restarted) / stalled (paused) / restarting. */
export function lifeAt(
  v: RunView,
  actor: number,
  idx: number,
  t: number,
): { life: Life; since: number; entry: number } {
  if (actor < 0) return { life: 'up', since: 0, entry: -1 };
  const list = rowOf(v.life, actor);
  const e = lastBefore(list, idx);
  if (e < 0) return { life: 'up', since: 0, entry: -1 };
  const k = v.cols.kind[e]!;
  if (k === K.crash) return { life: 'down', since: v.cols.time[e]!, entry: e };
  if (k === K.stall && v.cols.until[e]! > t)
    return { life: 'stalled', since: v.cols.time[e]!, entry: e };
  // A job restores its state after each restart; a consumer never restores (it is up at once).
  if (k === K.restart && restores(v, actor) && !restoredBy(v, actor, e, idx))
    return { life: 'restarting', since: v.cols.time[e]!, entry: e };
  return { life: 'up', since: v.cols.time[e]!, entry: e };
}

/** Whether `actor` restores its state at any point of the run (a Flink or Spark job does). */
function restores(v: RunView, actor: number): boolean {
  for (let k = 0; k < v.restores.length; k++)
    if (v.cols.actor[v.restores[k]!] === actor) return true;
  return false;
}

/** Whether `actor` restored its state at an entry after `e` and before `idx`. */
function restoredBy(v: RunView, actor: number, e: number, idx: number): boolean {
  for (let k = lowerBound(v.restores, e + 1); k < v.restores.length; k++) {
    const r = v.restores[k]!;
    if (r >= idx) return false;
    if (v.cols.actor[r] === actor) return true;
  }
  return false;
}

/** The producer's delivery settings as shown: acks, and whether idempotence is on (and why). */
export function producerSettings(s: Scenario): {
  acks: string;
  idempotence: string;
  idempotent: boolean;
} {
  const acks = normalizeAcks(s.producer.acks);
  const on = effectiveIdempotence(s.producer);
  const set = s.producer['enable.idempotence'];
  const why =
    s.producer['transactional.id'] !== undefined
      ? 'on (transactional)'
      : set !== undefined
        ? on
          ? 'on'
          : 'off'
        : on
          ? 'on (default)'
          : 'off (silently: acks≠all or retries=0)';
  return { acks, idempotence: why, idempotent: on };
}

/** Effects of the external service by `idx`: how many, their sum, and the last few entries. */
export function effectsAt(
  v: RunView,
  idx: number,
  last = 6,
): { count: number; sum: number; recent: number[] } {
  const n = lowerBound(v.effects, idx);
  let sum = 0;
  for (let q = 0; q < n; q++) sum += v.events.amount[v.cols.event[v.effects[q]!]!]!;
  const recent: number[] = [];
  for (let q = n - 1; q >= 0 && recent.length < last; q--) recent.push(v.effects[q]!);
  return { count: n, sum, recent };
}
