/**
 * The producer client's requests: batches sent to each partition's leader within
 * `max.in.flight.requests.per.connection`, answers taken in request order per connection, and
 * the failures — a request unanswered after `request.timeout.ms`, a connection reset by a broker
 * crash, the broker's refusals — retried per `retries`, `retry.backoff.ms` and
 * `delivery.timeout.ms`, with idempotence's sequence rules (KIP-360). Each request and its answer
 * are held as data (a {@link Pending} record and methods), so a snapshot of the run copies them
 * (docs/ARCHITECTURE.md, "Pending work and forks").
 * https://kafka.apache.org/documentation/#producerconfigs
 */
import type { Carry, Timer } from './world';
import { errorIndex, type ProduceRequest, type ProduceResult } from './broker/cluster';
import type { ErrorCode } from './trace';
import { RETRIABLE, retryBackoff } from './clientConfig';
import { Links } from './connections';
import { call, type Call } from './core/call';
import { writeReject, writeRetry } from './traceWriters';
import { NO_ENTRY, type EntryId, type EventId } from './ids';
import { ClientBatches, type Batch } from './clientBatches';

/** A request waiting for its answer on a connection. */
interface Pending {
  batch: Batch;
  /** The broker it was sent to, and the owner's incarnation that sent it. */
  brokerNo: number;
  inc: number;
  req: ProduceRequest;
  attempt: number;
  /** The connection it was sent on. */
  epoch: number;
  /**
   * Its answer and the answer's 'msg' entry, if it arrived while an earlier request on the
   * connection had none yet (two fields, not an object per answer).
   */
  answer: ProduceResult | null;
  answerCause: EntryId;
  /** Its request.timeout.ms timer, cancelled once answered (a stale timer would hold the run open). */
  timer: Timer | null;
  /** The broker incarnation it was sent to (its connection's). */
  brokerInc: number;
  /** Its 'msg' entry. */
  msg: EntryId;
  /** When the client sees its connection reset by the broker's crash (ms), once it has crashed. */
  resetAt: number;
  /**
   * What runs when the broker's crash resets its connection ({@link ClientRequests.onReset}): one
   * call, handed to the request's message, the broker and the answer's message in turn.
   */
  onLost: Call<EntryId>;
}

/** One connection to a broker: its requests awaiting answers, in the order they were sent. */
interface Connection {
  epoch: number;
  outstanding: Pending[];
  /**
   * A request on it was lost (`drop-request`: a network partition the client learns of only by
   * its request.timeout.ms). TCP delivers a connection's bytes in order, so nothing sent after it
   * on this connection reaches the broker either, until the client closes it: a later request
   * cannot be appended ahead of the lost one (Kafka: "on a single TCP connection, requests will
   * be processed in the order they are sent", https://kafka.apache.org/protocol.html#protocol_network).
   */
  stalled: boolean;
}

/** A producer client's produce requests and their answers (see {@link ProducerClient}). */
export abstract class ClientRequests extends ClientBatches {
  protected readonly connections = new Map<number, Connection>();
  /** The TCP connections to the brokers: open, closed by a crash, or being attempted again. */
  protected readonly links: Links = new Links(this.owner);
  /** What waits for a connection: a drain once it is open, refused, or may be tried again. */
  private readonly drainLater: Call = call(this, this.drain);
  private attemptIds = 0;

  /** Send every ready batch the in-flight limit allows, each partition in order. */
  override drain(): void {
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
        if (this.cfg.idempotent && b.attempts === 0 && !this.toCurrentEpoch(p)) break;
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
            { event: b.records[0]! as EventId, topic: this.topic.index, partition: p, count: b.n },
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
    // A closed batch's records never change: the request reads the batch's column as it is.
    if (b.attempts > 1) {
      b.cause = writeRetry(
        t,
        w.now,
        this.owner.id,
        b.cause,
        b.records[0]! as EventId,
        this.topic.index,
        b.partition,
        b.n,
        b.attempts - 1,
      );
    }
    const inc = this.owner.incarnation;
    const req: ProduceRequest = {
      topic: this.topic,
      partition: b.partition,
      records: b.records,
      count: b.n,
      sendsAt: b.room,
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
      brokerNo,
      inc,
      req,
      attempt,
      epoch: conn.epoch,
      answer: null,
      answerCause: NO_ENTRY,
      timer: null,
      brokerInc,
      msg: NO_ENTRY,
      resetAt: -1,
      onLost: null as unknown as Call<EntryId>,
    };
    pending.onLost = call(this, this.onReset, pending);
    // Behind a lost request, a request waits in the connection's unacknowledged bytes: the broker
    // never reads it (acks=0 waits for no answer and has no timeout to close the connection: its
    // lost request stays the one loss).
    const stalled = conn.stalled && this.cfg.acks !== '0';
    const m = w.sendMessage(
      this.owner,
      broker,
      brokerInc,
      'produce',
      b.cause,
      this.carryOf(b, -1),
      call(this, this.produceArrived, pending),
      pending.onLost,
      stalled,
    );
    pending.msg = m;
    if (w.trace.kindOf(m) === 'msg-lost') conn.stalled = true;
    if (this.cfg.acks === '0') {
      // acks=0: "the record will be immediately added to the socket buffer and considered sent";
      // the retries setting does not take effect.
      this.settleInflight(b);
      this.completeBatch(b, -1, m);
      return;
    }
    conn.outstanding.push(pending);
    pending.timer = w.scheduleCall(
      this.cfg.requestTimeoutMs,
      this.owner,
      this,
      this.requestTimedOut,
      pending,
    );
  }

  /**
   * What a produce request (`offset` -1) or its answer (the base offset) carries: the batch's
   * first event, topic, partition, records, the records' events (its column, read below `n`) and
   * transaction.
   */
  private carryOf(b: Batch, offset: number): Carry {
    return this.world.carry(
      b.records[0]! as EventId,
      this.topic.index,
      b.partition,
      offset,
      b.n,
      b.txn,
      b.records,
    );
  }

  /** The request reaches its broker (message entry `e`), which appends it and answers. */
  private produceArrived(p: Pending, _b: undefined, _c: undefined, e: EntryId): void {
    this.cluster
      .broker(p.brokerNo)
      .produce(p.req, e, call(this, this.produceAnswered, p), p.onLost);
  }

  /** The broker's answer `r` to request `p` (at `cause`) goes back to the client. */
  private produceAnswered(
    p: Pending,
    _b: undefined,
    _c: undefined,
    r: ProduceResult,
    cause: EntryId,
  ): void {
    const broker = this.cluster.broker(p.brokerNo);
    const m = this.world.sendMessage(
      broker,
      this.owner,
      p.inc,
      'produce-response',
      cause,
      this.carryOf(p.batch, r.offset),
      call(this, this.answerArrived, p, r),
      undefined,
      false,
    );
    broker.watchIfHeld(m, p.onLost);
  }

  /** The answer `r` to `p` reaches the client (message entry `e`). */
  private answerArrived(p: Pending, r: ProduceResult, _c: undefined, e: EntryId): void {
    this.onAnswer(p.brokerNo, p, r, e);
  }

  /** `request.timeout.ms` after `p` left: unless answered, the client closes its connection. */
  private requestTimedOut(p: Pending): void {
    const conn = this.connection(p.brokerNo);
    if (!conn.outstanding.includes(p) || conn.epoch !== p.epoch) return;
    const w = this.world;
    const b = p.batch;
    const e = writeReject(
      w.trace,
      w.now,
      this.owner.id,
      p.msg,
      b.records[0]! as EventId,
      this.topic.index,
      b.partition,
      -1,
      b.n,
      errorIndex('REQUEST_TIMED_OUT'),
    );
    this.closeConnection(p.brokerNo, p, e);
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
   */
  private onReset(p: Pending): void {
    const o = this.owner;
    if (!o.alive || o.incarnation !== p.inc) return;
    const broker = this.cluster.broker(p.brokerNo);
    p.resetAt = this.links.resetAt(broker, p.brokerInc);
    this.world.scheduleCall(Math.max(0, p.resetAt - o.world.now), o, this, this.resetSeen, p);
  }

  /** The client sees the connection `p` went on reset: every request on it fails. */
  private resetSeen(p: Pending): void {
    const o = this.owner;
    const broker = this.cluster.broker(p.brokerNo);
    this.links.closed(broker, p.brokerInc, p.resetAt);
    const conn = this.connection(p.brokerNo);
    // Answered, timed out, or failed with the others already.
    if (!conn.outstanding.includes(p)) return;
    const failed = conn.outstanding;
    conn.outstanding = [];
    conn.epoch++;
    conn.stalled = false;
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
        b.records[0]! as EventId,
        this.topic.index,
        b.partition,
        -1,
        b.n,
        errorIndex('NETWORK_EXCEPTION'),
        broker.id,
      );
      this.onError(b, 'NETWORK_EXCEPTION', e);
    }
  }

  private connection(brokerNo: number): Connection {
    let c = this.connections.get(brokerNo);
    if (!c) this.connections.set(brokerNo, (c = { epoch: 0, outstanding: [], stalled: false }));
    return c;
  }

  /**
   * An answer arrived. A connection delivers answers in request order (TCP), so an answer waits
   * until every earlier request on the connection has its own; answers are then handled in order.
   */
  protected onAnswer(brokerNo: number, p: Pending, r: ProduceResult, cause: EntryId): void {
    const conn = this.connection(brokerNo);
    if (conn.epoch !== p.epoch) return; // the connection was closed: this answer never arrives
    p.answer = r;
    p.answerCause = cause;
    while (conn.outstanding.length > 0 && conn.outstanding[0]!.answer !== null) {
      const head = conn.outstanding.shift()!;
      // Answered and off the connection: its timeout would find nothing to do.
      if (head.timer) this.owner.world.cancel(head.timer);
      this.onResponse(head.batch, head.attempt, head.answer!, head.answerCause);
    }
  }

  /**
   * A request timed out: the client closes the connection, which fails every request still
   * outstanding on it (answers that arrived behind the missing one included); each is retried.
   */
  protected closeConnection(brokerNo: number, timedOut: Pending, cause: EntryId): void {
    const conn = this.connection(brokerNo);
    const failed = conn.outstanding;
    conn.outstanding = [];
    conn.epoch++;
    conn.stalled = false;
    for (const p of failed) {
      if (p.timer) this.owner.world.cancel(p.timer);
      if (p.batch.attemptId !== p.attempt || p.batch.done) continue;
      this.onError(p.batch, p === timedOut ? 'REQUEST_TIMED_OUT' : 'NETWORK_EXCEPTION', cause);
    }
  }

  protected onResponse(b: Batch, attempt: number, r: ProduceResult, cause: EntryId): void {
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

  protected onError(b: Batch, error: ErrorCode, cause: EntryId): void {
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
    // that earlier batch's loss: retry without a bump. The retry counts as any other, against
    // `retries` and towards retry.backoff.max.ms: Kafka's Sender.canRetry checks
    // `batch.attempts() < this.retries` whatever the error, and re-enqueueing a batch counts an
    // attempt (ProducerBatch.reenqueued).
    // https://github.com/apache/kafka/blob/trunk/clients/src/main/java/org/apache/kafka/clients/producer/internals/Sender.java
    // An idempotent-only producer also waits while another batch of the partition is unresolved
    // (in flight, or its last attempt unanswered: the broker may hold it): bumping the epoch now
    // would number that batch from 0 in the new epoch and append it a second time. Kafka bumps
    // only "if there are no unresolved sequences" and once the partition has no in-flight
    // batches (TransactionManager.canRetry, maybeResolveSequences; KIP-360), so the retry of the
    // other batch is first acknowledged as a duplicate.
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
    const backoff = retryBackoff(this.cfg, b.attempts);
    // Retried while delivery.timeout.ms has not passed, even when the next attempt would come
    // after it: the batch then expires in the accumulator at its deadline (the delivery timer,
    // DELIVERY_TIMEOUT — the Java client's TimeoutException "Expiring N record(s) for
    // <partition>:N ms has passed since batch creation"), not one backoff early with the
    // broker's last error. Sender.canRetry retries while
    // !batch.hasReachedDeliveryTimeout(deliveryTimeoutMs, now) and attempts < retries.
    // https://kafka.apache.org/documentation/#producerconfigs_delivery.timeout.ms
    if (RETRIABLE.has(error) && b.attempts <= this.cfg.retries && w.now < deadline) {
      if (gap) this.resequence(this.epoch + 1, b.partition);
      b.notBefore = w.now + backoff;
      // No wake-up past the deadline: the delivery timer fails the batch first (and drains).
      if (b.notBefore < deadline) w.scheduleCall(backoff, this.owner, this, this.drain);
      return;
    }
    this.failBatch(b, error, cause);
  }
}
