/**
 * Replication inside the cluster: followers copy the leader's new records by fetching them, the
 * high watermark follows the ISR's smallest log end, and produce requests with `acks=all` wait for
 * it (https://kafka.apache.org/documentation/#replication). A follower's fetch waits at the leader
 * for new records; the leader answers it as it appends, the follower holds the records when the
 * answer arrives, and the leader learns that only from the follower's next fetch, half a round trip
 * later (docs/semantics/broker.md#replication-and-isr). A leader that dies in between has its
 * records on a follower and never acknowledges them: a retry without idempotence then writes them
 * twice. A fetch with nothing to copy waits at most `replica.fetch.wait.max.ms`, then is answered
 * empty, with the leader's high watermark; those timeouts are reckoned when something needs them,
 * not queued (docs/semantics/broker.md#a-followers-fetch-that-times-out). A follower that died
 * leaves the ISR at the leader's periodic lag check when that comes before the controller notices
 * the death. Every wait is held as data (a record and a method), so a snapshot of the run copies
 * it (docs/ARCHITECTURE.md, "Pending work and forks").
 */
import { NO_ENTRY, type EntryId } from '../ids';
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

/**
 * A leader's answer to a follower's waiting fetch, with the records up to `upTo`, and the
 * follower's next fetch that tells the leader it has them. One per replica ({@link Replica.fetch}),
 * filled anew for each answer: a follower has at most one answer on its way
 * (`replicationPending`), and a record made per answer was one of a run's most frequent
 * allocations. Between answers it holds the follower's fetch waiting at the leader
 * ({@link heldSince}).
 */
export interface FollowerFetch {
  /**
   * When the follower's fetch reached its leader with nothing new to copy, which holds it
   * (Kafka's DelayedFetch) until it appends or `replica.fetch.wait.max.ms` passes; -1 while the
   * follower has no fetch held there: an answer or its next fetch on the way, its broker or its
   * leader down — or one not timed, before the leader has answered it once (the log's first
   * records; a new leader's on an empty log): with no record yet there is no high watermark to
   * teach. Only `cause` is kept with it: the held fetch is always at the partition's current
   * leader.
   */
  heldSince: number;
  leader: BrokerNode | null;
  /** The leader epoch it was answered in: a fetch of an earlier leadership copies nothing. */
  leaderEpoch: number;
  follower: BrokerNode | null;
  followerInc: number;
  /** The leader's log end when it answered: what the answer carries. */
  upTo: number;
  /**
   * The leader's high watermark when it answered, which the answer carries too: the follower
   * learns it when the answer arrives.
   */
  hw: number;
  /** The answer reached the follower, which holds the records. */
  received: boolean;
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
  /**
   * The partitions whose produce requests wait for their high watermark, in the order they began
   * to wait, and each one's waiters (same index). Two arrays, not a map: a partition leaves them
   * each time its HW releases its last waiter, and deleting a map's last key shrinks (reallocates)
   * its table — a fifth of advanceHw's time (profile, docs/benchmarks.md).
   */
  private readonly waitingParts: Partition[] = [];
  private readonly waitingLists: HwWaiter[][] = [];

  constructor(
    private readonly world: World,
    private readonly cluster: Cluster,
    private readonly lab: Actor,
  ) {}

  /**
   * The leader has new records: it answers each live follower's waiting fetch with them. The
   * follower holds them one latency later, and the leader learns so from its next fetch, one
   * latency after that; the high watermark may then advance. Coalesced: a follower whose answer is
   * on its way gets what the leader appended meanwhile in answer to its next fetch — so does one
   * whose held fetch timed out and whose empty answer, or next fetch, is on its way. A held fetch
   * with nothing new for it stays held (Kafka's DelayedFetch completes on new bytes only).
   */
  replicate(p: Partition, cause: EntryId): void {
    const w = this.world;
    const leader = this.cluster.leaderOf(p);
    if (!leader) return;
    // A dead leader answers no fetch (its followers find it gone and wait for the controller).
    if (leader.alive)
      for (const r of p.replicas) {
        if (r.broker === p.leader) continue;
        if (r.fetch.heldSince >= 0) {
          this.settleHeld(p, r);
          // A timed-out answer on its way carries no records: those its next fetch is answered
          // with are this append's.
          if (r.replicationPending) r.fetch.cause = cause;
          else if (r.leoAtLeader >= p.leo) continue;
        }
        if (r.replicationPending) continue;
        const follower = this.cluster.broker(r.broker);
        if (!follower.alive) continue;
        r.replicationPending = true;
        const back = w.latency(follower, leader);
        const there = w.latency(leader, follower);
        const f = r.fetch;
        answered(f, p, leader, follower, p.leo);
        f.cause = cause;
        w.scheduleCall(there, null, this, this.received, p, r);
        w.scheduleCall(there + back, null, this, this.fetchedAgain, p, r);
      }
    this.advanceHw(p, cause);
  }

  /**
   * The leader's answer reached the follower: it holds the records, whether or not the leader is
   * still alive (the answer left before any crash). An answer from an earlier leadership, or to a
   * follower that died meanwhile, copies nothing.
   */
  private received(p: Partition, r: Replica): void {
    const f = r.fetch;
    const follower = f.follower!;
    if (!follower.alive || follower.incarnation !== f.followerInc) return;
    if (p.leaderEpoch !== f.leaderEpoch) return;
    if (r.leo < f.upTo) r.leo = f.upTo;
    // The follower's high watermark is the leader's from the answer, bounded by its own log end
    // (Kafka's ReplicaFetcherThread: `log.updateHighWatermark(partitionData.highWatermark)`).
    r.hw = Math.min(f.hw, r.leo);
    f.received = true;
  }

  /** The follower's next fetch reached the leader, which learns what the follower holds. */
  private fetchedAgain(p: Partition, r: Replica): void {
    const f = r.fetch;
    const { cause, received, leaderEpoch, upTo } = f;
    const leader = f.leader!;
    const w = this.world;
    r.replicationPending = false;
    clearFetch(f);
    if (!received || !leader.alive || p.leader !== leader.number) return;
    if (p.leaderEpoch !== leaderEpoch) return;
    if (r.leoAtLeader < upTo) r.leoAtLeader = upTo;
    r.caughtUpAt = w.now;
    // A follower that has caught up with the leader rejoins the ISR.
    if (!p.isr.has(r.broker) && r.leoAtLeader >= p.leo) {
      p.isr.add(r.broker);
      writeIsr(w.trace, w.now, this.lab.id, cause, p.topic, p.index, r.leoAtLeader, 1, r.broker);
    }
    // The fetch has read the log (and the high watermark its answer would carry) before its
    // offset moves the high watermark (Kafka's Partition.fetchRecords, then
    // updateFollowerFetchState); finding nothing new it is held, and a timeout answers it with
    // the high watermark of then.
    this.advanceHw(p, cause);
    if (r.leoAtLeader < p.leo) this.replicate(p, cause);
    else this.hold(r, cause);
  }

  /**
   * `r`'s follower fetch, held at the leader since `heldSince`, as it stands now: each time
   * `replica.fetch.wait.max.ms` passed with nothing appended the leader answered it empty, with
   * its high watermark (the same throughout, as this runs before every change of it), which the
   * follower took one latency later, fetching again at once; that fetch, held in turn, is the one
   * held now. A timeout at this very moment comes after whatever else happens now. An answer or
   * a next fetch still on its way is left to {@link received} and {@link fetchedAgain}, as any
   * answer: a timeout is reckoned here, when something needs it, not queued — an idle partition
   * would keep the run going forever (docs/semantics/broker.md#a-followers-fetch-that-times-out).
   */
  private settleHeld(p: Partition, r: Replica): void {
    const f = r.fetch;
    const w = this.world;
    const now = w.now;
    const wait = w.scenario.broker['replica.fetch.wait.max.ms'];
    let expiry = f.heldSince + wait;
    if (expiry >= now) return;
    const leader = this.cluster.broker(p.leader);
    const follower = this.cluster.broker(r.broker);
    const net = w.scenario.network;
    // What every empty answer carries, bounded by the follower's log end as in received().
    const learned = Math.min(p.hw, r.leo);
    for (;;) {
      // Without jitter every round takes as long: straight to the last timeout before now.
      if (net.jitterMs === 0) {
        const skip = Math.ceil((now - expiry) / (wait + 2 * net.latencyMs)) - 1;
        if (skip > 0) {
          expiry += skip * (wait + 2 * net.latencyMs);
          r.hw = learned;
        }
      }
      const there = w.latency(leader, follower);
      const back = w.latency(follower, leader);
      const fetched = expiry + there + back;
      if (fetched >= now) {
        // This timeout's answer, or the next fetch it prompts, is on its way.
        answered(f, p, leader, follower, r.leoAtLeader);
        r.replicationPending = true;
        if (expiry + there >= now)
          w.scheduleCall(expiry + there - now, null, this, this.received, p, r);
        else this.received(p, r);
        w.scheduleCall(fetched - now, null, this, this.fetchedAgain, p, r);
        return;
      }
      r.hw = learned;
      if (fetched + wait >= now) {
        f.heldSince = fetched;
        return;
      }
      expiry = fetched + wait;
    }
  }

  /** HW = the smallest LEO among ISR replicas; release acks=all waits and wake fetchers. */
  advanceHw(p: Partition, cause: EntryId): void {
    let hw = p.leo;
    // The ISR lookup only for a replica behind: the leader's own never is.
    const replicas = p.replicas;
    for (let i = 0; i < replicas.length; i++) {
      const r = replicas[i]!;
      if (r.leoAtLeader < hw && p.isr.has(r.broker)) hw = r.leoAtLeader;
    }
    if (hw <= p.hw) return;
    const w = this.world;
    // Held fetches that timed out before now were answered with the high watermark before this.
    for (let i = 0; i < replicas.length; i++)
      if (replicas[i]!.fetch.heldSince >= 0) this.settleHeld(p, replicas[i]!);
    p.hw = hw;
    const h = writeHighWatermark(w.trace, w.now, this.lab.id, cause, p.topic, p.index, hw);
    const at = this.waitingParts.indexOf(p);
    if (at >= 0) {
      const keep: HwWaiter[] = [];
      for (const x of this.waitingLists[at]!) {
        if (x.end <= hw) {
          if (x.broker.alive && p.leader === x.broker.number) x.broker.replicated(p, x, h);
        } else keep.push(x);
      }
      this.setWaiters(p, keep);
    }
    p.notify();
  }

  /** Hold `x` until `p`'s HW reaches `x.end` (see {@link BrokerNode.replicated}). */
  awaitHw(p: Partition, x: HwWaiter): void {
    const at = this.waitingParts.indexOf(p);
    if (at >= 0) this.waitingLists[at]!.push(x);
    else {
      this.waitingParts.push(p);
      this.waitingLists.push([x]);
    }
  }

  /**
   * `p`'s waiters are now `list`: a partition that waited keeps its place, one that did not goes
   * last, and one left with none leaves (a map's set and delete).
   */
  private setWaiters(p: Partition, list: HwWaiter[]): void {
    const parts = this.waitingParts;
    const lists = this.waitingLists;
    const at = parts.indexOf(p);
    if (list.length > 0) {
      if (at >= 0) lists[at] = list;
      else {
        parts.push(p);
        lists.push(list);
      }
    } else if (at >= 0) {
      // Shifted down in place (splice would make an array of the removed).
      for (let i = at + 1; i < parts.length; i++) {
        parts[i - 1] = parts[i]!;
        lists[i - 1] = lists[i]!;
      }
      parts.length--;
      lists.length--;
    }
  }

  /**
   * `r`'s follower fetch is now held at `p`'s leader, which found nothing new for it (see
   * {@link FollowerFetch.heldSince}).
   */
  private hold(r: Replica, cause: EntryId): void {
    r.fetch.heldSince = this.world.now;
    r.fetch.cause = cause;
  }

  /**
   * Broker `b` died: the fetches held at it, or held elsewhere for it, end. The timeouts that
   * came before are reckoned first — their answers left before the crash and still arrive (or, to
   * a dead follower, copy nothing); a follower of a dead leader fetches again only from the next
   * one (src/engine/broker/cluster.ts `elect`).
   */
  endHeldFetches(b: BrokerNode): void {
    for (const topic of this.cluster.topics.values())
      for (const p of topic.partitions) {
        if (!p.replica(b.number)) continue;
        for (const r of p.replicas) {
          const f = r.fetch;
          if (f.heldSince < 0 || (p.leader !== b.number && r.broker !== b.number)) continue;
          this.settleHeld(p, r);
          if (f.heldSince >= 0) clearFetch(f);
        }
      }
  }

  /**
   * Broker `b` died: the requests waiting for replication on it will never be answered (the crash
   * closes the connections they came on, and their clients see it). Each one's `onCrash` runs
   * with the 'crash' entry, after all are dropped.
   */
  dropWaitersOn(b: BrokerNode, crash: EntryId): void {
    const dropped: Callback<EntryId>[] = [];
    const parts = this.waitingParts;
    for (let i = 0; i < parts.length;) {
      const keep: HwWaiter[] = [];
      for (const x of this.waitingLists[i]!) {
        if (x.broker !== b) keep.push(x);
        else if (x.onCrash) dropped.push(x.onCrash);
      }
      const p = parts[i]!;
      this.setWaiters(p, keep);
      // Still waiting: the next; gone: the next has moved down to `i`.
      if (parts[i] === p) i++;
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
        const caughtUp = r.leoAtLeader >= p.leo ? w.now : r.caughtUpAt;
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
    if (!p.isr.has(follower) || (this.cluster.broker(follower).alive && r.leoAtLeader >= p.leo))
      return;
    p.isr.delete(follower);
    writeIsr(w.trace, w.now, this.lab.id, cause, p.topic, p.index, -1, 0, follower);
    this.advanceHw(p, cause);
  }
}

/** A replica's {@link FollowerFetch} record with no fetch in flight. */
export function idleFetch(): FollowerFetch {
  const f = {} as FollowerFetch;
  clearFetch(f);
  return f;
}

/**
 * Follower `follower`'s fetch `f` answered now by `leader`: the records up to `upTo` and the
 * partition's high watermark on their way (an append's answer, or a held fetch's timeout).
 */
function answered(
  f: FollowerFetch,
  p: Partition,
  leader: BrokerNode,
  follower: BrokerNode,
  upTo: number,
): void {
  f.heldSince = -1;
  f.leader = leader;
  f.leaderEpoch = p.leaderEpoch;
  f.follower = follower;
  f.followerInc = follower.incarnation;
  f.upTo = upTo;
  f.hw = p.hw;
  f.received = false;
}

/**
 * A follower's fetch is over: its record holds nothing of it any more, so that the state of a
 * replica with none in flight is the same whatever its last one was (the fault atlas compares
 * states: src/engine/atlas/rejoin.ts).
 */
function clearFetch(f: FollowerFetch): void {
  f.heldSince = -1;
  f.leader = null;
  f.leaderEpoch = 0;
  f.follower = null;
  f.followerInc = 0;
  f.upTo = 0;
  f.hw = 0;
  f.received = false;
  f.cause = NO_ENTRY;
}
