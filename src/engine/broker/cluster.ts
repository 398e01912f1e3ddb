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
import type { EntryId } from '../ids';
import type { Actor, World } from '../world';
import { Partition, type Replica } from './partition';
import type { ErrorCode } from '../trace';
import { ERROR_CODES } from '../trace';
import {
  writeDataLoss,
  writeHighWatermark,
  writeIsr,
  writeLeader,
  writeTruncate,
} from '../traceWriters';
import { BrokerNode } from './brokerNode';
import { Coordinator } from './coordinator';
import { Replication } from './replication';
import { TxnMarkers } from './txnMarkers';

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
  /**
   * The producer batch's column, as it is (no view made per request): the workload event of each
   * record at `records[0..count)`, its 'app-send' entry (provenance) at
   * `records[sendsAt..sendsAt + count)`.
   */
  records: Int32Array;
  count: number;
  sendsAt: number;
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

/** A dead broker, as the controller's session timeout finds it. */
interface BrokerLoss {
  broker: BrokerNode;
  /** Its incarnation after the crash (a restart since makes it another). */
  inc: number;
  cause: EntryId;
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
  /** Follower fetches, high watermarks, and the acks=all requests waiting for them. */
  readonly replication: Replication;
  /** Transaction markers, written and waiting for a leader. */
  readonly markers: TxnMarkers;
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
    this.replication = new Replication(world, this, lab);
    this.markers = new TxnMarkers(world, this);
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

  /** A broker died: the controller notices after `broker.session.timeout.ms`. */
  brokerDown(b: BrokerNode, cause: EntryId): void {
    const w = this.world;
    this.replication.endHeldFetches(b);
    this.replication.dropWaitersOn(b, cause);
    const sessionTimeout = w.scenario.broker['broker.session.timeout.ms'];
    const loss: BrokerLoss = { broker: b, inc: b.incarnation, cause };
    w.scheduleCall(sessionTimeout, null, this, this.controllerNoticed, loss);
    this.replication.shrinkIsrOnLag(b, cause, w.now + sessionTimeout);
    for (const t of this.topics.values()) for (const p of t.partitions) p.notify();
  }

  /** The controller's session timeout: the broker is still down (in the incarnation it died in). */
  private controllerNoticed({ broker, inc, cause }: BrokerLoss): void {
    if (broker.alive && broker.incarnation === inc) return;
    this.handleBrokerLoss(broker, cause);
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
        else this.replication.advanceHw(p, cause);
      }
    }
  }

  /** Elect a leader for `p` among live ISR replicas (or any live replica when unclean). */
  elect(p: Partition, cause: EntryId, unclean: boolean): void {
    const w = this.world;
    // The leader that stops leading keeps the high watermark it had as its own.
    const prev = p.leader > 0 ? p.replica(p.leader) : undefined;
    if (prev) prev.hw = p.hw;
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
    next.leoAtLeader = next.leo;
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
    this.startLeading(p, next, le);
    // Live followers fetch from the new leader, as a follower always does ("Followers consume
    // messages from the leader just as a normal Kafka consumer would",
    // https://kafka.apache.org/documentation/#replication): those outside the ISR (back from a
    // crash while the partition had no leader) rejoin once caught up, and those the new leader
    // does not yet know to hold its whole log tell it so, letting the high watermark move.
    // Nothing else would start their fetch: with the ISR below min.insync.replicas no acks=all
    // write is accepted to trigger one, and the partition would refuse writes for good.
    const behind = (r: Replica) =>
      r.broker !== p.leader && (!p.isr.has(r.broker) || r.leoAtLeader < p.leo);
    if (p.replicas.some((r) => behind(r) && this.broker(r.broker).alive))
      this.replication.replicate(p, le);
    this.markers.flushMarkers(p, le);
    p.notify();
  }

  /**
   * `next` has just become `p`'s leader (Kafka's Partition.makeLeader): it starts from the high
   * watermark it learned as a follower, a fetch round behind the old leader's; what it knew of
   * the other replicas' log ends is reset (Replica.resetReplicaState: unknown until each fetches
   * from it, an ISR member counted caught up now), so its high watermark moves again only as
   * they fetch; and until it reaches the log end it leads from (the epoch's start offset), a
   * ListOffsets for the latest offset is OFFSET_NOT_AVAILABLE
   * (docs/semantics/broker.md#a-new-leaders-high-watermark).
   */
  private startLeading(p: Partition, next: Replica, le: EntryId): void {
    const w = this.world;
    p.epochStartOffset = p.leo;
    for (const r of p.replicas) {
      if (r === next) continue;
      r.leoAtLeader = 0;
      r.caughtUpAt = p.isr.has(r.broker) ? w.now : 0;
    }
    const learned = Math.min(next.hw, p.leo);
    if (learned !== p.hw) {
      p.hw = learned;
      writeHighWatermark(w.trace, w.now, this.lab.id, le, p.topic, p.index, learned, true);
    }
    // A leader alone in the ISR has its high watermark at its own end at once.
    this.replication.advanceHw(p, le);
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
          this.markers.flushMarkers(p, cause);
          this.replication.replicate(p, cause);
          continue;
        }
        this.replication.replicate(p, cause);
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
}
