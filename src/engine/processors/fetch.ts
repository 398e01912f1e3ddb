/**
 * Reading a partition through the network, as the consumer clients do: a fetch request to the
 * partition's current leader; a request that gets no answer within `request.timeout.ms` (the
 * consumer default, 30 s) is sent again, to whoever leads by then. When there is nothing to read
 * yet, the caller parks on the partition and fetches again once its readable end moves (see
 * {@link parkOn}) — the simulation's stand-in for polling again every fetch.max.wait.ms.
 * A leader whose process crashes resets the connection: the fetch on its way fails one network
 * latency after the crash (NETWORK_EXCEPTION) and is sent again once the client has connected —
 * to the same broker after `reconnect.backoff.ms` if it still leads (refused while it is down),
 * or to the new leader (src/engine/connections.ts; AbstractFetch.handleFetchFailure and
 * prepareFetchRequests, "Skipping fetch for partition … because node … is awaiting reconnect
 * backoff": https://github.com/apache/kafka/blob/trunk/clients/src/main/java/org/apache/kafka/clients/consumer/internals/AbstractFetch.java).
 * Used by the consumer loop, the Flink source and the Spark Kafka source.
 */
import { NO_ENTRY, NO_EVENT, type EntryId, type EventId } from '../ids';
import type { Actor, Timer } from '../world';
import type { BrokerNode } from '../broker/brokerNode';
import { call, invoke, stateless, type Call } from '../core/call';
import type { Cluster, FetchResult, Topic } from '../broker/cluster';
import { errorIndex } from '../broker/cluster';
import type { Partition } from '../broker/partition';
import { Links } from '../connections';
import { writeReject } from '../traceWriters';

/** Kafka consumer `request.timeout.ms` default (ms). */
export const FETCH_REQUEST_TIMEOUT_MS = 30_000;
/** Back-off before asking again when the partition has no leader or the leader moved (ms). */
const NO_LEADER_BACKOFF_MS = 100;

/**
 * The fetching process's connections to the brokers (one client per process), kept on the
 * process itself — not in a table beside it — so a snapshot of the run copies them with it.
 */
function links(owner: Actor): Links {
  return (owner.fetchLinks ??= new Links(owner));
}

/**
 * One attempt to fetch, held as data (docs/ARCHITECTURE.md, "Pending work and forks"): what it
 * asks, where it went, and whether it is settled — answered, reset or timed out; whichever comes
 * first settles it, and what comes later is ignored. A retry is a new attempt. Once answered,
 * `done` runs with the attempt itself, whose {@link result} and {@link answer} it reads.
 */
export class Fetch {
  settled = false;
  /** Its request.timeout.ms timer. */
  private timer: Timer | null = null;
  /** Its request's 'msg' entry. */
  private msg: EntryId = NO_ENTRY;
  private leader: BrokerNode | null = null;
  /** The leader's incarnation its connection was open to, and the owner's when it asked. */
  private brokerInc = 0;
  private inc = 0;
  /** The leader's answer (error NONE), once {@link done} runs. */
  result: FetchResult | null = null;
  /** The 'msg' entry of the answer, once {@link done} runs. */
  answer: EntryId = NO_ENTRY;

  constructor(
    readonly owner: Actor,
    readonly cluster: Cluster,
    readonly topic: Topic,
    readonly partition: number,
    readonly offset: number,
    readonly max: number,
    readonly readCommitted: boolean,
    readonly done: Call<Fetch>,
  ) {}

  /** The same request again, as a new attempt. */
  private again(cause: EntryId): void {
    const { owner, cluster, topic, partition, offset, max, readCommitted, done } = this;
    new Fetch(owner, cluster, topic, partition, offset, max, readCommitted, done).send(cause);
  }

  /** The same request again after the back-off, as a new attempt. */
  private againLater(cause: EntryId): void {
    const { owner, cluster, topic, partition, offset, max, readCommitted, done } = this;
    const f = new Fetch(owner, cluster, topic, partition, offset, max, readCommitted, done);
    owner.world.scheduleCall(NO_LEADER_BACKOFF_MS, owner, f, f.send, cause);
  }

  /** Send the request to the partition's leader (or wait for one, or for a connection). */
  send(cause: EntryId): void {
    const { owner, topic, partition, offset } = this;
    const w = owner.world;
    const leader = this.cluster.leaderOf(topic.partitions[partition]!);
    if (!leader) {
      w.scheduleCall(NO_LEADER_BACKOFF_MS, owner, this, this.send, cause);
      return;
    }
    const ls = links(owner);
    // No open connection to the leader: fetch once connected (or once the leader has moved).
    if (
      !ls.open(leader) &&
      !ls.ready(leader, { topic: topic.index, partition, offset }, call(this, this.send, cause))
    )
      return;
    this.leader = leader;
    this.brokerInc = ls.get(leader).inc;
    this.inc = owner.incarnation;
    // send's options as arguments: no options object per fetch.
    this.msg = w.sendMessage(
      owner,
      leader,
      this.brokerInc,
      'fetch',
      cause,
      w.carry(NO_EVENT, topic.index, partition, offset),
      call(this, this.arrived),
      // The leader crashed under the fetch: the client sees the reset one latency after the
      // crash and fetches again (after reconnecting, or from the new leader).
      call(this, this.lost),
    );
    this.timer = w.scheduleCall(FETCH_REQUEST_TIMEOUT_MS, owner, this, this.timedOut);
  }

  /** The request reaches the leader, which answers at once. */
  private arrived(_a: undefined, _b: undefined, _c: undefined, e: EntryId): void {
    const { topic, partition, offset } = this;
    const leader = this.leader!;
    const r = leader.fetch(topic, partition, offset, this.max, this.readCommitted);
    const w = this.owner.world;
    const m = w.sendMessage(
      leader,
      this.owner,
      this.inc,
      'fetch-response',
      e,
      w.carry(
        (r.events[0] ?? NO_EVENT) as EventId,
        topic.index,
        partition,
        r.offsets[0] ?? offset,
        r.offsets.length,
        -1,
        r.events,
      ),
      call(this, this.answered, r),
      undefined,
    );
    if (leader.answerHeld(m)) leader.watchIfHeld(m, call(this, this.lost));
  }

  /** The answer is back: retried after the back-off if the leader moved, else done. */
  private answered(r: FetchResult, _b: undefined, _c: undefined, e: EntryId): void {
    if (this.settled) return;
    this.settled = true;
    // Its timeout will find it settled: it keeps its place in the queue, not this attempt.
    if (this.timer) this.owner.world.release(this.timer);
    if (r.error !== 'NONE') return this.againLater(e);
    this.result = r;
    this.answer = e;
    invoke(this.done, this);
  }

  /** The request reached a leader that had crashed since the connection opened. */
  private lost(): void {
    const { owner, leader } = this;
    if (!owner.alive || owner.incarnation !== this.inc) return;
    const at = links(owner).resetAt(leader!, this.brokerInc);
    owner.world.scheduleCall(Math.max(0, at - owner.world.now), owner, this, this.resetSeen, at);
  }

  /** The client sees the connection reset (NETWORK_EXCEPTION): it fetches again. */
  private resetSeen(at: number): void {
    const { owner, leader } = this;
    const w = owner.world;
    links(owner).closed(leader!, this.brokerInc, at);
    if (this.settled) return;
    this.settled = true;
    if (this.timer) w.cancel(this.timer);
    const e = writeReject(
      w.trace,
      w.now,
      owner.id,
      this.msg,
      NO_EVENT,
      this.topic.index,
      this.partition,
      this.offset,
      -1,
      errorIndex('NETWORK_EXCEPTION'),
      leader!.id,
    );
    this.again(e);
  }

  /** No answer within request.timeout.ms: asked again. */
  private timedOut(): void {
    if (this.settled) return;
    this.settled = true;
    this.again(this.msg);
  }
}

/**
 * Fetch up to `max` records of `topic`/`partition` from `offset`. `done` runs once, in the
 * owner's current incarnation, with the answered {@link Fetch} (its visible records maybe none);
 * lost requests and answers are retried after the request timeout, leader changes after a short
 * back-off.
 */
export function fetchFrom(
  owner: Actor,
  cluster: Cluster,
  topic: Topic,
  partition: number,
  offset: number,
  max: number,
  readCommitted: boolean,
  cause: EntryId,
  done: Call<Fetch>,
): void {
  new Fetch(owner, cluster, topic, partition, offset, max, readCommitted, done).send(cause);
}

/** Runs a parked reader's wake-up (a task of the reader's incarnation). */
const wakeNow = stateless(function wakeNow(this: undefined, wake: Call<void>): void {
  invoke(wake, undefined);
});

/**
 * Run `wake` (once, in the owner's current incarnation) when the partition's readable end or its
 * leadership changes — instead of polling an empty partition forever. If data past `from`
 * arrived while the empty answer was on its way, the next poll would see it: wake at once.
 */
export function parkOn(
  owner: Actor,
  p: Partition,
  from: number,
  readCommitted: boolean,
  wake: Call<void>,
): void {
  if (p.readableEnd(readCommitted) > from) {
    owner.world.scheduleCall(0, owner, undefined, wakeNow, wake);
    return;
  }
  p.waiters.push(call(undefined, wakeIfSameIncarnation, owner, owner.incarnation, wake));
}

/** A parked reader's wake-up, unless it died or restarted since it parked. */
const wakeIfSameIncarnation = stateless(function wakeIfSameIncarnation(
  this: undefined,
  owner: Actor,
  inc: number,
  wake: Call<void>,
): void {
  if (owner.alive && owner.incarnation === inc) invoke(wake, undefined);
});
