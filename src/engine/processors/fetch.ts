/**
 * Reading a partition through the network: a fetch request to the partition's current leader,
 * answered with the records below the readable end (long poll when there are none). Used by the
 * Flink source and the Spark Kafka source.
 */
import type { Actor } from '../world';
import type { Cluster, FetchResult, Topic } from '../broker/cluster';

/**
 * Fetch up to `max` records of `topic`/`partition` from `offset`. `done` runs in the owner's
 * current incarnation with the visible records; on a leader change it retries after 100 ms.
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
    owner.after(100, () =>
      fetchFrom(owner, cluster, topic, partition, offset, max, readCommitted, cause, done),
    );
    return;
  }
  const inc = owner.incarnation;
  w.send(owner, leader, 'fetch', cause, { topic: topic.index, partition, offset }, (e) => {
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
          if (r.error !== 'NONE') {
            owner.after(100, () =>
              fetchFrom(owner, cluster, topic, partition, offset, max, readCommitted, e2, done),
            );
            return;
          }
          done(r, e2);
        },
        { toInc: inc },
      );
    });
  });
}
