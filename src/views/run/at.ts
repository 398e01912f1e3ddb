/**
 * Per-cursor derivations: what the dashboard shows at one moment of a run. Each is a binary search
 * plus a few reads of the arrays {@link toRunView} precomputed, so scrubbing a million-entry run
 * costs microseconds per panel.
 *
 * Cursor: `idx` = number of trace entries applied (0…n); `t` = virtual time in ms. Playing and
 * scrubbing set `t` and derive `idx = indexAtTime(view, t)`; stepping moves `idx` one entry and sets
 * `t` to that entry's time.
 */
import {
  effectiveIdempotence,
  normalizeAcks,
  STATE_BYTES_PER_KEY,
  type MessageType,
  type Scenario,
} from '../../engine';
import { targetNameOf } from './actors';
import { CK, K, messageTypeName } from './kinds';
import {
  MSG_BLOCK,
  REC,
  eventIdOf,
  type CheckpointView,
  type PartitionLogView,
  type ProcessorTrack,
  type RunView,
  type TableView,
} from './runView';
import { lastBefore, lowerBound, rowOf, upperBound, valueAt } from './steps';

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

/** What a consumer instance / job is doing at a cursor. */
export interface ProcessorStatus {
  actor: number;
  name: string;
  life: Life;
  /** Incarnation (0 at start, +1 per crash). */
  incarnation: number;
  /** Last poll: first offset and record count, or null. */
  lastPoll: { entry: number; partition: number; offset: number; count: number } | null;
  /** Records processed in the current poll batch so far. */
  processedInBatch: number;
  /** Last processed record: partition, offset and event, or null. */
  lastProcess: { entry: number; partition: number; offset: number; event: number } | null;
  /** Total records processed by this actor (attempts). */
  processed: number;
  /**
   * Records this incarnation processed since its last offset commit that the committed offsets do
   * not cover (what a crash now would replay). A consumer that commits before processing has
   * committed past what it then processes: those records are not counted — a crash skips them.
   */
  sinceCommit: number;
  /** Its last commit entry, or -1. */
  lastCommit: number;
  /** Offset (next to read) of the last processed record, per partition it read. */
  positions: Map<number, number>;
  /**
   * The consumer left its group at its poll timeout during the current batch (it has not polled
   * since): when (ms), and when the coordinator removes it unless it polls first (ms); else null.
   */
  leftGroup: { at: number; removeAt: number } | null;
}

/**
 * Records processed from entry `from` to `idx` whose offsets the processor's Kafka offset commits
 * before `idx` do not cover (offset ≥ the partition's committed offset, the next one to read).
 * Other commit kinds (a Spark commit-log entry, a checkpoint) cover everything before them.
 */
function uncoveredSince(
  v: RunView,
  processes: Int32Array,
  commits: Int32Array,
  from: number,
  idx: number,
): number {
  const c = v.cols;
  const first = lowerBound(processes, from);
  const end = lowerBound(processes, idx);
  // Committed offsets per partition: the latest Kafka commit of each, scanning back (bounded:
  // a member commits for the few partitions it owns).
  const committed = new Map<number, number>();
  for (let k = lowerBound(commits, idx) - 1, seen = 0; k >= 0 && seen < 64; k--, seen++) {
    const e = commits[k]!;
    if (c.kind[e] !== K.commit) continue;
    if (!committed.has(c.partition[e]!)) committed.set(c.partition[e]!, c.offset[e]!);
  }
  if (committed.size === 0) return end - first;
  let n = 0;
  for (let k = first; k < end; k++) {
    const e = processes[k]!;
    if (c.offset[e]! >= (committed.get(c.partition[e]!) ?? 0)) n++;
  }
  return n;
}

/**
 * Status of every processor actor at `idx`. A replacement instance (`<name>-replacement`, started
 * when the group removed a paused member) is left out until its first entry: before that it does
 * not exist — the group only starts it after `session.timeout.ms`.
 */
export function processorsAt(v: RunView, idx: number, t: number): ProcessorStatus[] {
  const c = v.cols;
  return v.processors
    .filter((p) => targetNameOf(p.name) === p.name || firstEntry(p) < idx)
    .map((p) => {
      const life = lifeAt(v, p.actor, idx, t);
      let incarnation = 0;
      const lifeList = rowOf(v.life, p.actor);
      for (let k = 0; k < lifeList.length && lifeList[k]! < idx; k++)
        if (c.kind[lifeList[k]!] === K.crash) incarnation++;
      const pe = lastBefore(p.polls, idx);
      const procCount = lowerBound(p.processes, idx);
      const lastProc = procCount > 0 ? p.processes[procCount - 1]! : -1;
      const inBatch = pe < 0 ? 0 : procCount - lowerBound(p.processes, pe);
      const lastCommit = lastBefore(p.commits, idx);
      // Since the later of its last commit and its last restart: what the previous incarnation
      // processed is being replayed already, not at risk again.
      let from = lastCommit;
      for (let k = lifeList.length - 1; k >= 0; k--) {
        const e = lifeList[k]!;
        if (e < idx && c.kind[e] === K.restart) {
          from = Math.max(from, e);
          break;
        }
      }
      const sinceCommit = uncoveredSince(v, p.processes, p.commits, from < 0 ? 0 : from, idx);
      const left = lastBefore(p.leaves, idx);
      const positions = new Map<number, number>();
      // Positions: scan back over the last processes (bounded) — enough for the partitions a
      // member owns at a time.
      for (let k = procCount - 1, seen = 0; k >= 0 && seen < 256; k--, seen++) {
        const e = p.processes[k]!;
        const part = c.partition[e]!;
        if (!positions.has(part)) positions.set(part, c.offset[e]! + 1);
      }
      return {
        actor: p.actor,
        name: p.name,
        life: life.life,
        incarnation,
        lastPoll:
          pe < 0
            ? null
            : {
                entry: pe,
                partition: c.partition[pe]!,
                offset: c.offset[pe]!,
                count: c.count[pe]!,
              },
        processedInBatch: inBatch,
        lastProcess:
          lastProc < 0
            ? null
            : {
                entry: lastProc,
                partition: c.partition[lastProc]!,
                offset: c.offset[lastProc]!,
                event: c.event[lastProc]!,
              },
        processed: procCount,
        sinceCommit,
        lastCommit,
        positions,
        leftGroup: left >= 0 && left > pe ? { at: c.time[left]!, removeAt: c.until[left]! } : null,
      };
    });
}

/** Status of a checkpoint at a cursor. */
type CheckpointStatus = 'in progress' | 'completed' | 'failed' | 'not yet';

/** One row of the checkpoint history table (Flink's web UI "Checkpoints → History"). */
export interface CheckpointRow {
  /** The checkpoint id; for checkpoints completed while the job was idle, the last of them. */
  id: number;
  /**
   * Checkpoints completed while the job was idle share one row: `firstId`..`id` (see
   * {@link idle}); `firstId` = `id` otherwise.
   */
  firstId: number;
  /**
   * True for the checkpoints triggered while the job had processed nothing since the last one:
   * Flink triggers them all the same, every `execution.checkpointing.interval`, and each completes
   * at once with the same positions and state. `triggeredAt` is the last one's; their duration is
   * not simulated (-1).
   */
  idle: boolean;
  status: CheckpointStatus;
  /**
   * Why a failed checkpoint failed: 'declined' (the task failed while it was in progress) or
   * 'expired' (not acknowledged within `execution.checkpointing.timeout`); null otherwise.
   */
  failure: 'declined' | 'expired' | null;
  /** Trigger time (ms). */
  triggeredAt: number;
  /** Completed − triggered (ms), or so far while in progress; -1 if unknown. */
  durationMs: number;
  /** Source position (next offset) the checkpoint holds, or -1 (the first input partition's). */
  offset: number;
  /** The position of every input partition in its snapshot (next offset), once taken. */
  offsets: { partition: number; offset: number }[];
  /**
   * Records of its epoch processed so far (the records it covers; with KafkaSink EXACTLY_ONCE,
   * those written in its sink transaction).
   */
  epochRecords: number;
  /** Keys in its state snapshot (once the task has taken it), or -1. */
  stateKeys: number;
  /** Size of that snapshot in bytes (the engine's STATE_BYTES_PER_KEY per key), or -1. */
  stateBytes: number;
  /** Sink transaction number linked to this checkpoint (EXACTLY_ONCE), or -1. */
  txn: number;
  /**
   * The sink transaction's state (KafkaSink EXACTLY_ONCE; 'none' for other sinks): 'open' while
   * its epoch's records go into it (before the pre-commit), 'pre-committed' until decided, then
   * 'committed'; 'timed out' when the broker aborted it after `transaction.timeout.ms` (or the
   * commit found it expired); 'aborted' otherwise (a failed checkpoint's transaction, aborted on
   * recovery).
   */
  txnStatus: 'none' | 'open' | 'pre-committed' | 'committed' | 'timed out' | 'aborted';
  /** Entry ids the row rests on (to highlight them). */
  entries: number[];
}

/**
 * Records of checkpoint `cp`'s epoch processed before `idx`: those the job processed after the
 * previous barrier (or the last restore, which discards what came before it: the job replays
 * those records) and before this checkpoint's barrier (or its failure, or the cursor).
 */
function epochRecordsAt(v: RunView, cp: CheckpointView, idx: number): number {
  const seen = (e: number) => e >= 0 && e < idx;
  const end = seen(cp.barrier) ? cp.barrier : seen(cp.failed) ? cp.failed : idx;
  let start = -1;
  for (const c of v.checkpoints)
    if (c.barrier >= 0 && c.barrier < end && c.barrier > start) start = c.barrier;
  const r = lowerBound(v.restores, end);
  if (r > 0) start = Math.max(start, v.restores[r - 1]!);
  return Math.max(0, lowerBound(v.stateUpdates, end) - lowerBound(v.stateUpdates, start + 1));
}

/**
 * The row of checkpoints completed while the job was idle, as far as the cursor has come: those
 * triggered by time `t` (one every `execution.checkpointing.interval` from the first), all of them
 * once their 'idle' entry is behind the cursor; null before the first. The engine accounts for
 * them when the job wakes up, but each was triggered and completed (with nothing new, at once) at
 * its own time, which is when Flink's history lists it.
 */
function idleRowAt(v: RunView, cp: CheckpointView, idx: number, t: number): CheckpointRow | null {
  const c = v.cols;
  const e = cp.idle;
  const p = v.scenario.processor;
  const interval = p.type === 'flink' ? (p['execution.checkpointing.interval'] ?? 0) : 0;
  const from = c.until[e]!;
  const n = cp.id - cp.firstId + 1;
  const k =
    e < idx
      ? n
      : t < from || interval <= 0
        ? 0
        : Math.min(n, Math.floor((t - from) / interval) + 1);
  if (k === 0) return null;
  const stateKeys = c.count[e]!;
  return {
    id: cp.firstId + k - 1,
    firstId: cp.firstId,
    idle: true,
    status: 'completed',
    failure: null,
    triggeredAt: from + (k - 1) * interval,
    durationMs: -1,
    offset: c.offset[e]!,
    offsets: cp.positions.map((x) => ({ partition: c.partition[x]!, offset: c.offset[x]! })),
    epochRecords: 0,
    stateKeys,
    stateBytes: stateKeys * STATE_BYTES_PER_KEY,
    txn: -1,
    txnStatus: 'none',
    entries: e < idx ? [e, ...cp.positions] : [],
  };
}

/** The checkpoint history at `idx` (checkpoints triggered by then), newest first. */
export function checkpointRowsAt(v: RunView, idx: number, t: number): CheckpointRow[] {
  const c = v.cols;
  const rows: CheckpointRow[] = [];
  const seen = (e: number) => e >= 0 && e < idx;
  const s = v.scenario;
  // A sink transaction per epoch: KafkaSink EXACTLY_ONCE, or the JDBC exactly-once (XA) sink.
  const xa = s.sink.type === 'table' && s.sink.xa === true;
  const twoPhase =
    s.processor.type === 'flink' &&
    ((s.sink.type === 'kafka' && s.sink.deliveryGuarantee === 'EXACTLY_ONCE') || xa);
  for (const cp of v.checkpoints as CheckpointView[]) {
    if (cp.idle >= 0) {
      const row = idleRowAt(v, cp, idx, t);
      if (row) rows.push(row);
      continue;
    }
    const first = cp.triggered >= 0 ? cp.triggered : cp.barrier;
    if (!seen(first)) continue;
    const triggeredAt = c.time[first]!;
    let status: CheckpointStatus = 'in progress';
    if (seen(cp.completed)) status = 'completed';
    else if (seen(cp.failed)) status = 'failed';
    const end = seen(cp.completed) ? cp.completed : seen(cp.failed) ? cp.failed : -1;
    const txn = seen(cp.preCommitted)
      ? c.txn[cp.preCommitted]!
      : seen(cp.txnEnd)
        ? c.txn[cp.txnEnd]!
        : -1;
    let txnStatus: CheckpointRow['txnStatus'] =
      txn >= 0 ? 'pre-committed' : twoPhase && status === 'in progress' ? 'open' : 'none';
    if (seen(cp.txnEnd))
      txnStatus =
        c.aux[cp.txnEnd] === CK.committed
          ? 'committed'
          : c.aux[cp.txnEnd] === CK.aborted
            ? 'aborted'
            : 'timed out';
    else if (seen(cp.txnTimeout)) txnStatus = 'timed out';
    // Kafka transactions end in the output log (XA ones only by the steps above).
    else if (txn >= 0 && !xa)
      for (const log of v.logs) {
        const end = log.txnEnd.get(txn);
        if (end && end.entry < idx) {
          txnStatus = end.commit ? 'committed' : 'aborted';
          break;
        }
      }
    const offsetEntry = seen(cp.completed) ? cp.completed : seen(cp.barrier) ? cp.barrier : -1;
    const stateKeys = offsetEntry >= 0 ? c.count[offsetEntry]! : -1;
    rows.push({
      id: cp.id,
      firstId: cp.id,
      idle: false,
      status,
      failure:
        status !== 'failed' ? null : c.aux[cp.failed] === CK.expired ? 'expired' : 'declined',
      triggeredAt,
      durationMs: end >= 0 ? c.time[end]! - triggeredAt : t - triggeredAt,
      offset: offsetEntry >= 0 ? c.offset[offsetEntry]! : -1,
      offsets: cp.positions
        .filter(seen)
        .map((e) => ({ partition: c.partition[e]!, offset: c.offset[e]! })),
      epochRecords: epochRecordsAt(v, cp, idx),
      stateKeys,
      stateBytes: stateKeys >= 0 ? stateKeys * STATE_BYTES_PER_KEY : -1,
      txn,
      txnStatus,
      entries: [
        cp.triggered,
        cp.barrier,
        cp.preCommitted,
        cp.completed,
        cp.txnEnd,
        cp.failed,
        cp.txnTimeout,
        ...cp.positions,
      ].filter(seen),
    });
  }
  return rows.reverse();
}

/** One row of the micro-batch list (Spark's offset log and commit log). */
export interface BatchRow {
  id: number;
  plannedAt: number;
  /** First offset and record count of the batch. */
  offset: number;
  records: number;
  status: 'planned' | 'committed';
  committedAt: number;
}

/** Micro-batches planned by `idx`, newest first. */
export function batchRowsAt(v: RunView, idx: number): BatchRow[] {
  const c = v.cols;
  const out: BatchRow[] = [];
  for (const b of v.batches) {
    if (b.planned < 0 || b.planned >= idx) continue;
    const done = b.committed >= 0 && b.committed < idx;
    out.push({
      id: b.id,
      plannedAt: c.time[b.planned]!,
      offset: c.offset[b.planned]!,
      records: c.count[b.planned]!,
      status: done ? 'committed' : 'planned',
      committedAt: done ? c.time[b.committed]! : -1,
    });
  }
  return out.reverse();
}

/** The last `max` operator state updates by `idx`: key index and the key's new count. */
export function stateUpdatesAt(
  v: RunView,
  idx: number,
  max = 8,
): { entry: number; key: number; count: number; event: number }[] {
  const c = v.cols;
  const k = lowerBound(v.stateUpdates, idx);
  const out = [];
  for (let q = k - 1; q >= 0 && out.length < max; q--) {
    const e = v.stateUpdates[q]!;
    out.push({ entry: e, key: c.aux[e]!, count: c.count[e]!, event: c.event[e]! });
  }
  return out;
}

/** Fate of a business event at a cursor: final once the run is over. */
export type LiveFate = 'pending' | 'once' | 'duplicated' | 'lost';

/** One business event in the per-event ledger. */
export interface LedgerRow {
  identity: number;
  id: string;
  amount: number;
  /** Log records carrying it so far (input and output topics): topic, partition, offset. */
  records: { topic: number; partition: number; offset: number; status: CellStatus }[];
  /** Times processed so far. */
  processed: number;
  /** Rows at the primary table so far (or effects). */
  rows: number;
  /** Checkpoint that covers its (first) record, if any. */
  checkpoint: number;
  fate: LiveFate;
  /** The final fate (0 lost, 1 once, 2 duplicated). */
  finalFate: number;
  /**
   * End-to-end latency (virtual ms, first send → first effect at the primary point) once that
   * effect is applied at the cursor; -1 before, and for an event that never takes effect.
   */
  latencyMs: number;
}

/** The ledger row of identity `j` at `idx`. */
export function ledgerRowAt(v: RunView, j: number, idx: number): LedgerRow {
  const c = v.cols;
  const records: LedgerRow['records'] = [];
  for (const g of rowOf(v.logVersionsByIdentity, j)) {
    const li = upperBound(v.logBase, g) - 1;
    const log = v.logs[li]!;
    const ver = g - v.logBase[li]!;
    if (!(log.addedAt[ver]! < idx && log.removedAt[ver]! >= idx)) continue;
    const cell = cellAt(v, log, log.offset[ver]!, idx);
    if (cell)
      records.push({
        topic: log.topic,
        partition: log.partition,
        offset: cell.offset,
        status: cell.status,
      });
  }
  let processed = 0;
  for (const e of rowOf(v.byIdentity, j)) {
    if (e >= idx) break;
    if (c.kind[e] === K.process && v.processors.some((p) => p.actor === c.actor[e])) processed++;
  }
  let rows = 0;
  const primaryTopic = v.verdict.primary.startsWith('log:')
    ? v.topics.indexOf(v.verdict.primary.slice('log:'.length))
    : -1;
  if (v.primaryTable >= 0) {
    const tb = v.tables[v.primaryTable]!;
    for (const r of rowOf(tb.byIdentity, j)) if (tb.insertedAt[r]! < idx && !tb.reread[r]) rows++;
  } else if (primaryTopic >= 0) {
    // The end of the pipeline is a topic nobody reads here: its records, as the checker counts
    // them (every record in the log, an aborted transaction's included).
    for (const r of records) if (r.topic === primaryTopic) rows++;
  } else {
    const service = v.actors.indexOf('service');
    for (const e of rowOf(v.byIdentity, j)) {
      if (e >= idx) break;
      if (c.kind[e] === K.effect && c.actor[e] === service) rows++;
    }
  }
  let checkpoint = -1;
  const inputTopic = v.topics.indexOf(v.scenario.workload.topic);
  const firstInput = records.find((r) => r.topic === inputTopic);
  if (firstInput) {
    // The first completed checkpoint whose position on the record's partition is past it.
    const { partition, offset: o } = firstInput;
    for (const cp of v.checkpoints) {
      // Idle checkpoints count too: after an expired one, the first of them may be the first
      // completed checkpoint that holds the record.
      const done = cp.completed >= 0 ? cp.completed : cp.idle;
      if (done < 0 || done >= idx) continue;
      let pos = -1;
      for (const e of cp.positions) if (c.partition[e] === partition) pos = c.offset[e]!;
      // A trace without per-partition positions: the completed entry's (the first partition's).
      if (cp.positions.length === 0 && partition === 0) pos = c.offset[done]!;
      if (pos > o) {
        checkpoint = cp.firstId;
        break;
      }
    }
  }
  const final = idx >= v.n;
  const fate: LiveFate =
    rows >= 2 ? 'duplicated' : rows === 1 ? 'once' : final ? 'lost' : 'pending';
  // Live, like `fate`: the latency is shown from its first effect on, never ahead of the cursor.
  const visibleAt = v.verdict.visibleAt[j]!;
  return {
    identity: j,
    id: eventIdOf(v.events, j),
    amount: v.events.identityAmount[j]!,
    records: records.sort(
      (a, b) => a.topic - b.topic || a.partition - b.partition || a.offset - b.offset,
    ),
    processed,
    rows,
    checkpoint,
    fate,
    finalFate: v.verdict.fate[j]!,
    latencyMs: visibleAt >= 0 && visibleAt < idx ? v.verdict.latencyOf[j]! : -1,
  };
}

/** Entries carrying identity `j` up to `idx` (for the "trace of the selected event" list). */
export function entriesOfIdentity(v: RunView, j: number, idx: number): Int32Array {
  const all = rowOf(v.byIdentity, j);
  return all.subarray(0, lowerBound(all, idx));
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

/** The first trace entry a processor track holds (assignment, poll, process, life), or +∞. */
function firstEntry(p: ProcessorTrack): number {
  let first = Infinity;
  for (const list of [p.assigns, p.polls, p.processes, p.life, p.commits, p.leaves])
    if (list.length > 0 && list[0]! < first) first = list[0]!;
  return first;
}
