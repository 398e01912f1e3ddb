/**
 * A Kafka producer client living inside a process (the source application, a consumer loop's
 * output, a Flink KafkaSink). It owns batching, retries, idempotence and the transaction calls.
 *
 * Behaviour per the Java client's documentation (https://kafka.apache.org/documentation/#producerconfigs,
 * KafkaProducer javadoc):
 * - records gather into one batch per partition until `batch.size` bytes or `linger.ms`;
 * - at most `max.in.flight.requests.per.connection` requests wait per broker;
 * - a request unanswered after `request.timeout.ms` is retried after `retry.backoff.ms` ("this
 *   automatic retry will simply resend the same record"), up to `retries` times, and a record not
 *   acknowledged within `delivery.timeout.ms` of its send() fails;
 * - a broker process crash closes the connection to it: the requests in flight on it fail one
 *   network latency later with NETWORK_EXCEPTION and take the same retry path; batches for a
 *   broker that is down wait while the client's connection attempts are refused
 *   (`reconnect.backoff.ms`), see src/engine/connections.ts;
 * - with idempotence each batch carries (producer id, epoch, sequence) so the broker appends a
 *   retried batch once; a sequence gap on the broker (OUT_OF_ORDER_SEQUENCE_NUMBER for the next
 *   batch in line) makes an idempotent producer bump its epoch and number its batches from 0 —
 *   only once no other batch of the partition is unresolved, so a batch the broker may hold is
 *   never renumbered (KIP-360) — and a transactional one abort the transaction (the abort bumps
 *   the epoch); with `acks=0` nothing is awaited and nothing is retried;
 * - transactions: `initTransactions` fences older instances, `commitTransaction` flushes then ends
 *   the transaction, `sendOffsetsToTransaction` makes consumer offsets part of it.
 */
import type { Actor, PendingWork, Timer, World } from './world';
import type { Cluster, ProduceResult, Topic, TxnRecord } from './broker/cluster';
import { errorIndex } from './broker/cluster';
import { TXN_API, type ErrorCode } from './trace';
import { Links } from './connections';
import { Int32Arena } from './core/arena';
import {
  writeAck,
  writeBatchFailed,
  writeCommitFailed,
  writeFenced,
  writeReject,
  writeRetry,
} from './traceWriters';
import { NO_ENTRY, NO_EVENT, type ActorId, type EntryId, type EventId } from './ids';

/** The producer settings a client needs (a subset of the scenario's producer block). */
export interface ClientConfig {
  acks: '0' | '1' | 'all';
  idempotent: boolean;
  transactionalId: string | null;
  retries: number;
  deliveryTimeoutMs: number;
  requestTimeoutMs: number;
  retryBackoffMs: number;
  retryBackoffMaxMs: number;
  lingerMs: number;
  batchSize: number;
  maxInFlight: number;
  transactionTimeoutMs: number;
}

const RETRIABLE: ReadonlySet<ErrorCode> = new Set<ErrorCode>([
  'REQUEST_TIMED_OUT',
  'NETWORK_EXCEPTION',
  'NOT_LEADER_OR_FOLLOWER',
  'NOT_ENOUGH_REPLICAS',
  'NOT_ENOUGH_REPLICAS_AFTER_APPEND',
  'OUT_OF_ORDER_SEQUENCE_NUMBER',
]);

/**
 * The Java client's backoff before it asks again when the first AddPartitionsToTxn of a
 * transaction was refused with CONCURRENT_TRANSACTIONS (ms): retry.backoff.ms, lowered to this
 * ("the previous transaction is still completing and we don't want to wait too long before trying
 * to start the new one" — TransactionManager.ADD_PARTITIONS_RETRY_BACKOFF_MS,
 * AddPartitionsToTxnHandler.maybeOverrideRetryBackoffMs).
 * https://github.com/apache/kafka/blob/trunk/clients/src/main/java/org/apache/kafka/clients/producer/internals/TransactionManager.java
 */
const ADD_PARTITIONS_RETRY_BACKOFF_MS = 20;

/**
 * The wait before a batch's next attempt, after `attempts` failed ones (ms). Kafka ≥ 3.7
 * (KIP-580): `retry.backoff.ms`, doubled for each further failed attempt, up to
 * `retry.backoff.max.ms` — or that maximum from the start when `retry.backoff.ms` is larger.
 * Kafka's ±20 % jitter is not drawn, so retry times do not depend on the seed.
 * https://kafka.apache.org/documentation/#producerconfigs_retry.backoff.max.ms
 */
export function retryBackoff(
  cfg: Pick<ClientConfig, 'retryBackoffMs' | 'retryBackoffMaxMs'>,
  attempts: number,
): number {
  const base = cfg.retryBackoffMs;
  const max = cfg.retryBackoffMaxMs;
  if (base >= max) return max;
  return Math.min(max, base * 2 ** Math.max(0, attempts - 1));
}

/** Outcome callback of one record: ok, the error, the entry that settled it, the record's offset (-1 unknown). */
export type SendCallback = (ok: boolean, error: ErrorCode, cause: EntryId, offset: number) => void;

/** A request waiting for its answer on a connection. */
interface Pending {
  batch: Batch;
  attempt: number;
  /** The connection it was sent on. */
  epoch: number;
  /** Its answer, if it arrived while an earlier request on the connection had none yet. */
  answer: { r: ProduceResult; cause: EntryId } | null;
  /** Its request.timeout.ms timer, cancelled once answered (a stale timer would hold the run open). */
  timer: Timer | null;
  /** The broker incarnation it was sent to (its connection's). */
  brokerInc: number;
  /** Its 'msg' entry. */
  msg: EntryId;
}

/** One connection to a broker: its requests awaiting answers, in the order they were sent. */
interface Connection {
  epoch: number;
  outstanding: Pending[];
}

interface Batch {
  id: number;
  partition: number;
  /**
   * The records' workload events, `events[0..n)`, and the entries that sent them, `sends[0..n)`:
   * typed columns with room to grow (doubled when full), handed to the request as views — no
   * per-record boxed slots and no copy per attempt.
   */
  events: Int32Array;
  sends: Int32Array;
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
  /** Per-record callbacks, by position in the batch (sparse). */
  callbacks: (SendCallback | undefined)[];
  /** Its delivery.timeout.ms timer, cancelled once the batch is done. */
  deliveryTimer: Timer | null;
}

/** A producer client bound to one owner process and one topic. */
export class ProducerClient {
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
  private readonly partitionOfKey: Int32Array;
  private nextSeq: number[];
  /** Per partition, the last sequence acknowledged in the current epoch, -1 for none (Kafka's lastAckedSequence). */
  private lastAckedSeq: number[];
  private open: (Batch | null)[];
  private queues: Batch[][];
  private readonly inflight = new Map<number, number>();
  private readonly connections = new Map<number, Connection>();
  /** The TCP connections to the brokers: open, closed by a crash, or being attempted again. */
  private readonly links: Links;
  /** What waits for a connection: a drain once it is open, refused, or may be tried again. */
  private readonly drainLater = (): void => this.drain();
  private batchIds = 0;
  /**
   * The room a new batch starts with: the most records a batch of this client has closed with
   * (at least 16). Batch sizes vary with the send rate around linger.ms: sized on the last one,
   * a batch had to grow every other time.
   */
  private batchRoom = 16;
  /** Where batches take their columns from (a batch's columns die with it). */
  private readonly arena = new Int32Arena();

  /** Double a full batch's columns. */
  private growBatch(b: Batch): void {
    const events = this.arena.take(b.events.length * 2);
    events.set(b.events);
    b.events = events;
    const sends = this.arena.take(b.sends.length * 2);
    sends.set(b.sends);
    b.sends = sends;
  }
  private attemptIds = 0;
  private pendingRecords = 0;
  private flushWaiters: (() => void)[] = [];
  /** Whether a record of the current transaction failed (the transaction must abort). */
  txnError: ErrorCode | null = null;
  /** Who waits for the coordinator to begin the current transaction ({@link whenTxnBegun}). */
  private beginWaiters: ((cause: EntryId) => void)[] = [];

  constructor(
    private readonly owner: Actor,
    private readonly cluster: Cluster,
    readonly topic: Topic,
    readonly cfg: ClientConfig,
  ) {
    const n = topic.partitions.length;
    this.partitionOfKey = owner.world.keyPartitions(n);
    this.nextSeq = new Array<number>(n).fill(0);
    this.lastAckedSeq = new Array<number>(n).fill(-1);
    this.open = new Array<Batch | null>(n).fill(null);
    this.queues = Array.from({ length: n }, () => []);
    this.links = new Links(owner);
  }

  private get world(): World {
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

  /**
   * Get a producer id (idempotent) or run `initTransactions` (transactional): one round trip to
   * the coordinator. Calls `onReady` in the owner's current incarnation — or, when the coordinator
   * refuses (INVALID_TRANSACTION_TIMEOUT: initTransactions throws — "If a client's requested
   * transaction time exceed this, then the broker will return an error in InitProducerIdRequest",
   * https://kafka.apache.org/documentation/#brokerconfigs_transaction.max.timeout.ms), sets
   * {@link fatalError} and calls `onError` instead.
   */
  init(
    cause: EntryId,
    onReady: (cause: EntryId) => void,
    onError: (error: ErrorCode, cause: EntryId) => void = () => {},
  ): void {
    if (!this.cfg.idempotent) {
      this.ready = true;
      onReady(cause);
      return;
    }
    const coord = this.cluster.coordinator;
    this.initProducerIdTrip(
      cause,
      (e) => {
        const r = coord.initProducerId(this.cfg.transactionalId, this.cfg.transactionTimeoutMs, e);
        return r.error === 'CONCURRENT_TRANSACTIONS'
          ? { result: r, cause: r.entry ?? e, retry: true }
          : { result: r, cause: e };
      },
      (r, e2) => {
        if (r.error !== 'NONE') {
          this.fatalError = r.error;
          onError(r.error, e2);
          return;
        }
        this.pid = r.pid;
        this.epoch = r.epoch;
        this.ready = true;
        onReady(e2);
        this.drain();
      },
    );
  }

  /**
   * Called for every record's outcome (after `cb`, if one was given), so an owner that follows
   * every record needs no closure per record.
   */
  onRecord:
    | ((event: EventId, sendEntry: EntryId, ok: boolean, error: ErrorCode, cause: EntryId) => void)
    | null = null;

  /** `send(record)`: add the event's record to its partition's open batch. */
  send(event: EventId, sendEntry: EntryId, cb: SendCallback | null = null): void {
    const w = this.world;
    if (this.fatalError || (this.inTransaction && !this.ensureTxn(sendEntry))) {
      const err = this.fatalError ?? 'PRODUCER_FENCED';
      cb?.(false, err, sendEntry, -1);
      this.onRecord?.(event, sendEntry, false, err, sendEntry);
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
    if (b.n === b.events.length) this.growBatch(b);
    b.events[b.n] = event;
    b.sends[b.n] = sendEntry;
    b.n++;
    b.bytes += bytes;
    if (cb) b.callbacks[b.n - 1] = cb;
    this.pendingRecords++;
    // Only a closed batch can be sent: drain when one closes (the linger timer drains too).
    if (b.bytes >= this.cfg.batchSize || this.cfg.lingerMs === 0) {
      this.closeBatch(b);
      this.drain();
    }
  }

  /**
   * A transactional request refused: a 'reject' entry by `actor` (the coordinator, or this client
   * when its request timed out) with the error `code` and the transaction's number. Returns it.
   */
  private txnReject(actor: ActorId, cause: EntryId, code: ErrorCode, txn: number): EntryId {
    const w = this.world;
    const r = writeReject(
      w.trace,
      w.now,
      actor,
      cause,
      NO_EVENT,
      -1,
      -1,
      -1,
      -1,
      errorIndex(code),
      -1,
      txn,
    );
    return r;
  }

  private newBatch(p: number, cause: EntryId): Batch {
    const w = this.world;
    const b: Batch = {
      id: ++this.batchIds,
      partition: p,
      // Room for as many records as the client's biggest batch so far (batch.size bounds it):
      // a batch rarely grows.
      events: this.arena.take(this.batchRoom),
      sends: this.arena.take(this.batchRoom),
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
      callbacks: [],
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
      b.epoch = this.epoch;
      this.nextSeq[b.partition] = b.firstSeq + b.n;
    }
    if (b.n > this.batchRoom) this.batchRoom = b.n;
    this.queues[b.partition]!.push(b);
  }

  /** Close every open batch now (flush() does not wait for linger.ms). */
  private closeAll(): void {
    for (const b of this.open) if (b) this.closeBatch(b);
  }

  /** Send every ready batch the in-flight limit allows, each partition in order. */
  drain(): void {
    if (!this.ready || !this.owner.alive || this.fatalError) return;
    // A transaction the coordinator has not begun yet (its AddPartitionsToTxn refused with
    // CONCURRENT_TRANSACTIONS): its batches wait in the accumulator, as RecordAccumulator's drain
    // skips a partition that !transactionManager.isSendToPartitionAllowed(tp).
    if (this.txn?.state === 'Empty') return;
    const w = this.world;
    const max = this.cfg.maxInFlight;
    for (let p = 0; p < this.queues.length; p++) {
      const q = this.queues[p]!;
      for (const b of q) {
        if (b.done) continue;
        if (b.inflightTo >= 0) {
          if (this.cfg.idempotent && max === 1) break;
          continue;
        }
        if (b.notBefore > w.now) break;
        const leader = this.cluster.leaderOf(this.topic.partitions[p]!);
        if (!leader) {
          // No leader known: look again after the backoff (a metadata refresh).
          b.notBefore = w.now + this.cfg.retryBackoffMs;
          w.scheduleCall(this.cfg.retryBackoffMs, this.owner, this, this.drain);
          break;
        }
        if ((this.inflight.get(leader.number) ?? 0) >= max) break;
        // No open connection to the leader: the batch waits in the accumulator (nothing is sent,
        // no attempt is spent) while the client connects, as Sender.sendProducerData skips the
        // nodes that are not ready.
        if (
          !this.links.open(leader) &&
          !this.links.ready(
            leader,
            { event: b.events[0]! as EventId, topic: this.topic.index, partition: p, count: b.n },
            this.drainLater,
          )
        )
          break;
        this.transmit(b, leader.number);
        if (max === 1) break;
      }
    }
  }

  private transmit(b: Batch, brokerNo: number): void {
    const w = this.world;
    const t = w.trace;
    const broker = this.cluster.broker(brokerNo);
    b.attempts++;
    const attempt = ++this.attemptIds;
    b.attemptId = attempt;
    b.inflightTo = brokerNo;
    this.inflight.set(brokerNo, (this.inflight.get(brokerNo) ?? 0) + 1);
    // A closed batch's records never change: the request reads them through views.
    const evs = b.events.subarray(0, b.n);
    const carry = {
      event: b.events[0]! as EventId,
      topic: this.topic.index,
      partition: b.partition,
      count: b.n,
      events: evs,
      txn: b.txn,
    };
    if (b.attempts > 1) {
      b.cause = writeRetry(
        t,
        w.now,
        this.owner.id,
        b.cause,
        b.events[0]! as EventId,
        this.topic.index,
        b.partition,
        b.n,
        b.attempts - 1,
      );
    }
    const inc = this.owner.incarnation;
    const req = {
      topic: this.topic,
      partition: b.partition,
      events: evs,
      sends: b.sends.subarray(0, b.n),
      pid: this.cfg.idempotent ? this.pid : -1,
      epoch: b.epoch,
      firstSeq: b.firstSeq,
      txn: b.txn,
      acks: this.cfg.acks,
    };
    const conn = this.connection(brokerNo);
    // On the connection's broker incarnation: one that crashed since resets it (onReset).
    const brokerInc = this.links.get(broker).inc;
    const pending: Pending = {
      batch: b,
      attempt,
      epoch: conn.epoch,
      answer: null,
      timer: null,
      brokerInc,
      msg: NO_ENTRY,
    };
    const m = w.send(
      this.owner,
      broker,
      'produce',
      b.cause,
      carry,
      (e) => {
        broker.produce(
          req,
          e,
          (r: ProduceResult, c) => {
            w.send(
              broker,
              this.owner,
              'produce-response',
              c,
              { ...carry, offset: r.offset },
              (e2) => this.onAnswer(brokerNo, pending, r, e2),
              { toInc: inc },
            );
          },
          () => this.onReset(brokerNo, pending, inc),
        );
      },
      { toInc: brokerInc, onLost: () => this.onReset(brokerNo, pending, inc) },
    );
    pending.msg = m;
    if (this.cfg.acks === '0') {
      // acks=0: "the record will be immediately added to the socket buffer and considered sent";
      // the retries setting does not take effect.
      this.settleInflight(b);
      this.completeBatch(b, -1, m);
      return;
    }
    conn.outstanding.push(pending);
    pending.timer = this.owner.after(this.cfg.requestTimeoutMs, () => {
      if (!conn.outstanding.includes(pending) || conn.epoch !== pending.epoch) return;
      const e = writeReject(
        t,
        w.now,
        this.owner.id,
        m,
        b.events[0]! as EventId,
        this.topic.index,
        b.partition,
        -1,
        b.n,
        errorIndex('REQUEST_TIMED_OUT'),
      );
      this.closeConnection(brokerNo, pending, e);
    });
  }

  /**
   * The broker process `brokerNo` crashed under request `p` (it waited there, or reached it dead):
   * the client sees its connection reset one network latency after the crash, then fails every
   * request in flight on it with NETWORK_EXCEPTION, each retried as usual (retry.backoff.ms; the
   * leader is looked up again: "Disconnected from node …", Sender.handleProduceResponse
   * `wasDisconnected()`; NetworkException is an InvalidMetadataException, so the metadata is
   * refreshed), and connects again before its next request (src/engine/connections.ts).
   * https://github.com/apache/kafka/blob/trunk/clients/src/main/java/org/apache/kafka/clients/producer/internals/Sender.java
   * Each request's NETWORK_EXCEPTION 'reject' follows from its 'msg' entry, with the broker as
   * its peer (the crash is that broker's last one before it).
   * @param inc - the owner's incarnation that sent `p`.
   */
  private onReset(brokerNo: number, p: Pending, inc: number): void {
    const o = this.owner;
    if (!o.alive || o.incarnation !== inc) return;
    const broker = this.cluster.broker(brokerNo);
    const at = this.links.resetAt(broker, p.brokerInc);
    o.after(Math.max(0, at - o.world.now), () => {
      this.links.closed(broker, p.brokerInc, at);
      const conn = this.connection(brokerNo);
      // Answered, timed out, or failed with the others already.
      if (!conn.outstanding.includes(p)) return;
      const failed = conn.outstanding;
      conn.outstanding = [];
      conn.epoch++;
      const w = o.world;
      for (const q of failed) {
        if (q.timer) w.cancel(q.timer);
        const b = q.batch;
        if (b.attemptId !== q.attempt || b.done) continue;
        const e = writeReject(
          w.trace,
          w.now,
          o.id,
          q.msg,
          b.events[0]! as EventId,
          this.topic.index,
          b.partition,
          -1,
          b.n,
          errorIndex('NETWORK_EXCEPTION'),
          broker.id,
        );
        this.onError(b, 'NETWORK_EXCEPTION', e);
      }
    });
  }

  private connection(brokerNo: number): Connection {
    let c = this.connections.get(brokerNo);
    if (!c) this.connections.set(brokerNo, (c = { epoch: 0, outstanding: [] }));
    return c;
  }

  /**
   * An answer arrived. A connection delivers answers in request order (TCP), so an answer waits
   * until every earlier request on the connection has its own; answers are then handled in order.
   */
  private onAnswer(brokerNo: number, p: Pending, r: ProduceResult, cause: EntryId): void {
    const conn = this.connection(brokerNo);
    if (conn.epoch !== p.epoch) return; // the connection was closed: this answer never arrives
    p.answer = { r, cause };
    while (conn.outstanding.length > 0 && conn.outstanding[0]!.answer) {
      const head = conn.outstanding.shift()!;
      // Answered and off the connection: its timeout would find nothing to do.
      if (head.timer) this.owner.world.cancel(head.timer);
      this.onResponse(head.batch, head.attempt, head.answer!.r, head.answer!.cause);
    }
  }

  /**
   * A request timed out: the client closes the connection, which fails every request still
   * outstanding on it (answers that arrived behind the missing one included); each is retried.
   */
  private closeConnection(brokerNo: number, timedOut: Pending, cause: EntryId): void {
    const conn = this.connection(brokerNo);
    const failed = conn.outstanding;
    conn.outstanding = [];
    conn.epoch++;
    for (const p of failed) {
      if (p.timer) this.owner.world.cancel(p.timer);
      if (p.batch.attemptId !== p.attempt || p.batch.done) continue;
      this.onError(p.batch, p === timedOut ? 'REQUEST_TIMED_OUT' : 'NETWORK_EXCEPTION', cause);
    }
  }

  private settleInflight(b: Batch): void {
    if (b.inflightTo < 0) return;
    this.inflight.set(b.inflightTo, (this.inflight.get(b.inflightTo) ?? 1) - 1);
    b.inflightTo = -1;
  }

  private onResponse(b: Batch, attempt: number, r: ProduceResult, cause: EntryId): void {
    // The response to an attempt that timed out arrives on a closed connection: ignored.
    if (b.attemptId !== attempt || b.done) return;
    b.unanswered = false;
    if (r.error === 'NONE') {
      this.settleInflight(b);
      this.completeBatch(b, r.offset, cause);
      this.drain();
      return;
    }
    this.onError(b, r.error, cause);
  }

  private onError(b: Batch, error: ErrorCode, cause: EntryId): void {
    const w = this.world;
    this.settleInflight(b);
    b.cause = cause;
    if (error === 'INVALID_PRODUCER_EPOCH' && this.epochTimedOut()) {
      // Abortable (KIP-588): the transaction fails; abortTransaction() claims the bumped epoch.
      // The real client takes every INVALID_PRODUCER_EPOCH as abortable and learns at that
      // InitProducerId whether a newer instance fenced it; asking the coordinator here instead
      // ends a fenced zombie the same way (fatal, its writes refused), one round trip sooner.
      this.failBatch(b, error, cause);
      return;
    }
    if (error === 'INVALID_PRODUCER_EPOCH' || error === 'PRODUCER_FENCED') {
      this.fatal(error, cause);
      return;
    }
    if (error === 'REQUEST_TIMED_OUT' || error === 'NETWORK_EXCEPTION') b.unanswered = true;
    const deadline = b.createdAt + this.cfg.deliveryTimeoutMs;
    // OUT_OF_ORDER while an earlier batch of the partition is still pending is the consequence of
    // that earlier batch's retry: wait for it without spending a retry. An idempotent-only
    // producer also waits while another batch of the partition is unresolved (in flight, or its
    // last attempt unanswered: the broker may hold it): bumping the epoch now would number that
    // batch from 0 in the new epoch and append it a second time. Kafka bumps only "if there are
    // no unresolved sequences" and once the partition has no in-flight batches
    // (TransactionManager.canRetry, maybeResolveSequences; KIP-360), so the retry of the other
    // batch is first acknowledged as a duplicate.
    // https://cwiki.apache.org/confluence/display/KAFKA/KIP-360%3A+Improve+reliability+of+idempotent%2Ftransactional+producer
    const waiting =
      (error === 'OUT_OF_ORDER_SEQUENCE_NUMBER' &&
        this.queues[b.partition]!.some(
          (x) =>
            x !== b &&
            !x.done &&
            (x.firstSeq < b.firstSeq || (!this.cfg.transactionalId && this.possiblyWritten(x))),
        )) ||
      // Behind a sequence already acknowledged: no gap, the broker wrote it and no longer holds
      // it among the 5 batches it remembers (a new leader took later batches first) — Kafka
      // retries "if the batch is _not_ the next batch" without bumping.
      (error === 'OUT_OF_ORDER_SEQUENCE_NUMBER' &&
        !this.cfg.transactionalId &&
        b.firstSeq <= this.lastAckedSeq[b.partition]!);
    // OUT_OF_ORDER for the next batch in line: the broker's log really has a gap (an unclean
    // election lost acknowledged batches, say), and resending the same sequence can never
    // succeed. Kafka's TransactionManager.canRetry: a transactional producer does not retry it
    // (OutOfOrderSequenceException is no RetriableException) and handleFailedBatch turns it into
    // an abortable error — the transaction must abort; an idempotent-only producer does "retry all
    // OUT_OF_ORDER_SEQUENCE_NUMBER errors" and, knowing there is a gap, bumps its epoch and
    // numbers the partition's batches from 0 again (KIP-360), then resends after the usual
    // backoff (the retry counts against `retries` and `delivery.timeout.ms` as any other).
    // https://github.com/apache/kafka/blob/trunk/clients/src/main/java/org/apache/kafka/clients/producer/internals/TransactionManager.java
    // https://kafka.apache.org/42/javadoc/org/apache/kafka/common/errors/OutOfOrderSequenceException.html
    const gap = error === 'OUT_OF_ORDER_SEQUENCE_NUMBER' && !waiting;
    if (gap && this.cfg.transactionalId) {
      this.failBatch(b, error, cause);
      return;
    }
    const backoff = retryBackoff(this.cfg, waiting ? b.attempts - 1 : b.attempts);
    // Retried while delivery.timeout.ms has not passed, even when the next attempt would come
    // after it: the batch then expires in the accumulator at its deadline (the delivery timer,
    // DELIVERY_TIMEOUT — the Java client's TimeoutException "Expiring N record(s) for
    // <partition>:N ms has passed since batch creation"), not one backoff early with the
    // broker's last error. Sender.canRetry retries while
    // !batch.hasReachedDeliveryTimeout(deliveryTimeoutMs, now) and attempts < retries.
    // https://kafka.apache.org/documentation/#producerconfigs_delivery.timeout.ms
    if (RETRIABLE.has(error) && (waiting || b.attempts <= this.cfg.retries) && w.now < deadline) {
      if (waiting) b.attempts--;
      if (gap) this.resequence();
      b.notBefore = w.now + backoff;
      // No wake-up past the deadline: the delivery timer fails the batch first (and drains).
      if (b.notBefore < deadline) w.scheduleCall(backoff, this.owner, this, this.drain);
      return;
    }
    this.failBatch(b, error, cause);
  }

  private completeBatch(b: Batch, offset: number, cause: EntryId): void {
    const w = this.world;
    b.done = true;
    if (b.deliveryTimer) this.owner.world.cancel(b.deliveryTimer);
    this.remove(b);
    if (this.cfg.idempotent && b.epoch === this.epoch && b.firstSeq >= 0)
      this.lastAckedSeq[b.partition] = Math.max(
        this.lastAckedSeq[b.partition]!,
        b.firstSeq + b.n - 1,
      );
    const e = writeAck(
      w.trace,
      w.now,
      this.owner.id,
      cause,
      b.events[0]! as EventId,
      this.topic.index,
      b.partition,
      offset,
      b.n,
    );
    this.pendingRecords -= b.n;
    this.settle(b, true, 'NONE', e, offset);
    this.checkFlushed();
  }

  private failBatch(b: Batch, error: ErrorCode, cause: EntryId): void {
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
      b.events[0]! as EventId,
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
      this.resequence();
    this.settle(b, false, error, e, -1);
    this.checkFlushed();
    this.drain();
  }

  /** Report each record of a settled batch to its callback and to `onRecord`. */
  private settle(b: Batch, ok: boolean, error: ErrorCode, cause: EntryId, offset: number): void {
    const hook = this.onRecord;
    for (let i = 0; i < b.n; i++) {
      b.callbacks[i]?.(ok, error, cause, ok && offset >= 0 ? offset + i : -1);
      hook?.(b.events[i]! as EventId, b.sends[i]! as EntryId, ok, error, cause);
    }
  }

  /** A batch the broker may have written though the client has no answer saying so. */
  private possiblyWritten(x: Batch): boolean {
    return x.inflightTo >= 0 || x.unanswered;
  }

  /**
   * After a batch fails for good an idempotent producer cannot leave a hole in its sequence: it
   * bumps its epoch and numbers the pending batches again from 0 (KIP-360). A transactional
   * producer gets its new `epoch` from the coordinator instead.
   */
  private resequence(epoch = this.epoch + 1): void {
    this.epoch = epoch;
    this.lastAckedSeq.fill(-1);
    for (let p = 0; p < this.queues.length; p++) {
      let s = 0;
      for (const x of this.queues[p]!) {
        if (x.done) continue;
        x.epoch = this.epoch;
        x.firstSeq = s;
        s += x.n;
      }
      this.nextSeq[p] = s;
    }
  }

  private remove(b: Batch): void {
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
  flush(fn: () => void): void {
    this.closeAll();
    this.drain();
    if (this.pendingRecords === 0) fn();
    else this.flushWaiters.push(fn);
  }

  private checkFlushed(): void {
    if (this.pendingRecords !== 0 || this.flushWaiters.length === 0) return;
    const ws = this.flushWaiters;
    this.flushWaiters = [];
    for (const f of ws) f();
  }

  private fatal(error: ErrorCode, cause: EntryId): void {
    if (this.fatalError) return;
    const w = this.world;
    this.fatalError = error;
    this.fatalEntry = writeFenced(w.trace, w.now, this.owner.id, cause, this.epoch);
    for (const q of this.queues) for (const b of [...q]) this.failBatch(b, error, cause);
    for (const b of this.open) if (b) this.failBatch(b, error, cause);
  }

  // ------------------------------------------------------------------ transactions

  /**
   * `beginTransaction()`: local only. The coordinator hears of the transaction with its first
   * partition or offsets (AddPartitionsToTxn / AddOffsetsToTxn), and its timeout clock starts then.
   */
  beginTransaction(): boolean {
    if (!this.cfg.transactionalId || this.fatalError || this.inTransaction) return false;
    this.inTransaction = true;
    this.txn = null;
    this.txnError = null;
    return true;
  }

  /**
   * The coordinator's record of the current transaction, registering it on first use: the first
   * record sent in it (AddPartitionsToTxn, `api`) or its offsets (AddOffsetsToTxn). The
   * coordinator accepting it at once, its round trip is not modelled. While the transactional
   * id's previous transaction is still completing (PrepareCommit / PrepareAbort: a marker waits
   * for a partition leader) it refuses with CONCURRENT_TRANSACTIONS — EndTxn was answered as soon
   * as the decision was logged, the markers come after (TransactionCoordinator.endTransaction:
   * "we can respond to the client immediately and continue to write the txn markers";
   * handleAddPartitionsToTransaction: PrepareCommit | PrepareAbort → CONCURRENT_TRANSACTIONS,
   * https://github.com/apache/kafka/blob/trunk/core/src/main/scala/kafka/coordinator/transaction/TransactionCoordinator.scala).
   * Then the transaction is numbered but 'Empty', its records wait in the accumulator, and the
   * request goes to the coordinator and again once that transaction has completed
   * ({@link beginAfterCompletion}).
   */
  private ensureTxn(cause: EntryId, api: number = TXN_API.AddPartitionsToTxn): TxnRecord | null {
    if (this.txn) return this.txn;
    const coord = this.cluster.coordinator;
    const tid = this.cfg.transactionalId!;
    if (!coord.isCurrent(tid, this.epoch)) {
      this.fatal('PRODUCER_FENCED', cause);
      return null;
    }
    if (this.cluster.completing(tid)) {
      const rec = this.cluster.newTxn(tid, this.pid, this.epoch);
      rec.state = 'Empty';
      this.txn = rec;
      this.beginAfterCompletion(rec, api, cause);
      return rec;
    }
    this.txn = coord.beginTxn(tid, this.cfg.transactionTimeoutMs, cause);
    return this.txn;
  }

  /**
   * AddPartitionsToTxn / AddOffsetsToTxn (`api`) for transaction `rec`, refused with
   * CONCURRENT_TRANSACTIONS while the previous transaction completes and sent again after it has
   * ({@link txnTrip}): after 20 ms for AddPartitionsToTxn (the Java client's
   * ADD_PARTITIONS_RETRY_BACKOFF_MS for a transaction's first one), retry.backoff.ms for
   * AddOffsetsToTxn (AddOffsetsToTxnHandler re-enqueues it as is). Accepted, the coordinator
   * begins `rec` (Ongoing; its transaction.timeout.ms runs from then) and the held batches go.
   * Refused with PRODUCER_FENCED when a newer instance has bumped the epoch since. Abandoned when
   * the application ends the transaction first (its records expired meanwhile).
   */
  private beginAfterCompletion(rec: TxnRecord, api: number, cause: EntryId): void {
    const coord = this.cluster.coordinator;
    const tid = this.cfg.transactionalId!;
    const epoch = this.epoch;
    this.txnTrip<ErrorCode>(
      api,
      rec.no,
      cause,
      (e) => {
        if (!coord.isCurrent(tid, epoch)) {
          const code: ErrorCode = 'PRODUCER_FENCED';
          const r = this.txnReject(coord.id, e, code, rec.no);
          return { result: code, cause: r };
        }
        if (this.cluster.completing(tid))
          return { result: 'NONE', cause: coord.concurrent(e).entry, retry: true };
        coord.beginTxn(tid, this.cfg.transactionTimeoutMs, e, rec);
        return { result: 'NONE', cause: e };
      },
      (code, e2) => {
        const waiters = this.beginWaiters;
        this.beginWaiters = [];
        if (code !== 'NONE') this.fatal('PRODUCER_FENCED', e2);
        else this.drain();
        for (const f of waiters) f(e2);
      },
      {
        retryBackoffMs:
          api === TXN_API.AddPartitionsToTxn
            ? Math.min(this.cfg.retryBackoffMs, ADD_PARTITIONS_RETRY_BACKOFF_MS)
            : this.cfg.retryBackoffMs,
        stale: () => this.txn !== rec,
      },
    );
  }

  /**
   * Run `fn` once the coordinator has begun the current transaction (at once if it has), with
   * the entry that began it.
   */
  private whenTxnBegun(cause: EntryId, fn: (cause: EntryId) => void): void {
    if (this.txn?.state === 'Empty') this.beginWaiters.push(fn);
    else fn(cause);
  }

  /** Whether the coordinator aborted this producer's transaction on timeout (its epoch bumped since). */
  private epochTimedOut(): boolean {
    const tid = this.cfg.transactionalId;
    return tid !== null && this.cluster.coordinator.timedOutAt(tid, this.epoch);
  }

  /**
   * `abortTransaction()` after the coordinator aborted the transaction on timeout: InitProducerId
   * with the current id and epoch, which hands this producer the bumped epoch (KIP-588, "user
   * should abort the ongoing transaction by calling KafkaProducer#abortTransaction which would try
   * to send initPidRequest and reinitialize the producer"); the producer then begins the next
   * transaction. Fenced instead when another instance has started since.
   * https://kafka.apache.org/42/javadoc/org/apache/kafka/common/errors/InvalidProducerEpochException.html
   */
  private claimEpoch(cause: EntryId, done: (cause: EntryId) => void): void {
    const tid = this.cfg.transactionalId!;
    const epoch = this.epoch;
    const coord = this.cluster.coordinator;
    this.initProducerIdTrip(
      cause,
      (e) => {
        // The aborted transaction's markers are still being written: CONCURRENT_TRANSACTIONS.
        if (this.cluster.completing(tid))
          return { result: -1, cause: coord.concurrent(e).entry, retry: true };
        return { result: coord.claimAfterTimeout(tid, epoch), cause: e };
      },
      (next, e2) => {
        if (next < 0) {
          this.fatal('PRODUCER_FENCED', e2);
          return done(e2);
        }
        // A new epoch numbers its batches from 0 again (the queues are empty: flushed).
        this.epoch = next;
        this.nextSeq.fill(0);
        this.lastAckedSeq.fill(-1);
        this.txn = null;
        this.inTransaction = false;
        this.txnError = null;
        done(e2);
      },
    );
  }

  /**
   * After aborting a transaction that had a failed batch: InitProducerId with the current id and
   * epoch, which bumps the epoch (KIP-360), and the pending batches are numbered from 0 in it. Fenced when the coordinator no
   * longer knows this epoch (another instance started). `done` gets the answer's entry.
   */
  private bumpEpoch(cause: EntryId, done: (cause: EntryId) => void): void {
    const tid = this.cfg.transactionalId!;
    const epoch = this.epoch;
    const coord = this.cluster.coordinator;
    this.initProducerIdTrip(
      cause,
      (e) => {
        if (!coord.isCurrent(tid, epoch)) return { result: -1, cause: e };
        const r = coord.initProducerId(tid, this.cfg.transactionTimeoutMs, e);
        // The abort's markers still wait for a partition leader: asked again once they are out.
        if (r.error === 'CONCURRENT_TRANSACTIONS')
          return { result: -1, cause: r.entry ?? e, retry: true };
        return { result: r.error === 'NONE' ? r.epoch : -1, cause: e };
      },
      (next, e2) => {
        if (next < 0) this.fatal('PRODUCER_FENCED', e2);
        else this.resequence(next);
        done(e2);
      },
    );
  }

  /**
   * One InitProducerId round trip: `ask` runs at the coordinator when the request arrives, and
   * `answer` gets its result back at the producer (unless the producer restarted meanwhile).
   * Resent until answered ({@link txnTrip}): a retried initTransactions bumps the epoch again,
   * and the epoch the producer gets is the newest; a retried claim after a timeout is answered
   * with the epoch already claimed ({@link Coordinator.claimAfterTimeout}).
   */
  private initProducerIdTrip<R>(
    cause: EntryId,
    ask: (arrival: EntryId) => { result: R; cause: EntryId; retry?: boolean },
    answer: (result: R, cause: EntryId) => void,
  ): void {
    this.txnTrip(TXN_API.InitProducerId, -1, cause, ask, answer);
  }

  /**
   * One request to the transaction coordinator (`api`: a {@link TXN_API}), sent until it is
   * answered. `ask` runs at the coordinator at each arrival and gives the result and the entry its
   * answer follows from; `answer` runs at the producer, in this incarnation, with the first answer
   * that arrives — unless it is a retriable refusal (`retry`: CONCURRENT_TRANSACTIONS, the
   * transactional id's last transaction still completing), which the client re-enqueues: the
   * request goes again `retry.backoff.ms` (`opts.retryBackoffMs`) after that transaction has
   * completed. A request unanswered after `request.timeout.ms` has its connection closed — an
   * answer still on its way is never read — and is sent again after `retry.backoff.ms`, as the
   * client's TransactionManager re-enqueues a transactional request whose connection dropped
   * ("Disconnected from … Will retry") for as long as it takes. The application's blocking call
   * (initTransactions, sendOffsetsToTransaction, commitTransaction) throws TimeoutException after
   * `max.block.ms` (60 s) meanwhile, and "It is safe to retry" it: the retried call waits for the
   * same request's result, so the model, whose applications retry, just waits. The coordinator
   * answers a repeated request as it answered the first (see the callers), so only the timing
   * changes. (Looking the coordinator up again after a disconnect is not modelled: it is always
   * available.) KafkaProducer javadoc (commitTransaction, initTransactions):
   * https://kafka.apache.org/documentation/#producerapi; TransactionManager.TxnRequestHandler:
   * https://github.com/apache/kafka/blob/trunk/clients/src/main/java/org/apache/kafka/clients/producer/internals/TransactionManager.java
   * @param txn - the transaction number the messages carry (-1: none).
   * @param opts - `retryBackoffMs`: the wait after a CONCURRENT_TRANSACTIONS refusal's
   * transaction has completed (default retry.backoff.ms); `stale`: checked before each attempt,
   * true ends the trip unanswered.
   */
  private txnTrip<R>(
    api: number,
    txn: number,
    cause: EntryId,
    ask: (arrival: EntryId) => { result: R; cause: EntryId; retry?: boolean },
    answer: (result: R, cause: EntryId) => void,
    opts: { retryBackoffMs?: number; stale?: () => boolean } = {},
  ): void {
    const w = this.world;
    const coord = this.cluster.coordinator;
    const inc = this.owner.incarnation;
    const carry = txn >= 0 ? { txn, count: api } : { count: api };
    const backoff = opts.retryBackoffMs ?? this.cfg.retryBackoffMs;
    let over = false;
    const attempt = (c: EntryId) => {
      // The request is no longer wanted (the application moved on): not sent again.
      if (opts.stale?.()) {
        over = true;
        return;
      }
      let closed = false;
      let timer: Timer | null = null;
      const m = w.send(this.owner, coord, 'txn-request', c, carry, (e) => {
        const r = ask(e);
        w.send(
          coord,
          this.owner,
          'txn-response',
          r.cause,
          carry,
          (e2) => {
            if (closed || over) return;
            if (timer) w.cancel(timer);
            if (r.retry) {
              closed = true;
              // The client asks again every backoff (retry.backoff.ms; 20 ms for a first
              // AddPartitionsToTxn) until the transaction has completed; the model asks once,
              // one backoff after it has — the same outcome (up to one backoff of timing),
              // without a refusal in the trace every backoff while a partition is offline.
              this.cluster.whenCompleted(this.cfg.transactionalId!, () => {
                if (over || this.owner.incarnation !== inc) return;
                this.owner.after(backoff, () => {
                  if (!over) attempt(e2);
                });
              });
              return;
            }
            over = true;
            answer(r.result, e2);
          },
          { toInc: inc },
        );
      });
      timer = this.owner.after(this.cfg.requestTimeoutMs, () => {
        timer = null;
        if (over) return;
        closed = true;
        const rej = this.txnReject(this.owner.id, m, 'REQUEST_TIMED_OUT', txn);
        this.owner.after(this.cfg.retryBackoffMs, () => {
          if (!over) attempt(rej);
        });
      });
    };
    attempt(cause);
  }

  /**
   * A request to the transaction coordinator on the owner's behalf, outside any transaction of
   * this client (KafkaSink's recovery: re-commit the restored transactions, abort the lingering
   * ones), resent until it is answered like the client's own ({@link txnTrip}).
   */
  coordinatorRequest<R>(
    api: number,
    cause: EntryId,
    ask: (arrival: EntryId) => { result: R; cause: EntryId },
    answer: (result: R, cause: EntryId) => void,
  ): void {
    this.txnTrip(api, -1, cause, ask, answer);
  }

  /**
   * `sendOffsetsToTransaction(offsets, groupMetadata)`: the offsets "will be considered committed
   * only if the transaction is committed successfully". A round trip to the coordinator, which
   * checks the consumer's group membership (`stillMember`, KIP-447 fencing) and the producer epoch.
   * A repeated request stores the same offsets again ({@link Coordinator.addOffsets}).
   */
  sendOffsetsToTransaction(
    groupId: string,
    stillMember: () => boolean,
    offsets: { topic: number; partition: number; offset: number }[],
    cause: EntryId,
    done: (ok: boolean, cause: EntryId) => void,
  ): void {
    const w = this.world;
    const coord = this.cluster.coordinator;
    const txn = this.inTransaction ? this.ensureTxn(cause, TXN_API.AddOffsetsToTxn) : null;
    if (!txn) return done(false, cause);
    // AddOffsetsToTxn refused while the previous transaction completes: TxnOffsetCommit follows
    // once the coordinator has begun this one.
    if (txn.state === 'Empty')
      return this.whenTxnBegun(cause, (c) =>
        this.fatalError
          ? done(false, c)
          : this.sendOffsetsToTransaction(groupId, stillMember, offsets, c, done),
      );
    this.txnTrip(
      TXN_API.TxnOffsetCommit,
      txn.no,
      cause,
      (e) => {
        const ok =
          txn.state === 'Ongoing' &&
          stillMember() &&
          coord.isCurrent(this.cfg.transactionalId!, this.epoch);
        if (ok) coord.addOffsets(txn, groupId, offsets);
        else
          writeCommitFailed(
            w.trace,
            w.now,
            coord.id,
            e,
            offsets[0]?.topic ?? -1,
            offsets[0]?.partition ?? -1,
            offsets[0]?.offset ?? -1,
            errorIndex('COMMIT_FAILED'),
          );
        return { result: ok, cause: e };
      },
      done,
    );
  }

  /**
   * `commitTransaction()` (or `abortTransaction()` with commit=false): flush, then EndTxn.
   * `beforeEnd` runs just before the EndTxn request leaves (a crash point); `afterSent` just after.
   * EndTxn is resent until answered ({@link txnTrip}); the coordinator answers a repeated EndTxn
   * for a transaction it has already completed with the same outcome at the same epoch with
   * success, as Kafka's TransactionCoordinator does (CompleteCommit + COMMIT, CompleteAbort +
   * ABORT → NONE; PrepareCommit + COMMIT, PrepareAbort + ABORT → CONCURRENT_TRANSACTIONS, in
   * `endTransaction`):
   * https://github.com/apache/kafka/blob/trunk/core/src/main/scala/kafka/coordinator/transaction/TransactionCoordinator.scala
   */
  endTransaction(
    commit: boolean,
    cause: EntryId,
    done: (committed: boolean, cause: EntryId) => void,
    hooks: { beforeEnd?: (c: EntryId) => boolean; afterSent?: (c: EntryId) => void } = {},
  ): void {
    if (!this.inTransaction) return done(false, cause);
    const inc = this.owner.incarnation;
    this.flush(() => {
      if (this.owner.incarnation !== inc || !this.owner.alive) return;
      const doCommit = commit && this.txnError === null && this.fatalError === null;
      if (hooks.beforeEnd?.(cause)) return;
      // A send was refused for the epoch the timeout bumped: no EndTxn, the epoch is claimed.
      if (this.txnError === 'INVALID_PRODUCER_EPOCH' && this.epochTimedOut())
        return this.claimEpoch(cause, (c) => done(false, c));
      // A batch of this transaction failed (an abortable error): Kafka's TransactionManager sets
      // epochBumpRequired, and abortTransaction() follows the EndTxn with an InitProducerId that
      // bumps the epoch, so the next transaction numbers its batches from 0 again — the failed
      // batch's sequences are never written (KIP-360; maybeTransitionToErrorState,
      // beginCompletingTransaction in
      // https://github.com/apache/kafka/blob/trunk/clients/src/main/java/org/apache/kafka/clients/producer/internals/TransactionManager.java).
      const bump = this.txnError !== null && this.fatalError === null;
      const ended = (c: EntryId) =>
        bump ? this.bumpEpoch(c, (c2) => done(false, c2)) : done(doCommit, c);
      const txn = this.txn;
      if (!txn || txn.state === 'Empty') {
        // Nothing was sent in it, or the coordinator never began it (its records expired while
        // AddPartitionsToTxn was refused): the coordinator never heard of it; ending it is local,
        // and its pending AddPartitionsToTxn is not sent again.
        this.txn = null;
        this.beginWaiters = [];
        this.inTransaction = false;
        ended(cause);
        return;
      }
      const coord = this.cluster.coordinator;
      const tid = this.cfg.transactionalId!;
      const epoch = this.epoch;
      const completed = doCommit ? 'CompleteCommit' : 'CompleteAbort';
      this.txnTrip<ErrorCode>(
        TXN_API.EndTxn,
        txn.no,
        cause,
        (e) => {
          const current = coord.isCurrent(tid, epoch);
          if (current && txn.state === 'Ongoing') {
            coord.endTxn(txn, doCommit, e);
            return { result: 'NONE', cause: e };
          }
          // A repeated EndTxn (the answer to the first was lost): the outcome stands — or, its
          // markers not all written yet, will stand: CONCURRENT_TRANSACTIONS, ask again.
          if (current && txn.state === completed) return { result: 'NONE', cause: e };
          if (current && txn.state === (doCommit ? 'PrepareCommit' : 'PrepareAbort'))
            return { result: 'NONE', cause: coord.concurrent(e).entry, retry: true };
          // The coordinator aborted it on timeout: INVALID_PRODUCER_EPOCH, abortable (KIP-588).
          const timedOut = coord.timedOutAt(tid, epoch);
          const code: ErrorCode = timedOut ? 'INVALID_PRODUCER_EPOCH' : 'PRODUCER_FENCED';
          const r = this.txnReject(coord.id, e, code, txn.no);
          return { result: code, cause: r };
        },
        (code, e2) => {
          if (code === 'INVALID_PRODUCER_EPOCH') return this.claimEpoch(e2, (c) => done(false, c));
          if (code !== 'NONE') {
            this.fatal('PRODUCER_FENCED', e2);
            return done(false, e2);
          }
          if (this.txn === txn) {
            this.txn = null;
            this.inTransaction = false;
          }
          ended(e2);
        },
      );
      hooks.afterSent?.(cause);
    });
  }
}

/** Client settings of the scenario's source producer. */
export function sourceClientConfig(
  p: World['scenario']['producer'],
  acks: '0' | '1' | 'all',
  idempotent: boolean,
): ClientConfig {
  return {
    acks,
    idempotent,
    transactionalId: p['transactional.id'] ?? null,
    retries: p.retries,
    deliveryTimeoutMs: p['delivery.timeout.ms'],
    requestTimeoutMs: p['request.timeout.ms'],
    retryBackoffMs: p['retry.backoff.ms'],
    retryBackoffMaxMs: p['retry.backoff.max.ms'],
    lingerMs: p['linger.ms'],
    batchSize: p['batch.size'],
    maxInFlight: p['max.in.flight.requests.per.connection'],
    transactionTimeoutMs: p['transaction.timeout.ms'],
  };
}

/**
 * Client settings of a pipeline's own output producer (a consumer loop's or Flink's Kafka sink):
 * the Java client's defaults (acks=all, idempotent), with the sink's `linger.ms`, transactional
 * when `transactionalId` is given.
 */
export function outputClientConfig(
  transactionalId: string | null,
  transactionTimeoutMs: number,
  lingerMs: number,
  idempotent = true,
): ClientConfig {
  return {
    acks: 'all',
    idempotent: idempotent || transactionalId !== null,
    transactionalId,
    retries: 2147483647,
    deliveryTimeoutMs: 120_000,
    requestTimeoutMs: 30_000,
    retryBackoffMs: 100,
    retryBackoffMaxMs: 1000,
    lingerMs,
    batchSize: 16_384,
    maxInFlight: 5,
    transactionTimeoutMs,
  };
}
