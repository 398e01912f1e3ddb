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
import { NO_ENTRY, NO_EVENT, type EntryId } from '../ids';
import type { Actor, World } from '../world';
import { Partition, REC_COMMIT_MARKER, REC_CONTROL } from './partition';
import type { ErrorCode } from '../trace';
import { ERROR_CODES } from '../trace';
import {
  writeDataLoss,
  writeHighWatermark,
  writeIsr,
  writeLeader,
  writeMarker,
  writeTruncate,
} from '../traceWriters';
import { BrokerNode } from './brokerNode';
import { Coordinator } from './coordinator';

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
      fn: (cause: EntryId) => void;
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
  replicate(p: Partition, cause: EntryId): void {
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
  advanceHw(p: Partition, cause: EntryId): void {
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
    fn: (cause: EntryId) => void,
    onCrash?: (crash: number) => void,
  ): void {
    let list = this.hwWaiters.get(p);
    if (!list) this.hwWaiters.set(p, (list = []));
    list.push({ end, broker, fn, onCrash });
  }

  /** A broker died: the controller notices after `broker.session.timeout.ms`. */
  brokerDown(b: BrokerNode, cause: EntryId): void {
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
  private shrinkIsrOnLag(b: BrokerNode, cause: EntryId, controllerAt: number): void {
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
  private handleBrokerLoss(b: BrokerNode, cause: EntryId): void {
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
  elect(p: Partition, cause: EntryId, unclean: boolean): void {
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
  brokerUp(b: BrokerNode, cause: EntryId): void {
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
    { rec: TxnRecord; commit: boolean; cause: EntryId }[]
  >();
  /** Transaction number → its markers still to write, and what to do once all are written. */
  private readonly markerWaits = new Map<
    number,
    { rec: TxnRecord; left: number; done: (cause: EntryId) => void }
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
    cause: EntryId,
    done: (cause: EntryId) => void,
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
  private flushMarkers(p: Partition, cause: EntryId): void {
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
  private writeMarker(p: Partition, rec: TxnRecord, commit: boolean, cause: EntryId): EntryId {
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
      NO_EVENT,
      rec.pid,
      rec.epoch,
      -1,
      rec.no,
      REC_CONTROL | (commit ? REC_COMMIT_MARKER : 0),
      e,
      NO_ENTRY,
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
