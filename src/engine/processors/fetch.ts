/**
 * Reading a partition through the network, as the consumer clients do: a fetch request to the
 * partition's current leader; a request that gets no answer within `request.timeout.ms` (the
 * consumer default, 30 s) is sent again, to whoever leads by then. When there is nothing to read
 * yet, the caller parks on the partition and fetches again once its readable end moves (see
 * {@link parkOn}) — the simulation's stand-in for polling again every fetch.max.wait.ms.
 * Used by the consumer loop, the Flink source and the Spark Kafka source.
 */
import type { Actor } from '../world';
import type { Cluster, FetchResult, Topic } from '../broker/cluster';
import type { Partition } from '../broker/partition';

/** Kafka consumer `request.timeout.ms` default (ms). */
export const FETCH_REQUEST_TIMEOUT_MS = 30_000;
/** Back-off before asking again when the partition has no leader or the leader moved (ms). */
const NO_LEADER_BACKOFF_MS = 100;

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
  cause: number,
  done: (r: FetchResult, cause: number) => void,
): void {
  const w = owner.world;
  const leader = cluster.leaderOf(topic.partitions[partition]!);
  if (!leader) {
    owner.after(NO_LEADER_BACKOFF_MS, () =>
      fetchFrom(owner, cluster, topic, partition, offset, max, readCommitted, cause, done),
    );
    return;
  }
  const inc = owner.incarnation;
  let settled = false;
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
            event: r.events[0] ?? -1,
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
  );
  owner.after(FETCH_REQUEST_TIMEOUT_MS, () => {
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
