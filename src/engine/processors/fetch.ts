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
import { NO_EVENT, type EntryId, type EventId } from '../ids';
import type { Actor, Timer } from '../world';
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
 * Fetch up to `max` records of `topic`/`partition` from `offset`. `done` runs once, in the
 * owner's current incarnation, with the visible records (maybe none); lost requests and answers
 * are retried after the request timeout, leader changes after a short back-off.
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
  done: (r: FetchResult, cause: EntryId) => void,
): void {
  const w = owner.world;
  const leader = cluster.leaderOf(topic.partitions[partition]!);
  if (!leader) {
    owner.after(NO_LEADER_BACKOFF_MS, () =>
      fetchFrom(owner, cluster, topic, partition, offset, max, readCommitted, cause, done),
    );
    return;
  }
  const again = (c: EntryId) =>
    fetchFrom(owner, cluster, topic, partition, offset, max, readCommitted, c, done);
  const ls = links(owner);
  // No open connection to the leader: fetch once connected (or once the leader has moved).
  if (
    !ls.open(leader) &&
    !ls.ready(leader, { topic: topic.index, partition, offset }, () => again(cause))
  )
    return;
  const brokerInc = ls.get(leader).inc;
  const inc = owner.incarnation;
  let settled = false;
  let timer: Timer | null = null;
  const m = w.send(
    owner,
    leader,
    'fetch',
    cause,
    { topic: topic.index, partition, offset },
    (e) => {
      leader.fetch(topic, partition, offset, max, readCommitted, e, (r, c) => {
        w.send(
          leader,
          owner,
          'fetch-response',
          c,
          {
            event: (r.events[0] ?? -1) as EventId,
            topic: topic.index,
            partition,
            offset: r.offsets[0] ?? offset,
            count: r.offsets.length,
            events: r.events,
          },
          (e2) => {
            if (settled) return;
            settled = true;
            if (r.error !== 'NONE') {
              owner.after(NO_LEADER_BACKOFF_MS, () =>
                fetchFrom(owner, cluster, topic, partition, offset, max, readCommitted, e2, done),
              );
              return;
            }
            done(r, e2);
          },
          { toInc: inc },
        );
      });
    },
    {
      toInc: brokerInc,
      // The leader crashed under the fetch: the client sees the reset one latency after the
      // crash and fetches again (after reconnecting, or from the new leader).
      onLost: () => {
        if (!owner.alive || owner.incarnation !== inc) return;
        const at = ls.resetAt(leader, brokerInc);
        owner.after(Math.max(0, at - w.now), () => {
          ls.closed(leader, brokerInc, at);
          if (settled) return;
          settled = true;
          if (timer) w.cancel(timer);
          const e = writeReject(
            w.trace,
            w.now,
            owner.id,
            m,
            NO_EVENT,
            topic.index,
            partition,
            offset,
            -1,
            errorIndex('NETWORK_EXCEPTION'),
            leader.id,
          );
          again(e);
        });
      },
    },
  );
  timer = owner.after(FETCH_REQUEST_TIMEOUT_MS, () => {
    if (settled) return;
    settled = true;
    fetchFrom(owner, cluster, topic, partition, offset, max, readCommitted, m, done);
  });
}

/**
 * Call `wake` (once, in the owner's current incarnation) when the partition's readable end or its
 * leadership changes — instead of polling an empty partition forever. If data past `from`
 * arrived while the empty answer was on its way, the next poll would see it: wake at once.
 */
export function parkOn(
  owner: Actor,
  p: Partition,
  from: number,
  readCommitted: boolean,
  wake: () => void,
): void {
  const inc = owner.incarnation;
  const go = () => {
    if (owner.alive && owner.incarnation === inc) wake();
  };
  if (p.readableEnd(readCommitted) > from) {
    owner.after(0, go);
    return;
  }
  p.waiters.push(go);
}
