/**
 * The Kafka cluster: broker processes that lead and follow partitions, a controller that elects
 * leaders when a broker dies, and the group and transaction coordinators.
 *
 * Semantics follow the Kafka documentation, Design §4.6–4.8
 * (https://kafka.apache.org/documentation/#semantics, #usingtransactions, #replication):
 * - a write is acknowledged per `acks`; with `acks=all` only once every ISR replica has it, and
 *   refused with NOT_ENOUGH_REPLICAS when the ISR is smaller than `min.insync.replicas`;
 * - only records below the high watermark are given to consumers;
 * - only ISR replicas become leader unless `unclean.leader.election.enable`;
 * - an idempotent producer's batch is appended once per (producer id, epoch, sequence) — a retry
 *   of one of the last 5 batches is acknowledged without a second append; a gap in sequence is
 *   OUT_OF_ORDER_SEQUENCE_NUMBER, and so is a new epoch that does not start at sequence 0; an
 *   older epoch is fenced; a producer id the partition holds no state for (its first batch here,
 *   or every batch of it cut by a leader change) may start at any sequence (KIP-360, Kafka ≥ 2.5;
 *   see {@link BrokerNode.produce}).
 */
import { Actor, type PendingWork, type World } from '../world';
import { Partition, REC_COMMIT_MARKER, REC_CONTROL } from './partition';
import type { ErrorCode } from '../trace';
import { Int32Arena } from '../core/arena';
import { ERROR_CODES, TXN_REASON_FENCED, TXN_REASON_REQUESTED, TXN_REASON_TIMEOUT } from '../trace';
import {
  writeAppend,
  writeDataLoss,
  writeDedupe,
  writeFenced,
  writeHighWatermark,
  writeIsr,
  writeLeader,
  writeMarker,
  writeReject,
  writeTruncate,
  writeTxn,
} from '../traceWriters';

/** Index of an error code in the trace's code table. */
export function errorIndex(code: ErrorCode): number {
  return ERROR_CODES.indexOf(code);
}

/** A topic: its partitions. */
export interface Topic {
  name: string;
  index: number;
  partitions: Partition[];
}

/** A produce request as the leader receives it. */
export interface ProduceRequest {
  topic: Topic;
  partition: number;
  /** Workload event of each record. */
  events: Int32Array;
  /** 'app-send' entry of each record (provenance). */
  sends: Int32Array;
  pid: number;
  epoch: number;
  firstSeq: number;
  txn: number;
  acks: '0' | '1' | 'all';
}

/** The leader's answer to a produce request. */
export interface ProduceResult {
  error: ErrorCode;
  /** Base offset of the batch (-1 if not appended). */
  offset: number;
  /** Whether this request appended records (false for a recognised duplicate). */
  appended: boolean;
}

/** The leader's answer to a fetch: visible records (offset, event) and the next offset to fetch. */
export interface FetchResult {
  error: ErrorCode;
  /** Offsets of the records returned, ascending. */
  offsets: Int32Array;
  /** Their business events (index into the workload), in the same order. */
  events: Int32Array;
  next: number;
}

/** An empty offsets or events column: a fetch that returned nothing, an empty fetch buffer. */
export const NO_RECORDS = new Int32Array(0);

/** One broker process. It serves the partitions it leads. */
export class BrokerNode extends Actor {
  /** When this incarnation started (ms): its periodic ISR check runs from then. */
  startedAt = 0;

  constructor(
    world: World,
    readonly cluster: Cluster,
    readonly number: number,
  ) {
    super(world, `broker-${number}`);
  }

  protected override onCrash(cause: number): void {
    this.cluster.brokerDown(this, cause);
  }

  protected override onRestart(cause: number): void {
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
    cause: number,
    respond: (r: ProduceResult, cause: number) => void,
    onCrash?: (crash: number) => void,
  ): void {
    const w = this.world;
    const t = w.trace;
    const p = req.topic.partitions[req.partition]!;
    const reject = (code: ErrorCode, why = cause) => {
      const e = writeReject(
        t,
        w.now,
        this.id,
        why,
        req.events[0] ?? -1,
        req.topic.index,
        p.index,
        -1,
        req.events.length,
        errorIndex(code),
      );
      if (req.acks !== '0') respond({ error: code, offset: -1, appended: false }, e);
    };
    if (p.leader !== this.number) return reject('NOT_LEADER_OR_FOLLOWER');
    if (req.acks === 'all' && p.isr.size < this.cluster.minIsr)
      return reject('NOT_ENOUGH_REPLICAS');
    const n = req.events.length;
    if (req.pid >= 0) {
      const ps = p.producers.get(req.pid);
      if (ps && req.epoch < ps.epoch) return reject('INVALID_PRODUCER_EPOCH');
      if (this.cluster.fencedEpoch(req.pid) > req.epoch) return reject('INVALID_PRODUCER_EPOCH');
      const lastSeq = req.firstSeq + n - 1;
      if (ps && ps.epoch === req.epoch) {
        const dup = ps.batches.find((b) => b.firstSeq === req.firstSeq && b.lastSeq === lastSeq);
        if (dup) {
          // Already written: acknowledge with the original offset, append nothing.
          const e = writeDedupe(
            t,
            w.now,
            this.id,
            cause,
            req.events[0]!,
            req.topic.index,
            p.index,
            dup.offset,
            n,
            req.firstSeq,
          );
          this.respondWhenReplicated(
            p,
            dup.offset + n,
            req.acks,
            () => respond({ error: 'NONE', offset: dup.offset, appended: false }, e),
            reject,
            onCrash,
          );
          return;
        }
        const last = ps.batches[ps.batches.length - 1];
        const expected = last ? last.lastSeq + 1 : 0;
        if (req.firstSeq !== expected) return reject('OUT_OF_ORDER_SEQUENCE_NUMBER');
      } else if (ps && req.firstSeq !== 0) {
        // A new (higher) epoch of a producer the partition knows starts at sequence 0.
        return reject('OUT_OF_ORDER_SEQUENCE_NUMBER');
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
      req.events[0]!,
      req.topic.index,
      p.index,
      base,
      n,
      req.pid >= 0 ? req.firstSeq : -1,
      req.txn,
    );
    for (let i = 0; i < n; i++) {
      p.appendRecord(
        req.events[i]!,
        req.pid,
        req.epoch,
        req.pid >= 0 ? req.firstSeq + i : -1,
        req.txn,
        0,
        e,
        req.sends[i]!,
        w.now,
      );
    }
    if (req.txn >= 0) this.cluster.txnPartitionAdded(req.txn, p);
    if (req.pid >= 0) p.rememberBatch(req.pid, req.epoch, req.firstSeq, req.firstSeq + n - 1, base);
    const self = p.replica(this.number)!;
    self.leo = p.leo;
    self.caughtUpAt = w.now;
    this.cluster.replicate(p, e);
    if (req.acks === '1') respond({ error: 'NONE', offset: base, appended: true }, e);
    else if (req.acks === 'all')
      this.respondWhenReplicated(
        p,
        p.leo,
        'all',
        () => respond({ error: 'NONE', offset: base, appended: true }, e),
        reject,
        onCrash,
      );
    // A random leader failover strikes here: appended (and, with acks=1, acknowledged), not
    // yet copied by any follower.
    w.faults.leaderAppended(this, req.topic.name, p.index, req.events[0]!, e);
  }

  /**
   * Handle a fetch: answer at once with the records from `offset` below the readable end (the
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
    cause: number,
    respond: (r: FetchResult, cause: number) => void,
  ): void {
    const p = topic.partitions[partition]!;
    if (p.leader !== this.number) {
      respond(
        { error: 'NOT_LEADER_OR_FOLLOWER', offsets: NO_RECORDS, events: NO_RECORDS, next: offset },
        cause,
      );
      return;
    }
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
    // Markers and aborted records are skipped: `next` moves the position past them.
    respond(
      {
        error: 'NONE',
        offsets: arena.subarray(at, at + k),
        events: arena.subarray(at + room, at + room + k),
        next: Math.max(o, offset),
      },
      cause,
    );
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
    acks: '0' | '1' | 'all',
    fn: () => void,
    reject: (code: ErrorCode, cause: number) => void,
    onCrash?: (crash: number) => void,
  ): void {
    if (acks !== 'all' || p.hw >= end) {
      if (acks !== '0') fn();
      return;
    }
    this.cluster.awaitHw(
      p,
      end,
      this,
      (cause) => {
        if (p.isr.size < this.cluster.minIsr) reject('NOT_ENOUGH_REPLICAS_AFTER_APPEND', cause);
        else fn();
      },
      onCrash,
    );
  }
}

/** Committed offsets of one consumer group (membership lives in processors/group.ts). */
export interface GroupState {
  /** topic index → partition → committed offset (the next offset to read). */
  committed: Map<number, Map<number, number>>;
}

/** Transaction bookkeeping at the coordinator. */
export interface TxnRecord {
  no: number;
  transactionalId: string;
  pid: number;
  epoch: number;
  /**
   * 'Empty': numbered by its producer, not begun at the coordinator yet — its AddPartitionsToTxn /
   * AddOffsetsToTxn was refused with CONCURRENT_TRANSACTIONS while the transactional id's previous
   * transaction completes ({@link Coordinator.beginTxn}); its records wait in the producer.
   */
  state:
    'Empty' | 'Ongoing' | 'PrepareCommit' | 'PrepareAbort' | 'CompleteCommit' | 'CompleteAbort';
  partitions: Set<Partition>;
  /** Offsets sent with sendOffsetsToTransaction: group → topic → partition → offset. */
  offsets: { group: string; topic: number; partition: number; offset: number }[];
  startedAt: number;
}

/**
 * The cluster: brokers, topics, the controller's elections, replication, and the coordinators.
 * The group and transaction coordinators are modelled as always available (their own failover is
 * out of scope); the brokers that lead partitions can crash.
 */
export class Cluster {
  readonly brokers: BrokerNode[] = [];
  readonly topics = new Map<string, Topic>();
  readonly minIsr: number;
  readonly coordinator: Coordinator;
  private readonly hwWaiters = new Map<
    Partition,
    {
      end: number;
      broker: BrokerNode;
      fn: (cause: number) => void;
      onCrash: ((crash: number) => void) | undefined;
    }[]
  >();
  /** pid → the epoch that fenced it (a newer one), for zombie writes to partitions it never wrote. */
  private readonly fenced = new Map<number, number>();
  private nextPid = 1000;
  private readonly txns = new Map<number, TxnRecord>();

  constructor(
    readonly world: World,
    private readonly lab: Actor,
  ) {
    const b = world.scenario.broker;
    for (let i = 1; i <= b.brokers; i++) this.brokers.push(new BrokerNode(world, this, i));
    this.minIsr = b['min.insync.replicas'];
    this.coordinator = new Coordinator(world, this);
  }

  /** Create a topic with `partitions` partitions, replicas placed round-robin over the brokers. */
  createTopic(name: string, partitions: number): Topic {
    const w = this.world;
    const b = w.scenario.broker;
    const index = w.topicIndex(name);
    const rf = b['replication.factor'];
    const topic: Topic = { name, index, partitions: [] };
    // Each partition's share of the workload, with room for an uneven spread of keys: a
    // million-event log is allocated once instead of through doublings of nine columns.
    const expected = Math.ceil((w.events.count / partitions) * 1.1);
    for (let p = 0; p < partitions; p++) {
      const replicas: number[] = [];
      for (let r = 0; r < rf; r++) replicas.push(((p + r) % b.brokers) + 1);
      topic.partitions.push(new Partition(index, name, p, replicas, expected));
    }
    this.topics.set(name, topic);
    return topic;
  }

  broker(n: number): BrokerNode {
    return this.brokers[n - 1]!;
  }

  /** The broker process currently leading a partition, or undefined if it is offline. */
  leaderOf(p: Partition): BrokerNode | undefined {
    return p.leader > 0 ? this.broker(p.leader) : undefined;
  }

  allocatePid(): number {
    return this.nextPid++;
  }

  fencedEpoch(pid: number): number {
    return this.fenced.get(pid) ?? -1;
  }

  fence(pid: number, newEpoch: number): void {
    this.fenced.set(pid, newEpoch);
  }

  /**
   * Copy the leader's new records to its live followers after a fetch round trip; then advance the
   * high watermark. Coalesced: one pending copy per follower.
   */
  replicate(p: Partition, cause: number): void {
    const w = this.world;
    const leader = this.leaderOf(p);
    if (!leader) return;
    for (const r of p.replicas) {
      if (r.broker === p.leader || r.replicationPending) continue;
      const follower = this.broker(r.broker);
      if (!follower.alive) continue;
      r.replicationPending = true;
      const rtt = w.latency(follower, leader) + w.latency(leader, follower);
      w.scheduleGlobal(rtt, () => {
        r.replicationPending = false;
        if (!follower.alive || !leader.alive || p.leader !== leader.number) return;
        r.leo = Math.max(r.leo, p.leo);
        r.caughtUpAt = w.now;
        // A follower that has caught up with the leader rejoins the ISR.
        if (!p.isr.has(r.broker) && r.leo >= p.leo) {
          p.isr.add(r.broker);
          writeIsr(w.trace, w.now, this.lab.id, cause, p.topic, p.index, r.leo, 1, r.broker);
        }
        this.advanceHw(p, cause);
        if (r.leo < p.leo) this.replicate(p, cause);
      });
    }
    this.advanceHw(p, cause);
  }

  /** HW = the smallest LEO among ISR replicas; release acks=all waits and wake fetchers. */
  advanceHw(p: Partition, cause: number): void {
    let hw = p.leo;
    for (const r of p.replicas) if (p.isr.has(r.broker) && r.leo < hw) hw = r.leo;
    if (hw <= p.hw) return;
    const w = this.world;
    p.hw = hw;
    const h = writeHighWatermark(w.trace, w.now, this.lab.id, cause, p.topic, p.index, hw);
    const waiting = this.hwWaiters.get(p);
    if (waiting) {
      const keep: typeof waiting = [];
      for (const x of waiting) {
        if (x.end <= hw) {
          if (x.broker.alive && p.leader === x.broker.number) x.fn(h);
        } else keep.push(x);
      }
      if (keep.length > 0) this.hwWaiters.set(p, keep);
      else this.hwWaiters.delete(p);
    }
    p.notify();
  }

  /**
   * Call `fn` with the HW's cause once `p`'s HW reaches `end` (while `broker` still leads), or
   * `onCrash` with the 'crash' entry if `broker` dies first.
   */
  awaitHw(
    p: Partition,
    end: number,
    broker: BrokerNode,
    fn: (cause: number) => void,
    onCrash?: (crash: number) => void,
  ): void {
    let list = this.hwWaiters.get(p);
    if (!list) this.hwWaiters.set(p, (list = []));
    list.push({ end, broker, fn, onCrash });
  }

  /** A broker died: the controller notices after `broker.session.timeout.ms`. */
  brokerDown(b: BrokerNode, cause: number): void {
    const w = this.world;
    const inc = b.incarnation;
    // Requests waiting for replication on this leader will never be answered: the crash closes
    // the connections they came on, and their clients see it.
    const dropped: ((crash: number) => void)[] = [];
    for (const [p, list] of this.hwWaiters) {
      const keep: typeof list = [];
      for (const x of list) {
        if (x.broker !== b) keep.push(x);
        else if (x.onCrash) dropped.push(x.onCrash);
      }
      if (keep.length > 0) this.hwWaiters.set(p, keep);
      else this.hwWaiters.delete(p);
    }
    for (const f of dropped) f(cause);
    const sessionTimeout = w.scenario.broker['broker.session.timeout.ms'];
    w.scheduleGlobal(sessionTimeout, () => {
      if (b.alive && b.incarnation === inc) return;
      this.handleBrokerLoss(b, cause);
    });
    this.shrinkIsrOnLag(b, cause, w.now + sessionTimeout);
    for (const t of this.topics.values()) for (const p of t.partitions) p.notify();
  }

  /**
   * The leaders of a dead broker's follower replicas drop it from their ISR once it has not caught
   * up for longer than `replica.lag.time.max.ms`, at their periodic ISR check ("isr-expiration",
   * every replica.lag.time.max.ms / 2 from the leader's start: "a follower can lag behind leader
   * for up to replicaLagTimeMaxMs x 1.5 before it is removed from ISR", Kafka's ReplicaManager;
   * https://kafka.apache.org/documentation/#brokerconfigs_replica.lag.time.max.ms). Only when that
   * check comes before the controller's own removal of the broker at `controllerAt`
   * (broker.session.timeout.ms after the crash): with the defaults, 30 s against 9 s, it never does.
   * A follower that was caught up when it died was caught up until then (it fetched at the log end).
   */
  private shrinkIsrOnLag(b: BrokerNode, cause: number, controllerAt: number): void {
    const w = this.world;
    const lag = w.scenario.broker['replica.lag.time.max.ms'];
    const period = Math.max(1, Math.floor(lag / 2));
    for (const topic of this.topics.values())
      for (const p of topic.partitions) {
        const r = p.replica(b.number);
        if (!r || p.leader < 0 || p.leader === b.number || !p.isr.has(b.number)) continue;
        const leader = this.broker(p.leader);
        const caughtUp = r.leo >= p.leo ? w.now : r.caughtUpAt;
        // Out of sync once now − caughtUp > lag: the first check strictly after caughtUp + lag.
        const start = leader.startedAt;
        const at = start + (Math.floor((caughtUp + lag - start) / period) + 1) * period;
        if (at >= controllerAt) continue;
        const leaderInc = leader.incarnation;
        w.scheduleGlobal(Math.max(0, at - w.now), () => {
          if (!leader.alive || leader.incarnation !== leaderInc || p.leader !== leader.number)
            return;
          if (!p.isr.has(b.number) || (this.broker(b.number).alive && r.leo >= p.leo)) return;
          p.isr.delete(b.number);
          writeIsr(w.trace, w.now, this.lab.id, cause, p.topic, p.index, -1, 0, b.number);
          this.advanceHw(p, cause);
        });
      }
  }

  /** The controller's reaction to a dead broker: shrink ISRs, elect new leaders. */
  private handleBrokerLoss(b: BrokerNode, cause: number): void {
    const w = this.world;
    const unclean = w.scenario.broker['unclean.leader.election.enable'];
    for (const topic of this.topics.values()) {
      for (const p of topic.partitions) {
        if (!p.replica(b.number)) continue;
        if (b.alive) continue;
        if (p.isr.has(b.number) && p.isr.size > 1) {
          p.isr.delete(b.number);
          writeIsr(w.trace, w.now, this.lab.id, cause, p.topic, p.index, -1, 0, b.number);
        }
        if (p.leader === b.number || p.leader < 0) this.elect(p, cause, unclean);
        else this.advanceHw(p, cause);
      }
    }
  }

  /** Elect a leader for `p` among live ISR replicas (or any live replica when unclean). */
  elect(p: Partition, cause: number, unclean: boolean): void {
    const w = this.world;
    const live = p.replicas.filter((r) => this.broker(r.broker).alive);
    let next = live.find((r) => p.isr.has(r.broker));
    if (!next && unclean) next = live[0];
    if (!next) {
      if (p.leader > 0) {
        p.leader = -1;
        writeLeader(w.trace, w.now, this.lab.id, cause, p.topic, p.index, -1, -1, -1);
      }
      return;
    }
    const old = p.leo;
    const oldHw = p.hw;
    p.leader = next.broker;
    p.leaderEpoch++;
    const le = writeLeader(
      w.trace,
      w.now,
      this.lab.id,
      cause,
      p.topic,
      p.index,
      next.leo,
      next.broker,
      p.leaderEpoch,
    );
    if (!p.isr.has(next.broker)) {
      p.isr.clear();
      p.isr.add(next.broker);
    }
    for (const r of p.replicas) if (!this.broker(r.broker).alive) p.isr.delete(r.broker);
    if (next.leo < old) {
      const first = next.leo;
      const removed = p.truncate(next.leo);
      const te = writeTruncate(w.trace, w.now, this.lab.id, le, p.topic, p.index, first, removed);
      if (first < oldHw)
        writeDataLoss(
          w.trace,
          w.now,
          this.lab.id,
          te,
          p.topic,
          p.index,
          first,
          oldHw - first,
          errorIndex('OFFLINE_PARTITION'),
          -1,
        );
    }
    // The HW is recomputed from the new ISR (it never moves below what consumers may have read
    // in a clean election, since every ISR replica has it).
    p.hw = Math.min(p.hw, p.leo);
    this.advanceHw(p, le);
    // Live followers outside the ISR (back from a crash while the partition had no leader) fetch
    // from the new leader, as a follower always does ("Followers consume messages from the leader
    // just as a normal Kafka consumer would", https://kafka.apache.org/documentation/#replication),
    // and rejoin once caught up. Nothing else
    // would start their fetch: with the ISR below min.insync.replicas no acks=all write is
    // accepted to trigger one, and the partition would refuse writes for good.
    if (p.replicas.some((r) => !p.isr.has(r.broker) && this.broker(r.broker).alive))
      this.replicate(p, le);
    this.flushMarkers(p, le);
    p.notify();
  }

  /** A broker came back: it follows again, catching up from the leader; offline partitions get a leader. */
  brokerUp(b: BrokerNode, cause: number): void {
    for (const topic of this.topics.values()) {
      for (const p of topic.partitions) {
        const r = p.replica(b.number);
        if (!r) continue;
        if (p.leader < 0) {
          this.elect(p, cause, this.world.scenario.broker['unclean.leader.election.enable']);
          continue;
        }
        if (p.leader === b.number) {
          // It leads again with the log it has: markers that waited for it are written now, and
          // its live followers fetch from it again, as followers always do — copying what it
          // had appended before it died (a retried batch may then be recognised as written and
          // acknowledged without waiting for a new append to start their fetch).
          this.flushMarkers(p, cause);
          this.replicate(p, cause);
          continue;
        }
        this.replicate(p, cause);
      }
    }
    // The dead broker's leadership may not have moved yet (it came back before the controller
    // noticed): it simply leads again, with the log it has.
  }

  // ---- transactions (bookkeeping shared by the coordinator and the partitions) ----

  newTxn(transactionalId: string, pid: number, epoch: number): TxnRecord {
    const no = this.txns.size + 1;
    const rec: TxnRecord = {
      no,
      transactionalId,
      pid,
      epoch,
      state: 'Ongoing',
      partitions: new Set(),
      offsets: [],
      startedAt: this.world.now,
    };
    this.txns.set(no, rec);
    return rec;
  }

  txn(no: number): TxnRecord | undefined {
    return this.txns.get(no);
  }

  /** A partition received the first records of transaction `no`. */
  txnPartitionAdded(no: number, p: Partition): void {
    this.txns.get(no)?.partitions.add(p);
  }

  /**
   * Markers the coordinator could not write yet, per partition, in the order they were due: the
   * partition had no live leader. Kafka's TransactionMarkerChannelManager keeps such markers
   * queued ("markersQueueForUnknownBroker") and re-enqueues one a leader refused
   * (NOT_LEADER_OR_FOLLOWER, REQUEST_TIMED_OUT… in TransactionMarkerRequestCompletionHandler),
   * to the partition's leader of the moment, until it is written.
   */
  private readonly pendingMarkers = new Map<
    Partition,
    { rec: TxnRecord; commit: boolean; cause: number }[]
  >();
  /** Transaction number → its markers still to write, and what to do once all are written. */
  private readonly markerWaits = new Map<
    number,
    { rec: TxnRecord; left: number; done: (cause: number) => void }
  >();

  /**
   * Write the commit or abort marker of transaction `rec` to each of its partitions (each marker
   * takes one offset), so read_committed readers move past it; `done` runs once every marker is
   * written — at once when every partition has a live leader, else when the last one missing gets
   * one ({@link flushMarkers}): the coordinator completes the transaction only then — it stays
   * PrepareCommit / PrepareAbort until its last marker is written, and Kafka's
   * TransactionMarkerChannelManager writes the Complete state once no partition is left
   * (`maybeWriteTxnCompletion`; KIP-98,
   * https://cwiki.apache.org/confluence/display/KAFKA/KIP-98+-+Exactly+Once+Delivery+and+Transactional+Messaging;
   * TransactionMarkerRequestCompletionHandler:
   * https://github.com/apache/kafka/blob/trunk/core/src/main/scala/kafka/coordinator/transaction/TransactionMarkerRequestCompletionHandler.scala).
   */
  writeMarkers(
    rec: TxnRecord,
    commit: boolean,
    cause: number,
    done: (cause: number) => void,
  ): void {
    let left = 0;
    for (const p of rec.partitions) {
      if (this.liveLeaderOf(p)) {
        this.writeMarker(p, rec, commit, cause);
        continue;
      }
      let q = this.pendingMarkers.get(p);
      if (!q) this.pendingMarkers.set(p, (q = []));
      q.push({ rec, commit, cause });
      left++;
    }
    if (left === 0) done(cause);
    else this.markerWaits.set(rec.no, { rec, left, done });
  }

  /** Whether a transaction of `transactionalId` still has markers to write (it is completing). */
  completing(transactionalId: string): boolean {
    for (const m of this.markerWaits.values())
      if (m.rec.transactionalId === transactionalId) return true;
    return false;
  }

  /** Who waits for a transactional id's transactions to complete ({@link whenCompleted}). */
  private readonly completionWaiters = new Map<string, (() => void)[]>();

  /**
   * Run `fn` once no transaction of `transactionalId` has markers left to write (at once when
   * none has): a client refused with CONCURRENT_TRANSACTIONS asks again then.
   */
  whenCompleted(transactionalId: string, fn: () => void): void {
    if (!this.completing(transactionalId)) return fn();
    let list = this.completionWaiters.get(transactionalId);
    if (!list) this.completionWaiters.set(transactionalId, (list = []));
    list.push(fn);
  }

  /** Whether the marker of transaction `no` on `p` still waits for a leader. */
  markerPending(p: Partition, no: number): boolean {
    return this.pendingMarkers.get(p)?.some((m) => m.rec.no === no) ?? false;
  }

  /** The partition's leader if it is alive (a crashed one the controller has not replaced yet is not). */
  private liveLeaderOf(p: Partition): BrokerNode | undefined {
    const l = this.leaderOf(p);
    return l?.alive ? l : undefined;
  }

  /**
   * `p` has a live leader again (elected, or its leader back before the controller noticed it was
   * gone): write the markers queued for it, in order; a transaction whose last marker this was
   * completes.
   */
  private flushMarkers(p: Partition, cause: number): void {
    const q = this.pendingMarkers.get(p);
    if (!q || !this.liveLeaderOf(p)) return;
    this.pendingMarkers.delete(p);
    for (const m of q) {
      const e = this.writeMarker(p, m.rec, m.commit, cause);
      const wait = this.markerWaits.get(m.rec.no);
      if (!wait || --wait.left > 0) continue;
      this.markerWaits.delete(m.rec.no);
      wait.done(e);
      const tid = m.rec.transactionalId;
      const waiters = this.completionWaiters.get(tid);
      if (!waiters || this.completing(tid)) continue;
      this.completionWaiters.delete(tid);
      for (const f of waiters) f();
    }
  }

  /** Append one marker of `rec` at `p`'s leader; returns its 'marker' entry. */
  private writeMarker(p: Partition, rec: TxnRecord, commit: boolean, cause: number): number {
    const w = this.world;
    const leader = this.leaderOf(p)!;
    const e = writeMarker(
      w.trace,
      w.now,
      leader.id,
      cause,
      p.topic,
      p.index,
      p.leo,
      commit ? 1 : 0,
      rec.no,
    );
    p.appendRecord(
      -1,
      rec.pid,
      rec.epoch,
      -1,
      rec.no,
      REC_CONTROL | (commit ? REC_COMMIT_MARKER : 0),
      e,
      -1,
      w.now,
    );
    p.txnOutcome.set(rec.no, commit ? 'committed' : 'aborted');
    p.openTxns.delete(rec.no);
    const self = p.replica(leader.number)!;
    self.leo = p.leo;
    this.replicate(p, e);
    p.notify();
    return e;
  }
}

/**
 * Group coordinator and transaction coordinator (one always-available actor).
 * Offsets: https://kafka.apache.org/documentation/#consumerapi (commitSync, CommitFailedException).
 * Transactions: KafkaProducer javadoc (initTransactions, sendOffsetsToTransaction,
 * commitTransaction) and KIP-98.
 */
export class Coordinator extends Actor {
  readonly groups = new Map<string, GroupState>();
  /** transactional.id → producer id, epoch and the current transaction. */
  /**
   * transactional.id → its producer id, epoch and open transaction; `timedOut` is the epoch whose
   * transaction the coordinator aborted on timeout (KIP-588: that producer may claim the bumped
   * epoch and go on), or -1.
   */
  readonly producers = new Map<
    string,
    {
      pid: number;
      epoch: number;
      current: TxnRecord | null;
      timedOut: number;
      /** The epoch whose producer claimed the current one after a timeout, or -1. */
      claimedFrom: number;
    }
  >();

  constructor(
    world: World,
    readonly cluster: Cluster,
  ) {
    super(world, 'coordinator');
  }

  /**
   * The transactions still open when the run ends (src/engine/stuck.ts): begun and neither
   * committed nor aborted — their records hold back every read_committed reader of their
   * partitions (the last stable offset) until transaction.timeout.ms aborts them.
   */
  override pendingWork(): PendingWork[] {
    const out: PendingWork[] = [];
    for (const [tid, st] of this.producers) {
      const t = st.current;
      if (
        !t ||
        (t.state !== 'Ongoing' && t.state !== 'PrepareCommit' && t.state !== 'PrepareAbort')
      )
        continue;
      out.push({
        what: `the end of transaction ${t.no} of ${tid} (${t.state})`,
        since: t.startedAt,
      });
    }
    return out;
  }

  protected override onRestart(): void {}

  group(id: string): GroupState {
    let g = this.groups.get(id);
    if (!g) {
      g = { committed: new Map() };
      this.groups.set(id, g);
    }
    return g;
  }

  committed(group: string, topic: number, partition: number): number | undefined {
    return this.group(group).committed.get(topic)?.get(partition);
  }

  /** Store a committed offset (no checks; callers check generation and ownership). */
  storeOffset(group: string, topic: number, partition: number, offset: number): void {
    const g = this.group(group);
    let t = g.committed.get(topic);
    if (!t) g.committed.set(topic, (t = new Map()));
    t.set(partition, offset);
  }

  /**
   * `InitProducerId` for a transactional id: complete or abort the previous instance's
   * transaction, then bump the epoch, fencing any older instance ("Ensures any transactions
   * initiated by previous instances of the producer with the same transactional.id are completed.
   * If the previous instance had failed with a transaction in progress, it will be aborted. If the
   * last transaction had begun completion, but not yet finished, this method awaits its
   * completion." — KafkaProducer#initTransactions).
   *
   * A transactional request whose `transaction.timeout.ms` (`timeoutMs`) exceeds the broker's
   * `transaction.max.timeout.ms` is refused first, with nothing fenced: INVALID_TRANSACTION_TIMEOUT
   * (https://kafka.apache.org/documentation/#brokerconfigs_transaction.max.timeout.ms). Then
   * `pid` and `epoch` are -1 and `error` says why; otherwise `error` is 'NONE'. While the id's
   * last transaction is still completing (a marker waits for a leader), the answer is
   * CONCURRENT_TRANSACTIONS, with `entry` its 'reject' entry: the client asks again.
   */
  initProducerId(
    transactionalId: string | null,
    timeoutMs: number,
    cause: number,
  ): { pid: number; epoch: number; error: ErrorCode; entry?: number } {
    const c = this.cluster;
    if (transactionalId === null) return { pid: c.allocatePid(), epoch: 0, error: 'NONE' };
    if (timeoutMs > this.world.scenario.broker['transaction.max.timeout.ms']) {
      const w = this.world;
      const code: ErrorCode = 'INVALID_TRANSACTION_TIMEOUT';
      writeReject(w.trace, w.now, this.id, cause, -1, -1, -1, -1, -1, errorIndex(code));
      return { pid: -1, epoch: -1, error: code };
    }
    let st = this.producers.get(transactionalId);
    if (!st) {
      st = { pid: c.allocatePid(), epoch: 0, current: null, timedOut: -1, claimedFrom: -1 };
      this.producers.set(transactionalId, st);
      return { pid: st.pid, epoch: st.epoch, error: 'NONE' };
    }
    // The last transaction has begun completion but not finished (a marker waits for a
    // partition leader): "this method awaits its completion" — the coordinator answers
    // CONCURRENT_TRANSACTIONS and the client asks again (TransactionCoordinator,
    // handleInitProducerId: PrepareCommit | PrepareAbort → CONCURRENT_TRANSACTIONS).
    if (c.completing(transactionalId)) return this.concurrent(cause);
    const cur = st.current;
    if (cur && cur.state === 'Ongoing') this.endTxn(cur, false, cause, TXN_REASON_FENCED);
    st.epoch++;
    st.timedOut = -1;
    st.claimedFrom = -1;
    st.current = null;
    c.fence(st.pid, st.epoch);
    const w = this.world;
    writeFenced(w.trace, w.now, this.id, cause, st.epoch);
    return { pid: st.pid, epoch: st.epoch, error: 'NONE' };
  }

  /**
   * Whether the producer of `transactionalId` at `epoch` lost its transaction to the timeout and
   * no newer instance has started since: it may claim the bumped epoch (KIP-588).
   */
  timedOutAt(transactionalId: string, epoch: number): boolean {
    return this.producers.get(transactionalId)?.timedOut === epoch;
  }

  /**
   * `InitProducerId` with the producer's current id and epoch, after its transaction was aborted
   * on timeout (KIP-588, Kafka ≥ 2.7): the coordinator remembers the timeout and hands that
   * producer the bumped epoch, so it goes on instead of being fenced. Returns the epoch, or -1
   * (PRODUCER_FENCED) when another instance has started since.
   * https://cwiki.apache.org/confluence/display/KAFKA/KIP-588:+Allow+producers+to+recover+gracefully+from+transaction+timeouts
   */
  claimAfterTimeout(transactionalId: string, epoch: number): number {
    const st = this.producers.get(transactionalId);
    if (!st) return -1;
    // A retry of a claim already granted (its answer was lost): "If the expected epoch matches
    // the previous epoch, it is a retry of a successful call, so just return the current epoch
    // without incrementing" (TransactionCoordinator, prepareInitProducerIdTransit).
    if (st.timedOut === -1 && st.claimedFrom === epoch) return st.epoch;
    if (st.timedOut !== epoch) return -1;
    st.timedOut = -1;
    st.claimedFrom = epoch;
    return st.epoch;
  }

  /** Is (pid, epoch) the current instance of its transactional id? */
  isCurrent(transactionalId: string, epoch: number): boolean {
    const st = this.producers.get(transactionalId);
    return st !== undefined && st.epoch === epoch;
  }

  /**
   * Begin a transaction for the current instance (its first AddPartitionsToTxn / AddOffsetsToTxn
   * accepted): Ongoing from now; arms the `transaction.timeout.ms` abort. `numbered` is a
   * transaction its producer numbered while the coordinator refused to begin it ('Empty'); by
   * default a new one.
   */
  beginTxn(
    transactionalId: string,
    timeoutMs: number,
    cause: number,
    numbered?: TxnRecord,
  ): TxnRecord {
    const st = this.producers.get(transactionalId)!;
    const rec = numbered ?? this.cluster.newTxn(transactionalId, st.pid, st.epoch);
    rec.state = 'Ongoing';
    rec.startedAt = this.world.now;
    st.current = rec;
    const w = this.world;
    const e = writeTxn(w.trace, w.now, this.id, cause, -1, 0, rec.no);
    // "The maximum amount of time … that a transaction will remain open before the coordinator
    // proactively aborts it" (transaction.timeout.ms). The abort bumps the epoch, fencing the
    // producer that let it expire.
    w.scheduleGlobal(timeoutMs, () => {
      if (rec.state !== 'Ongoing') return;
      this.endTxn(rec, false, e, TXN_REASON_TIMEOUT);
      st.timedOut = st.epoch;
      st.claimedFrom = -1;
      st.epoch++;
      this.cluster.fence(st.pid, st.epoch);
      if (st.current === rec) st.current = null;
    });
    return rec;
  }

  /**
   * Record offsets to be committed with transaction `rec` (sendOffsetsToTransaction). A partition
   * already listed takes the new offset: a repeated TxnOffsetCommit changes nothing.
   */
  addOffsets(
    rec: TxnRecord,
    group: string,
    offsets: { topic: number; partition: number; offset: number }[],
  ): void {
    for (const o of offsets) {
      const same = rec.offsets.find(
        (x) => x.group === group && x.topic === o.topic && x.partition === o.partition,
      );
      if (same) same.offset = o.offset;
      else rec.offsets.push({ group, ...o });
    }
  }

  /**
   * `EndTxn`: log the decision (PrepareCommit / PrepareAbort) — from here the outcome is durable —
   * then write the markers and complete. The marker write takes a network hop to the leaders.
   */
  endTxn(
    rec: TxnRecord,
    commit: boolean,
    cause: number,
    reason: number = TXN_REASON_REQUESTED,
  ): void {
    if (rec.state !== 'Ongoing') return;
    const w = this.world;
    rec.state = commit ? 'PrepareCommit' : 'PrepareAbort';
    const e = writeTxn(w.trace, w.now, this.id, cause, reason, commit ? 1 : 2, rec.no);
    this.completeTxn(rec, commit, e);
  }

  /**
   * Write the transaction's markers; once every one is written (a partition without a live leader
   * keeps its marker waiting, see {@link Cluster.writeMarkers}), store its offsets if it commits
   * and mark it CompleteCommit / CompleteAbort.
   */
  private completeTxn(rec: TxnRecord, commit: boolean, cause: number): void {
    const w = this.world;
    this.cluster.writeMarkers(rec, commit, cause, (c) => {
      if (commit)
        for (const o of rec.offsets) this.storeOffset(o.group, o.topic, o.partition, o.offset);
      rec.state = commit ? 'CompleteCommit' : 'CompleteAbort';
      writeTxn(w.trace, w.now, this.id, c, -1, commit ? 3 : 4, rec.no);
    });
  }

  /**
   * CONCURRENT_TRANSACTIONS: a request that must wait until the transactional id's last
   * transaction has completed (its markers written); retriable, the client sends it again after
   * retry.backoff.ms. Returns the 'reject' entry.
   */
  concurrent(cause: number): { pid: number; epoch: number; error: ErrorCode; entry: number } {
    const w = this.world;
    const code: ErrorCode = 'CONCURRENT_TRANSACTIONS';
    const entry = writeReject(w.trace, w.now, this.id, cause, -1, -1, -1, -1, -1, errorIndex(code));
    return { pid: -1, epoch: -1, error: code, entry };
  }
}
