/**
 * The producer client's record accumulator: records gather into one batch per partition until
 * `batch.size` bytes or `linger.ms`, a batch fails once `delivery.timeout.ms` has passed since it
 * opened, and each record's outcome is told to its callback and to the owner's listener. Sending
 * the batches is {@link ClientRequests}'s, transactions are {@link ProducerClient}'s (client.ts).
 * https://kafka.apache.org/documentation/#producerconfigs
 */
import type { Actor, PendingWork, Timer, World } from './world';
import type { Cluster, Topic, TxnRecord } from './broker/cluster';
import { errorIndex } from './broker/cluster';
import type { ErrorCode } from './trace';
import type { ClientConfig } from './clientConfig';
import { Int32Arena } from './core/arena';
import { run, type Callback } from './core/call';
import { writeAck, writeBatchFailed, writeFenced } from './traceWriters';
import { NO_ENTRY, type EntryId, type EventId } from './ids';

/** Outcome callback of one record: ok, the error, the entry that settled it, the record's offset (-1 unknown). */
type SendCallback = (ok: boolean, error: ErrorCode, cause: EntryId, offset: number) => void;

/**
 * Who hears a record's outcome, held as data: an object whose class has this method (the owner
 * itself, say), which a snapshot copies with it — unlike a {@link SendCallback} closure.
 */
export interface RecordListener {
  recordSettled(
    event: EventId,
    sendEntry: EntryId,
    ok: boolean,
    error: ErrorCode,
    cause: EntryId,
    offset: number,
  ): void;
}

/** A record's callback: a listener (data) or, until every caller is converted, a closure. */
export type RecordCallback = RecordListener | SendCallback;

/** Tell `cb` a record's outcome. */
function tell(
  cb: RecordCallback,
  event: EventId,
  sendEntry: EntryId,
  ok: boolean,
  error: ErrorCode,
  cause: EntryId,
  offset: number,
): void {
  if (typeof cb === 'function') cb(ok, error, cause, offset);
  else cb.recordSettled(event, sendEntry, ok, error, cause, offset);
}

/** The owner's listener of every record: a listener, or a closure of the record's fields. */
export type RecordHook =
  | RecordListener
  | ((event: EventId, sendEntry: EntryId, ok: boolean, error: ErrorCode, cause: EntryId) => void);

/** Tell the owner's listener a record's outcome. */
function hear(
  hook: RecordHook,
  event: EventId,
  sendEntry: EntryId,
  ok: boolean,
  error: ErrorCode,
  cause: EntryId,
  offset: number,
): void {
  if (typeof hook === 'function') hook(event, sendEntry, ok, error, cause);
  else hook.recordSettled(event, sendEntry, ok, error, cause, offset);
}

/** A batch of records for one partition. */
export interface Batch {
  id: number;
  partition: number;
  /**
   * The records' one column, with room for `room` records (doubled when full): their workload
   * events at `records[0..n)`, the entries that sent them at `records[room..room + n)`. One slice
   * of the client's arena, handed to the request as it is — no per-record boxed slots, no copy
   * per attempt, and no view per column nor per request (a typed array view was a few per cent
   * of a fault atlas's allocation).
   */
  records: Int32Array;
  room: number;
  /** Records in the batch. */
  n: number;
  bytes: number;
  firstSeq: number;
  epoch: number;
  txn: number;
  createdAt: number;
  attempts: number;
  attemptId: number;
  inflightTo: number;
  /**
   * Its last attempt ended with no answer (timed out, connection closed): the broker may have
   * written it. Cleared by the next answer (appended, duplicate, or refused).
   */
  unanswered: boolean;
  closed: boolean;
  done: boolean;
  notBefore: number;
  cause: EntryId;
  /** Per-record callbacks, by position in the batch (sparse); null until the first (most have none). */
  callbacks: (RecordCallback | undefined)[] | null;
  /** Its delivery.timeout.ms timer, cancelled once the batch is done. */
  deliveryTimer: Timer | null;
}

/** A producer client's batches and their outcomes (see {@link ProducerClient}). */
export abstract class ClientBatches {
  pid = -1;
  epoch = 0;
  /** True once InitProducerId / initTransactions answered (or at once for a plain producer). */
  ready = false;
  /** Set when the client hit a fatal error (fenced): it refuses further work. */
  fatalError: ErrorCode | null = null;
  /** The 'fenced' entry of the fatal error, -1 before one. */
  fatalEntry = NO_ENTRY;
  /** Between beginTransaction() and the end of the transaction. */
  inTransaction = false;
  /** The coordinator's record of the open transaction: created by the first send or offsets in it. */
  txn: TxnRecord | null = null;
  protected readonly partitionOfKey: Int32Array;
  protected nextSeq: number[];
  /** Per partition, the last sequence acknowledged in its epoch, -1 for none (Kafka's lastAckedSequence). */
  protected lastAckedSeq: number[];
  /**
   * Per partition, the epoch its sequence numbers belong to (Kafka's TxnPartitionEntry
   * producerIdAndEpoch). An idempotent producer's epoch bump renumbers only the partition that
   * caused it; another partition stays on its epoch until its batches in flight are resolved
   * (see `toCurrentEpoch`).
   */
  protected seqEpoch: number[];
  protected open: (Batch | null)[];
  protected queues: Batch[][];
  protected batchIds = 0;
  /**
   * The room a new batch starts with: the most records a batch of this client has closed with
   * (at least 16). Batch sizes vary with the send rate around linger.ms: sized on the last one,
   * a batch had to grow every other time.
   */
  protected batchRoom = 16;
  /** Where batches take their columns from (a batch's columns die with it). */
  protected readonly arena = new Int32Arena();

  /** Double a full batch's room. */
  private growBatch(b: Batch): void {
    const room = b.room * 2;
    const records = this.arena.take(room * 2);
    records.set(b.records.subarray(0, b.n));
    records.set(b.records.subarray(b.room, b.room + b.n), room);
    b.records = records;
    b.room = room;
  }
  protected pendingRecords = 0;
  private flushWaiters: Callback[] = [];
  /** Whether a record of the current transaction failed (the transaction must abort). */
  txnError: ErrorCode | null = null;
  /**
   * Called for every record's outcome (after `cb`, if one was given), so an owner that follows
   * every record needs no closure per record.
   */
  onRecord: RecordHook | null = null;
  /** In flight per broker number: requests sent and not answered. */
  protected readonly inflight = new Map<number, number>();

  constructor(
    protected readonly owner: Actor,
    protected readonly cluster: Cluster,
    readonly topic: Topic,
    readonly cfg: ClientConfig,
  ) {
    const n = topic.partitions.length;
    this.partitionOfKey = owner.world.keyPartitions(n);
    this.nextSeq = new Array<number>(n).fill(0);
    this.lastAckedSeq = new Array<number>(n).fill(-1);
    this.seqEpoch = new Array<number>(n).fill(0);
    this.open = new Array<Batch | null>(n).fill(null);
    // A loop, not Array.from with a callback: a Flink job opens a producer per checkpoint.
    this.queues = [];
    for (let p = 0; p < n; p++) this.queues.push([]);
  }

  protected get world(): World {
    return this.owner.world;
  }

  /** The partition a workload event's key maps to (Kafka's murmur2 partitioner). */
  partitionOf(event: EventId): number {
    return this.partitionOfKey[this.world.events.keyIndex[event]!]!;
  }

  /** Records sent and not yet settled. */
  get pending(): number {
    return this.pendingRecords;
  }

  /**
   * What the client still waits for when the run ends (src/engine/stuck.ts): acknowledgements of
   * records it sent, or its producer id (an InitProducerId never answered); null when none. A
   * client fenced or otherwise failed for good (`fatalError`) waits for nothing.
   */
  pendingWork(): PendingWork | null {
    if (this.fatalError !== null) return null;
    const topic = this.topic.name;
    if (this.pendingRecords > 0)
      return {
        what: `the acknowledgement of ${this.pendingRecords} record(s) it sent to ${topic}`,
        since: -1,
      };
    if (!this.ready) return { what: 'its producer id (InitProducerId never answered)', since: -1 };
    return null;
  }

  /** Send every ready batch the in-flight limit allows, each partition in order. */
  abstract drain(): void;

  /** The coordinator's record of the current transaction, registering it on first use. */
  protected abstract ensureTxn(cause: EntryId, api?: number): TxnRecord | null;

  /** `send(record)`: add the event's record to its partition's open batch. */
  send(event: EventId, sendEntry: EntryId, cb: RecordCallback | null = null): void {
    const w = this.world;
    if (this.fatalError || (this.inTransaction && !this.ensureTxn(sendEntry))) {
      const err = this.fatalError ?? 'PRODUCER_FENCED';
      if (cb) tell(cb, event, sendEntry, false, err, sendEntry, -1);
      if (this.onRecord) hear(this.onRecord, event, sendEntry, false, err, sendEntry, -1);
      return;
    }
    const p = this.partitionOf(event);
    const bytes = w.scenario.workload.recordBytes;
    let b = this.open[p] ?? null;
    if (b && b.bytes + bytes > this.cfg.batchSize) {
      this.closeBatch(b);
      b = null;
    }
    if (!b) b = this.newBatch(p, sendEntry);
    if (b.n === b.room) this.growBatch(b);
    b.records[b.n] = event;
    b.records[b.room + b.n] = sendEntry;
    b.n++;
    b.bytes += bytes;
    if (cb) (b.callbacks ??= [])[b.n - 1] = cb;
    this.pendingRecords++;
    // Only a closed batch can be sent: drain when one closes (the linger timer drains too).
    if (b.bytes >= this.cfg.batchSize || this.cfg.lingerMs === 0) {
      this.closeBatch(b);
      this.drain();
    }
  }

  private newBatch(p: number, cause: EntryId): Batch {
    const w = this.world;
    const b: Batch = {
      id: ++this.batchIds,
      partition: p,
      // Room for as many records as the client's biggest batch so far (batch.size bounds it):
      // a batch rarely grows.
      records: this.arena.take(this.batchRoom * 2),
      room: this.batchRoom,
      n: 0,
      bytes: 0,
      firstSeq: -1,
      epoch: this.epoch,
      txn: this.txn?.no ?? -1,
      createdAt: w.now,
      attempts: 0,
      attemptId: 0,
      inflightTo: -1,
      unanswered: false,
      closed: false,
      done: false,
      notBefore: 0,
      cause,
      callbacks: null,
      deliveryTimer: null,
    };
    this.open[p] = b;
    // Timers held as data (a method and its batch), so a snapshot of the run can copy them.
    if (this.cfg.lingerMs > 0)
      w.scheduleCall(this.cfg.lingerMs, this.owner, this, this.lingerOver, b);
    b.deliveryTimer = w.scheduleCall(
      this.cfg.deliveryTimeoutMs,
      this.owner,
      this,
      this.deliveryTimedOut,
      b,
    );
    return b;
  }

  /** `linger.ms` after a batch opened: it closes and may be sent. */
  private lingerOver(b: Batch): void {
    if (!b.closed) {
      this.closeBatch(b);
      this.drain();
    }
  }

  /** `delivery.timeout.ms` after a batch opened: it fails unless it is done. */
  private deliveryTimedOut(b: Batch): void {
    if (!b.done) this.failBatch(b, 'DELIVERY_TIMEOUT', b.cause);
  }

  private closeBatch(b: Batch): void {
    if (b.closed) return;
    b.closed = true;
    if (this.open[b.partition] === b) this.open[b.partition] = null;
    if (this.cfg.idempotent) {
      b.firstSeq = this.nextSeq[b.partition]!;
      b.epoch = this.seqEpoch[b.partition]!;
      this.nextSeq[b.partition] = b.firstSeq + b.n;
    }
    if (b.n > this.batchRoom) this.batchRoom = b.n;
    this.queues[b.partition]!.push(b);
  }

  /** Close every open batch now (flush() does not wait for linger.ms). */
  private closeAll(): void {
    for (const b of this.open) if (b) this.closeBatch(b);
  }

  protected completeBatch(b: Batch, offset: number, cause: EntryId): void {
    const w = this.world;
    b.done = true;
    if (b.deliveryTimer) this.owner.world.cancel(b.deliveryTimer);
    this.remove(b);
    if (this.cfg.idempotent && b.epoch === this.seqEpoch[b.partition] && b.firstSeq >= 0)
      this.lastAckedSeq[b.partition] = Math.max(
        this.lastAckedSeq[b.partition]!,
        b.firstSeq + b.n - 1,
      );
    const e = writeAck(
      w.trace,
      w.now,
      this.owner.id,
      cause,
      b.records[0]! as EventId,
      this.topic.index,
      b.partition,
      offset,
      b.n,
    );
    this.pendingRecords -= b.n;
    this.settle(b, true, 'NONE', e, offset);
    this.checkFlushed();
  }

  protected failBatch(b: Batch, error: ErrorCode, cause: EntryId): void {
    if (b.done) return;
    const w = this.world;
    b.done = true;
    if (b.deliveryTimer) this.owner.world.cancel(b.deliveryTimer);
    this.settleInflight(b);
    this.remove(b);
    if (!b.closed) {
      b.closed = true;
      if (this.open[b.partition] === b) this.open[b.partition] = null;
    }
    const e = writeBatchFailed(
      w.trace,
      w.now,
      this.owner.id,
      cause,
      b.records[0]! as EventId,
      this.topic.index,
      b.partition,
      b.n,
      errorIndex(error),
    );
    this.pendingRecords -= b.n;
    if (this.inTransaction) this.txnError = error;
    // No bump while another batch of the partition is unresolved (Kafka's maybeResolveSequences
    // waits for the partition's in-flight batches: renumbering one the broker wrote would append
    // it again; a real hole shows later as OUT_OF_ORDER for the next batch, see onError), nor when
    // a later sequence is already acknowledged: the broker's sequence is past this batch ("a batch
    // was expired, but subsequent batches succeeded").
    else if (
      this.cfg.idempotent &&
      b.firstSeq + b.n - 1 >= this.lastAckedSeq[b.partition]! &&
      !this.queues[b.partition]!.some((x) => x !== b && !x.done && this.possiblyWritten(x))
    )
      this.resequence(this.epoch + 1, b.partition);
    this.settle(b, false, error, e, -1);
    this.checkFlushed();
    this.drain();
  }

  /** Report each record of a settled batch to its callback and to `onRecord`. */
  protected settle(b: Batch, ok: boolean, error: ErrorCode, cause: EntryId, offset: number): void {
    const hook = this.onRecord;
    for (let i = 0; i < b.n; i++) {
      const event = b.records[i]! as EventId;
      const sent = b.records[b.room + i]! as EntryId;
      const at = ok && offset >= 0 ? offset + i : -1;
      const cb = b.callbacks?.[i];
      if (cb) tell(cb, event, sent, ok, error, cause, at);
      if (hook) hear(hook, event, sent, ok, error, cause, at);
    }
  }

  /** A batch the broker may have written though the client has no answer saying so. */
  protected possiblyWritten(x: Batch): boolean {
    return x.inflightTo >= 0 || x.unanswered;
  }

  /**
   * After a batch fails for good an idempotent producer cannot leave a hole in its sequence: it
   * bumps its epoch and numbers the pending batches of `partition`, the one that failed, again
   * from 0 (KIP-360). Kafka "rewrite[s] all in-flight sequences for the partition(s) that
   * triggered the epoch bump" only (TransactionManager.bumpIdempotentProducerEpoch): another
   * partition's batches keep their epoch and sequences, and may already be written, so
   * renumbering them would append them again. A transactional producer gets its new `epoch` from
   * the coordinator once its transaction is aborted: every partition starts again from 0.
   * https://github.com/apache/kafka/blob/trunk/clients/src/main/java/org/apache/kafka/clients/producer/internals/TransactionManager.java
   */
  protected resequence(epoch: number, partition?: number): void {
    this.epoch = epoch;
    if (partition !== undefined) {
      this.renumber(partition, epoch);
      return;
    }
    for (let p = 0; p < this.queues.length; p++) this.renumber(p, epoch);
  }

  /** Number partition `p`'s pending batches from 0 in `epoch`. */
  protected renumber(p: number, epoch: number): void {
    this.seqEpoch[p] = epoch;
    this.lastAckedSeq[p] = -1;
    let s = 0;
    for (const x of this.queues[p]!) {
      if (x.done) continue;
      x.epoch = epoch;
      x.firstSeq = s;
      s += x.n;
    }
    this.nextSeq[p] = s;
  }

  /**
   * Whether partition `p`'s next new batch may go: on a partition still numbered in an earlier
   * epoch than the producer's, only once none of its batches sent before is unresolved — then
   * its sequences start again from 0 in the producer's epoch. Kafka's RecordAccumulator does
   * not "drain any new batches while the partition has in-flight batches with a different epoch
   * and/or producer ID. Otherwise, a batch with a new epoch and sequence number 0 could be
   * written before earlier batches complete" (shouldStopDrainBatchesForPartition), and then
   * "reset[s] the partition sequence so that the next batch (with the new epoch) starts from 0"
   * (TransactionManager.maybeUpdateProducerIdAndEpoch).
   * https://github.com/apache/kafka/blob/trunk/clients/src/main/java/org/apache/kafka/clients/producer/internals/RecordAccumulator.java
   */
  protected toCurrentEpoch(p: number): boolean {
    if (this.seqEpoch[p] === this.epoch) return true;
    if (this.queues[p]!.some((x) => !x.done && x.attempts > 0)) return false;
    this.renumber(p, this.epoch);
    return true;
  }

  protected remove(b: Batch): void {
    const q = this.queues[b.partition]!;
    // Batches usually complete in order: the head, without a search.
    if (q[0] === b) {
      q.shift();
      return;
    }
    const i = q.indexOf(b);
    if (i >= 0) q.splice(i, 1);
  }

  /** Call `fn` once every record sent so far has settled (flush()). */
  flush(fn: Callback): void {
    this.closeAll();
    this.drain();
    if (this.pendingRecords === 0) run(fn);
    else this.flushWaiters.push(fn);
  }

  protected checkFlushed(): void {
    if (this.pendingRecords !== 0 || this.flushWaiters.length === 0) return;
    const ws = this.flushWaiters;
    this.flushWaiters = [];
    for (const f of ws) run(f);
  }

  protected fatal(error: ErrorCode, cause: EntryId): void {
    if (this.fatalError) return;
    const w = this.world;
    this.fatalError = error;
    this.fatalEntry = writeFenced(w.trace, w.now, this.owner.id, cause, this.epoch);
    for (const q of this.queues) for (const b of [...q]) this.failBatch(b, error, cause);
    for (const b of this.open) if (b) this.failBatch(b, error, cause);
  }

  protected settleInflight(b: Batch): void {
    if (b.inflightTo < 0) return;
    this.inflight.set(b.inflightTo, (this.inflight.get(b.inflightTo) ?? 1) - 1);
    b.inflightTo = -1;
  }

  /** Whether the coordinator aborted this producer's transaction on timeout (its epoch bumped since). */
  protected epochTimedOut(): boolean {
    const tid = this.cfg.transactionalId;
    return tid !== null && this.cluster.coordinator.timedOutAt(tid, this.epoch);
  }
}
