/**
 * Replication inside the cluster: followers copy the leader's new records one fetch round trip
 * later, the high watermark follows the ISR's smallest log end, and produce requests with
 * `acks=all` wait for it (https://kafka.apache.org/documentation/#replication). A follower that
 * died leaves the ISR at the leader's periodic lag check when that comes before the controller
 * notices the death. Every wait is held as data (a record and a method), so a snapshot of the run
 * copies it (docs/ARCHITECTURE.md, "Pending work and forks").
 */
import type { EntryId } from '../ids';
import type { Actor, World } from '../world';
import { run, type Call, type Callback } from '../core/call';
import { writeHighWatermark, writeIsr } from '../traceWriters';
import type { Partition, Replica } from './partition';
import type { BrokerNode } from './brokerNode';
import type { Cluster, ProduceRequest, ProduceResult } from './cluster';

/** A produce request waiting for the ISR to have its records (acks=all). */
export interface HwWaiter {
  /** The log end the high watermark must reach. */
  end: number;
  /** The leader that took the request (its answer is dropped if it no longer leads). */
  broker: BrokerNode;
  req: ProduceRequest;
  /** The answer to give once replicated, and the entry it follows from. */
  answer: ProduceResult;
  answerCause: EntryId;
  respond: Call<ProduceResult, EntryId>;
  /** Runs with the 'crash' entry if `broker` dies while the request waits. */
  onCrash: Callback<EntryId> | undefined;
}

/** A follower's fetch of the leader's new records, one round trip long. */
interface FollowerFetch {
  p: Partition;
  r: Replica;
  leader: BrokerNode;
  follower: BrokerNode;
  cause: EntryId;
}

/** A leader's periodic ISR check that finds a dead follower out of sync. */
interface LagCheck {
  p: Partition;
  r: Replica;
  leader: BrokerNode;
  leaderInc: number;
  /** The dead follower's broker. */
  follower: number;
  cause: EntryId;
}

/** The cluster's replication: follower fetches, high watermarks, and who waits for them. */
export class Replication {
  private readonly hwWaiters = new Map<Partition, HwWaiter[]>();

  constructor(
    private readonly world: World,
    private readonly cluster: Cluster,
    private readonly lab: Actor,
  ) {}

  /**
   * Copy the leader's new records to its live followers after a fetch round trip; then advance the
   * high watermark. Coalesced: one pending copy per follower.
   */
  replicate(p: Partition, cause: EntryId): void {
    const w = this.world;
    const leader = this.cluster.leaderOf(p);
    if (!leader) return;
    for (const r of p.replicas) {
      if (r.broker === p.leader || r.replicationPending) continue;
      const follower = this.cluster.broker(r.broker);
      if (!follower.alive) continue;
      r.replicationPending = true;
      const rtt = w.latency(follower, leader) + w.latency(leader, follower);
      const fetch: FollowerFetch = { p, r, leader, follower, cause };
      w.scheduleCall(rtt, null, this, this.fetched, fetch);
    }
    this.advanceHw(p, cause);
  }

  /** A follower's fetch came back with the leader's log end. */
  private fetched({ p, r, leader, follower, cause }: FollowerFetch): void {
    const w = this.world;
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
      const keep: HwWaiter[] = [];
      for (const x of waiting) {
        if (x.end <= hw) {
          if (x.broker.alive && p.leader === x.broker.number) x.broker.replicated(p, x, h);
        } else keep.push(x);
      }
      if (keep.length > 0) this.hwWaiters.set(p, keep);
      else this.hwWaiters.delete(p);
    }
    p.notify();
  }

  /** Hold `x` until `p`'s HW reaches `x.end` (see {@link BrokerNode.replicated}). */
  awaitHw(p: Partition, x: HwWaiter): void {
    let list = this.hwWaiters.get(p);
    if (!list) this.hwWaiters.set(p, (list = []));
    list.push(x);
  }

  /**
   * Broker `b` died: the requests waiting for replication on it will never be answered (the crash
   * closes the connections they came on, and their clients see it). Each one's `onCrash` runs
   * with the 'crash' entry, after all are dropped.
   */
  dropWaitersOn(b: BrokerNode, crash: EntryId): void {
    const dropped: Callback<EntryId>[] = [];
    for (const [p, list] of this.hwWaiters) {
      const keep: HwWaiter[] = [];
      for (const x of list) {
        if (x.broker !== b) keep.push(x);
        else if (x.onCrash) dropped.push(x.onCrash);
      }
      if (keep.length > 0) this.hwWaiters.set(p, keep);
      else this.hwWaiters.delete(p);
    }
    for (const f of dropped) run(f, crash);
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
  shrinkIsrOnLag(b: BrokerNode, cause: EntryId, controllerAt: number): void {
    const w = this.world;
    const lag = w.scenario.broker['replica.lag.time.max.ms'];
    const period = Math.max(1, Math.floor(lag / 2));
    for (const topic of this.cluster.topics.values())
      for (const p of topic.partitions) {
        const r = p.replica(b.number);
        if (!r || p.leader < 0 || p.leader === b.number || !p.isr.has(b.number)) continue;
        const leader = this.cluster.broker(p.leader);
        const caughtUp = r.leo >= p.leo ? w.now : r.caughtUpAt;
        // Out of sync once now − caughtUp > lag: the first check strictly after caughtUp + lag.
        const start = leader.startedAt;
        const at = start + (Math.floor((caughtUp + lag - start) / period) + 1) * period;
        if (at >= controllerAt) continue;
        const check: LagCheck = {
          p,
          r,
          leader,
          leaderInc: leader.incarnation,
          follower: b.number,
          cause,
        };
        w.scheduleCall(Math.max(0, at - w.now), null, this, this.lagChecked, check);
      }
  }

  /** The leader's ISR check: the dead follower is still out of sync, and leaves the ISR. */
  private lagChecked({ p, r, leader, leaderInc, follower, cause }: LagCheck): void {
    const w = this.world;
    if (!leader.alive || leader.incarnation !== leaderInc || p.leader !== leader.number) return;
    if (!p.isr.has(follower) || (this.cluster.broker(follower).alive && r.leo >= p.leo)) return;
    p.isr.delete(follower);
    writeIsr(w.trace, w.now, this.lab.id, cause, p.topic, p.index, -1, 0, follower);
    this.advanceHw(p, cause);
  }
}
