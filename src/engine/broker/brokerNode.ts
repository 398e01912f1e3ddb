/**
 * One broker process: it leads and follows partitions, appends produce requests (acks,
 * idempotence, transactions) and serves fetches. The cluster and the semantics modelled are in
 * cluster.ts.
 */
import { NO_EVENT, type EntryId, type EventId } from '../ids';
import { Actor, type World } from '../world';
import type { Partition, RetainedBatch } from './partition';
import { REC_CONTROL } from './partition';
import { K, type ErrorCode } from '../trace';
import { Int32Arena } from '../core/arena';
import { invoke, run, type Call, type Callback } from '../core/call';
import type { HwWaiter } from './replication';
import { writeAppend, writeDedupe, writeReject } from '../traceWriters';
import {
  NO_RECORDS,
  errorIndex,
  type Cluster,
  type FetchResult,
  type ProduceRequest,
  type ProduceResult,
  type Topic,
} from './cluster';

/** One broker process. It serves the partitions it leads. */
export class BrokerNode extends Actor {
  /** When this incarnation started (ms): its periodic ISR check runs from then. */
  startedAt = 0;
  /**
   * Clients to tell when this incarnation's connections reset (its crash): each holds a request
   * this broker has answered whose answer has not reached it (lost or delayed on the way), so
   * only the reset ends its wait before `request.timeout.ms` (src/engine/connections.ts).
   */
  private resetWatchers: Callback<EntryId>[] = [];

  constructor(
    world: World,
    readonly cluster: Cluster,
    readonly number: number,
  ) {
    super(world, `broker-${number}`);
  }

  protected override onCrash(cause: EntryId): void {
    const watchers = this.resetWatchers;
    this.resetWatchers = [];
    for (const f of watchers) run(f, cause);
    this.cluster.brokerDown(this, cause);
  }

  /**
   * This broker's answer `answer` (a 'msg' entry it just sent) is lost or held up on its way:
   * its request stays in flight on the client's connection, so run `onReset` when this
   * incarnation crashes — the crash resets that connection, and the Java client fails every
   * request in flight on a connection that closes, not at its request timeout
   * (src/engine/connections.ts). An answer on its normal way needs nothing.
   */
  watchIfHeld(answer: EntryId, onReset: Callback<EntryId>): void {
    if (this.answerHeld(answer)) this.resetWatchers.push(onReset);
  }

  /**
   * Whether this broker's answer `answer` is lost or held up on its way ({@link watchIfHeld}): a
   * caller that asks first makes its `onReset` only when it is (rarely).
   */
  answerHeld(answer: EntryId): boolean {
    const w = this.world;
    const n = w.scenario.network;
    return (
      w.trace.kind[answer] === K['msg-lost'] ||
      w.trace.until[answer]! > w.now + n.latencyMs + n.jitterMs
    );
  }

  protected override onRestart(cause: EntryId): void {
    this.startedAt = this.world.now;
    this.cluster.brokerUp(this, cause);
  }

  /**
   * Handle a produce request; `respond` is called when the answer is ready (now, or once the ISR
   * has the records for acks=all). Not called at all for acks=0. `onCrash` runs, with the 'crash'
   * entry, if this broker process dies while the request waits for the ISR: it is never answered,
   * and the client's connection closes (see src/engine/connections.ts).
   *
   * Sequence check of an idempotent batch (Kafka's ProducerAppendInfo.checkSequence): an epoch
   * below the partition's is INVALID_PRODUCER_EPOCH; the same epoch must continue at the last
   * retained batch's sequence + 1 (a retained batch again is a duplicate); a newer epoch must
   * start at 0; a producer id with no state on the partition may start anywhere (KIP-360).
   */
  produce(
    req: ProduceRequest,
    cause: EntryId,
    respond: Call<ProduceResult, EntryId>,
    onCrash?: Callback<EntryId>,
  ): void {
    const w = this.world;
    const t = w.trace;
    const p = req.topic.partitions[req.partition]!;
    if (p.leader !== this.number) return this.refuse(req, 'NOT_LEADER_OR_FOLLOWER', cause, respond);
    if (req.acks === 'all' && p.isr.size < this.cluster.minIsr)
      return this.refuse(req, 'NOT_ENOUGH_REPLICAS', cause, respond);
    const n = req.count;
    if (req.pid >= 0) {
      const ps = p.producers.get(req.pid);
      if (ps && req.epoch < ps.epoch)
        return this.refuse(req, 'INVALID_PRODUCER_EPOCH', cause, respond);
      if (this.cluster.fencedEpoch(req.pid) > req.epoch)
        return this.refuse(req, 'INVALID_PRODUCER_EPOCH', cause, respond);
      const lastSeq = req.firstSeq + n - 1;
      if (ps && ps.epoch === req.epoch) {
        const dup = retained(ps.batches, req.firstSeq, lastSeq);
        if (dup) {
          // Already written: acknowledge with the original offset, append nothing.
          const e = writeDedupe(
            t,
            w.now,
            this.id,
            cause,
            req.records[0]! as EventId,
            req.topic.index,
            p.index,
            dup.offset,
            n,
            req.firstSeq,
          );
          const answer: ProduceResult = { error: 'NONE', offset: dup.offset, appended: false };
          this.respondWhenReplicated(p, dup.offset + n, req, answer, e, respond, onCrash);
          return;
        }
        const last = ps.batches[ps.batches.length - 1];
        const expected = last ? last.lastSeq + 1 : 0;
        if (req.firstSeq !== expected)
          return this.refuse(req, 'OUT_OF_ORDER_SEQUENCE_NUMBER', cause, respond);
      } else if (ps && req.firstSeq !== 0) {
        // A new (higher) epoch of a producer the partition knows starts at sequence 0.
        return this.refuse(req, 'OUT_OF_ORDER_SEQUENCE_NUMBER', cause, respond);
      }
      // No state for this producer id here (`ps` undefined: its first batch on this partition,
      // or all its batches were cut by a leader change and the state rebuilt from the log without
      // them): any first sequence is appended. Kafka ≥ 2.5 (KIP-360) accepts it —
      // ProducerAppendInfo.checkSequence: "If there is no current producer epoch (possibly because
      // all producer records have been deleted due to retention or the DeleteRecords API) accept
      // writes with any sequence number", and a new epoch's non-zero sequence is refused only
      // when the entry has an epoch (!= NO_PRODUCER_EPOCH). Before 2.5 the broker answered
      // UNKNOWN_PRODUCER_ID (KAFKA-6003). Not modelled: transactions v2 (Kafka 4.x, KIP-890)
      // refuses a non-zero first sequence with no state (KAFKA-18202), and Kafka 4.5 does for a
      // partition whose log never held a record (KAFKA-15591).
      // https://github.com/apache/kafka/blob/01c02fa1eb23d41cd2c8b17e285eae5bdd9d8f72/core/src/main/scala/kafka/log/ProducerStateManager.scala
      // (the same rule in today's storage/.../log/ProducerAppendInfo.java),
      // https://github.com/apache/kafka/pull/19902 ("For Transactions V1 with empty state: ANY
      // sequence number is allowed"), https://github.com/apache/kafka/pull/23234
    }
    const base = p.leo;
    const e = writeAppend(
      t,
      w.now,
      this.id,
      cause,
      req.records[0]! as EventId,
      req.topic.index,
      p.index,
      base,
      n,
      req.pid >= 0 ? req.firstSeq : -1,
      req.txn,
    );
    for (let i = 0; i < n; i++) {
      p.appendRecord(
        req.records[i]! as EventId,
        req.pid,
        req.epoch,
        req.pid >= 0 ? req.firstSeq + i : -1,
        req.txn,
        0,
        e,
        req.records[req.sendsAt + i]! as EntryId,
        w.now,
      );
    }
    if (req.txn >= 0) this.cluster.txnPartitionAdded(req.txn, p);
    if (req.pid >= 0) p.rememberBatch(req.pid, req.epoch, req.firstSeq, req.firstSeq + n - 1, base);
    p.leaderHoldsAll().caughtUpAt = w.now;
    const replication = this.cluster.replication;
    // A leader alone in the ISR has its high watermark at its own end at once.
    replication.advanceHw(p, e);
    if (req.acks === '1') invoke(respond, { error: 'NONE', offset: base, appended: true }, e);
    else if (req.acks === 'all') {
      const answer: ProduceResult = { error: 'NONE', offset: base, appended: true };
      this.respondWhenReplicated(p, p.leo, req, answer, e, respond, onCrash);
    }
    // A random leader failover strikes here: appended (and, with acks=1, acknowledged), before
    // the leader answers its followers' fetches with the batch — it is on the leader alone.
    w.faults.leaderAppended(this, req.topic.name, p.index, req.records[0]! as EventId, e);
    if (this.alive) replication.replicate(p, e);
  }

  /**
   * Handle a fetch: the answer, at once (returned, not handed to a callback), with the records from `offset` below the readable end (the
   * high watermark, or the last stable offset for read_committed), at most `max` — possibly none.
   * "Only committed messages are ever given out to the consumer." (A real fetch also waits up to
   * fetch.max.wait.ms for data; the clients here park on the partition instead of polling
   * again, which gives the same arrival times without idle traffic.)
   */
  fetch(
    topic: Topic,
    partition: number,
    offset: number,
    max: number,
    readCommitted: boolean,
  ): FetchResult {
    const p = topic.partitions[partition]!;
    if (p.leader !== this.number)
      return {
        error: 'NOT_LEADER_OR_FOLLOWER',
        offsets: NO_RECORDS,
        events: NO_RECORDS,
        next: offset,
      };
    const end = p.readableEnd(readCommitted);
    // At most `max` records, at most all below the readable end: the offsets go at `at`, the
    // events `room` slots further, in the arena; what is left unused of the events' room is
    // given back.
    const room = Math.max(0, Math.min(max, end - offset));
    const arena = this.fetchArena.room(2 * room);
    const at = this.fetchArena.used;
    const evs = p.event.data;
    const flags = p.flags.data;
    const txns = p.txn.data;
    // Partition.visibleBelowEnd, with the outcome of the last transaction kept: a transaction's
    // records sit together, one lookup per run of them instead of one per record.
    let lastTxn = -1;
    let lastCommitted = false;
    let o = offset;
    let k = 0;
    while (o < end && k < max) {
      let visible = (flags[o]! & REC_CONTROL) === 0;
      if (visible && readCommitted) {
        const t = txns[o]!;
        if (t >= 0) {
          if (t !== lastTxn) {
            lastTxn = t;
            lastCommitted = p.txnOutcome.get(t) === 'committed';
          }
          visible = lastCommitted;
        }
      }
      if (visible) {
        arena[at + k] = o;
        arena[at + room + k++] = evs[o]!;
      }
      o++;
    }
    this.fetchArena.used = at + room + k;
    // Markers and aborted records are skipped: `next` moves the position past them. An empty
    // answer (a caught-up reader's, before it parks) shares the empty columns: no views made.
    return {
      error: 'NONE',
      offsets: k === 0 ? NO_RECORDS : arena.subarray(at, at + k),
      events: k === 0 ? NO_RECORDS : arena.subarray(at + room, at + room + k),
      next: Math.max(o, offset),
    };
  }

  /**
   * Where fetch responses are written: a response's columns stay as they were for as long as a
   * consumer buffers them, and the arena never reuses a slot.
   */
  private readonly fetchArena = new Int32Arena();

  /**
   * Answer once the ISR has the records (acks=all), or now. A request whose wait ends because the
   * ISR shrank below `min.insync.replicas` (the HW then moves up to the leader's end) gets
   * NOT_ENOUGH_REPLICAS_AFTER_APPEND: its records are in the leader's log but not safely
   * replicated, and the producer retries — "Producer retries will cause duplicates"
   * (https://kafka.apache.org/documentation/#brokerconfigs_min.insync.replicas,
   * https://kafka.apache.org/42/javadoc/org/apache/kafka/common/errors/NotEnoughReplicasAfterAppendException.html;
   * Partition.checkEnoughReplicasReachOffset).
   */
  private respondWhenReplicated(
    p: Partition,
    end: number,
    req: ProduceRequest,
    answer: ProduceResult,
    answerCause: EntryId,
    respond: Call<ProduceResult, EntryId>,
    onCrash: Callback<EntryId> | undefined,
  ): void {
    if (req.acks !== 'all' || p.hw >= end) {
      if (req.acks !== '0') invoke(respond, answer, answerCause);
      return;
    }
    this.cluster.replication.awaitHw(p, {
      end,
      broker: this,
      req,
      answer,
      answerCause,
      respond,
      onCrash,
    });
  }

  /** The ISR has the records `x` waited for (the HW moved at `hw`): answer it. */
  replicated(p: Partition, x: HwWaiter, hw: EntryId): void {
    if (p.isr.size < this.cluster.minIsr)
      this.refuse(x.req, 'NOT_ENOUGH_REPLICAS_AFTER_APPEND', hw, x.respond);
    else invoke(x.respond, x.answer, x.answerCause);
  }

  /** Refuse a produce request with `code` (a 'reject' entry), answered unless acks=0. */
  private refuse(
    req: ProduceRequest,
    code: ErrorCode,
    why: EntryId,
    respond: Call<ProduceResult, EntryId>,
  ): void {
    const w = this.world;
    const e = writeReject(
      w.trace,
      w.now,
      this.id,
      why,
      (req.count > 0 ? req.records[0]! : NO_EVENT) as EventId,
      req.topic.index,
      req.partition,
      -1,
      req.count,
      errorIndex(code),
    );
    if (req.acks !== '0') invoke(respond, { error: code, offset: -1, appended: false }, e);
  }
}

/**
 * The retained batch `firstSeq..lastSeq` of a producer's, if the partition holds it (a loop, not
 * `find` with a closure made per produce request).
 */
function retained(
  batches: readonly RetainedBatch[],
  firstSeq: number,
  lastSeq: number,
): RetainedBatch | undefined {
  for (const b of batches) if (b.firstSeq === firstSeq && b.lastSeq === lastSeq) return b;
  return undefined;
}
