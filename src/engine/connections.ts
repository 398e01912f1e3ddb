/**
 * A client process's TCP connections to the brokers, as the Java clients' NetworkClient keeps
 * them (ClusterConnectionStates), shared by the producer client and the fetching consumers.
 *
 * What a broker process crash does to its clients (the process dies, its host stays up, so the
 * kernel closes its sockets):
 * - an open connection is reset: the client sees it close one network latency after the crash
 *   (the reset's travel), fails every request in flight on it — the producer with the retriable
 *   NETWORK_EXCEPTION ("Disconnected from node N"; Sender.handleProduceResponse, on
 *   `response.wasDisconnected()`) — and asks for a metadata update ("The disconnect may be the
 *   result of stale metadata", NetworkClient.DefaultMetadataUpdater.handleServerDisconnect);
 * - a connection attempt to the dead broker is refused (a round trip: SYN out, reset back): the
 *   Java client logs "Connection to node N could not be established. Node may not be available."
 *   and nothing is sent: the producer's batches stay in its accumulator (Sender.sendProducerData
 *   skips nodes that are not ready), the consumer skips the node's fetch ("awaiting reconnect
 *   backoff", AbstractFetch.prepareFetchRequests);
 * - the next attempt waits `reconnect.backoff.ms` (50 ms), doubled for each further failure in a
 *   row, up to `reconnect.backoff.max.ms` (1 s) ("The base amount of time to wait before
 *   attempting to reconnect to a given host … will increase exponentially for each consecutive
 *   connection failure"), and a successful connection starts again from 50 ms
 *   (ClusterConnectionStates.disconnected / ready). Kafka's ±20 % jitter is not drawn.
 * Only a network partition (no reset reaches the client) leaves a request waiting for
 * `request.timeout.ms`: the `drop-request` / `drop-response` faults (a lost request also loses
 * the producer's requests sent behind it on the connection: clientRequests.ts, `stalled`).
 *
 * Simplifications: a connection to a live broker opens without a handshake (as every connection
 * did before a crash, so a run without broker crashes is unchanged); after a failure the client
 * connects again before it sends — one round trip. The connection's own packets (connection
 * attempt, reset) take the scenario's base `network.latencyMs`, without jitter (no draw from the
 * seed). A client looks up the partition's leader again each time it tries (the metadata update
 * is not a round trip of its own).
 *
 * Sources: https://kafka.apache.org/documentation/#producerconfigs_reconnect.backoff.ms,
 * https://kafka.apache.org/documentation/#producerconfigs_reconnect.backoff.max.ms,
 * https://kafka.apache.org/documentation/#producerconfigs_request.timeout.ms,
 * https://github.com/apache/kafka/blob/trunk/clients/src/main/java/org/apache/kafka/clients/NetworkClient.java,
 * https://github.com/apache/kafka/blob/trunk/clients/src/main/java/org/apache/kafka/clients/ClusterConnectionStates.java,
 * https://github.com/apache/kafka/blob/trunk/clients/src/main/java/org/apache/kafka/clients/producer/internals/Sender.java,
 * https://github.com/apache/kafka/blob/trunk/clients/src/main/java/org/apache/kafka/clients/consumer/internals/AbstractFetch.java,
 * https://kafka.apache.org/42/javadoc/org/apache/kafka/common/errors/NetworkException.html.
 */
import { NO_ENTRY, NO_EVENT, type EventId } from './ids';
import type { Actor } from './world';
import { ERROR_CODES } from './trace';
import { writeReject } from './traceWriters';
import { run, type Callback } from './core/call';

/** The Java clients' `reconnect.backoff.ms` default (ms). */
const RECONNECT_BACKOFF_MS = 50;
/** The Java clients' `reconnect.backoff.max.ms` default (ms). */
const RECONNECT_BACKOFF_MAX_MS = 1000;

/**
 * The wait before the next connection attempt after `failures` earlier failures in a row (ms):
 * 50, 100, 200, 400, 800, then 1,000 (ClusterConnectionStates.updateReconnectBackoff:
 * reconnect.backoff.ms · 2^failures, at most reconnect.backoff.max.ms).
 */
function reconnectBackoff(failures: number): number {
  return Math.min(RECONNECT_BACKOFF_MAX_MS, RECONNECT_BACKOFF_MS * 2 ** failures);
}

/** What a request waiting for a connection is about, for its CONNECTION_REFUSED entry. */
export interface About {
  event?: EventId;
  topic?: number;
  partition?: number;
  offset?: number;
  count?: number;
}

/** One client's connection to one broker. */
/** A connection attempt's answer, as the client gets it one latency after the broker saw it. */
interface Answer {
  /** Whether the broker process was up (accepting) when the attempt reached it. */
  up: boolean;
  /** Its incarnation then. */
  inc: number;
  about: About;
}

export interface Link {
  readonly broker: Actor;
  /**
   * `ready`: open (to the broker's incarnation `inc`); `down`: closed, the next attempt not before
   * `retryAt`; `connecting`: an attempt on its way.
   */
  state: 'ready' | 'down' | 'connecting';
  /** The broker incarnation the connection is open to. */
  inc: number;
  /** Connection failures in a row (the reconnect backoff's exponent). */
  failures: number;
  /** No connection attempt before this time (ms). */
  retryAt: number;
  /**
   * Who waits for the connection: each runs once it is open, refused, or may be tried again
   * (held as a `Call` — the same one each time — so a snapshot copies it).
   */
  waiters: Callback[];
  /** A wake-up is due at `retryAt`. */
  waking: boolean;
}

/** The connections of one client process (one incarnation of it: a restart opens new ones). */
export class Links {
  private readonly links = new Map<number, Link>();
  private inc: number;

  constructor(private readonly owner: Actor) {
    this.inc = owner.incarnation;
  }

  /** The connection to `broker` (a broker never connected to: open if alive, else to be tried). */
  get(broker: Actor): Link {
    if (this.owner.incarnation !== this.inc) {
      // A new incarnation of the owner: its old connections died with it.
      this.links.clear();
      this.inc = this.owner.incarnation;
    }
    let l = this.links.get(broker.id);
    if (!l) {
      l = {
        broker,
        state: broker.alive ? 'ready' : 'down',
        inc: broker.incarnation,
        failures: 0,
        retryAt: this.owner.world.now,
        waiters: [],
        waking: false,
      };
      this.links.set(broker.id, l);
    }
    return l;
  }

  /** Whether the connection to `broker` is open to its live incarnation (the common case, cheap). */
  open(broker: Actor): boolean {
    const l = this.owner.incarnation === this.inc ? this.links.get(broker.id) : undefined;
    return l !== undefined && l.state === 'ready' && l.inc === broker.incarnation;
  }

  /**
   * When the client sees its connection to incarnation `inc` of `broker` reset (ms): one base
   * network latency after the crash that ended that incarnation (-1 if it has not ended).
   */
  resetAt(broker: Actor, inc: number): number {
    const c = broker.crashEntries[inc];
    if (c === undefined) return -1;
    const w = this.owner.world;
    return w.trace.time[c]! + w.scenario.network.latencyMs;
  }

  /**
   * May the client send to `broker` now? Yes on an open connection — also on one whose broker has
   * crashed when the reset has not reached the client yet: the request goes out and the reset
   * fails it ({@link Links.resetAt}). Otherwise the request waits: a connection attempt starts
   * (or waits for its reconnect backoff), and `wake` runs once it is open, refused, or may be
   * tried again — the caller then asks again (the leader may have moved meanwhile).
   */
  ready(broker: Actor, about: About, wake: Callback): boolean {
    const l = this.get(broker);
    const now = this.owner.world.now;
    if (l.state === 'ready') {
      if (broker.incarnation === l.inc) return true;
      const at = this.resetAt(broker, l.inc);
      if (now < at) return true;
      this.closed(broker, l.inc, at);
    }
    if (!l.waiters.includes(wake)) l.waiters.push(wake);
    if (l.state === 'connecting') return false;
    if (now < l.retryAt) {
      if (!l.waking) {
        l.waking = true;
        this.owner.world.scheduleCall(l.retryAt - now, this.owner, this, this.retryDue, l);
      }
      return false;
    }
    this.connect(l, about);
    return false;
  }

  /**
   * The client saw its connection to incarnation `inc` of `broker` reset at `at` (ms): closed,
   * the next attempt `reconnect.backoff.ms` later. Nothing if the connection is no longer that one.
   * @returns whether it closed it.
   */
  closed(broker: Actor, inc: number, at: number): boolean {
    const l = this.get(broker);
    if (l.state !== 'ready' || l.inc !== inc) return false;
    l.state = 'down';
    l.retryAt = at + reconnectBackoff(l.failures);
    l.failures++;
    return true;
  }

  /**
   * A connection attempt: its SYN reaches the broker's host one latency later, the answer is back
   * one latency after that — accepted by a live broker process (the connection is open), or
   * refused (a CONNECTION_REFUSED entry, the next attempt after the reconnect backoff).
   */
  private connect(l: Link, about: About): void {
    const w = this.owner.world;
    const lat = w.scenario.network.latencyMs;
    l.state = 'connecting';
    w.scheduleCall(lat, this.owner, this, this.reachBroker, l, about);
  }

  /** The connection attempt reaches the broker's host: accepted if the broker process is up. */
  private reachBroker(l: Link, about: About): void {
    const w = this.owner.world;
    const answer: Answer = { up: l.broker.alive, inc: l.broker.incarnation, about };
    w.scheduleCall(w.scenario.network.latencyMs, this.owner, this, this.answered, l, answer);
  }

  /** The broker's answer is back: the connection is open, or refused. */
  private answered(l: Link, { up, inc, about }: Answer): void {
    const w = this.owner.world;
    if (l.state !== 'connecting') return;
    if (up) {
      l.state = 'ready';
      l.inc = inc;
      l.failures = 0;
    } else {
      const t = w.trace;
      // Why it is down: the crash it has not come back from.
      const crash = l.broker.crashEntries[l.broker.incarnation - 1] ?? NO_ENTRY;
      writeReject(
        t,
        w.now,
        this.owner.id,
        crash,
        about.event ?? NO_EVENT,
        about.topic ?? -1,
        about.partition ?? -1,
        about.offset ?? -1,
        about.count ?? -1,
        ERROR_CODES.indexOf('CONNECTION_REFUSED'),
        l.broker.id,
      );
      l.state = 'down';
      l.retryAt = w.now + reconnectBackoff(l.failures);
      l.failures++;
    }
    this.wake(l);
  }

  /** The reconnect backoff is over: whoever waits may try again. */
  private retryDue(l: Link): void {
    l.waking = false;
    this.wake(l);
  }

  private wake(l: Link): void {
    const ws = l.waiters;
    l.waiters = [];
    for (const f of ws) run(f);
  }
}
