/**
 * The produce requests waiting for a partition's high watermark (acks=all) are held partition by
 * partition in the order the partitions began to wait: a broker's crash drops them — running
 * each one's onCrash — in that order, a partition whose last waiter left going last when it waits
 * again (the order of a Map's keys, which replication.ts held them in before two arrays).
 */
import { expect, it } from 'vitest';
import { runScenario } from '../testing';
import type { EntryId } from '../ids';
import type { BrokerNode } from './brokerNode';
import type { HwWaiter } from './replication';

it('a crash drops its waiters in the order their partitions began to wait; a partition emptied and waiting again is last', () => {
  const run = runScenario({
    workload: { events: [{ id: 'e1', amount: 10, at: 10 }] },
    broker: { partitions: 3 },
  });
  const { cluster, input } = run.state;
  const [p0, p1, p2] = input.partitions;
  const replication = cluster.replication;
  const b1 = cluster.broker(1);
  const b2 = cluster.broker(2);
  const dropped: string[] = [];
  // A request that waits for ever (its end past any HW) on `broker`; its onCrash notes its name.
  const waiter = (broker: BrokerNode, name: string): HwWaiter => ({
    end: Number.MAX_SAFE_INTEGER,
    broker,
    req: undefined as never,
    answer: { error: 'NONE', offset: 0, appended: true },
    answerCause: -1 as EntryId,
    respond: undefined as never,
    onCrash: {
      fn: () => void dropped.push(name),
      self: undefined,
      a: undefined,
      b: undefined,
      c: undefined,
    },
  });
  // Waiting: p1 [A on broker-1, D on broker-2], p0 [B on broker-2], p2 [C on broker-1].
  replication.awaitHw(p1!, waiter(b1, 'A'));
  replication.awaitHw(p0!, waiter(b2, 'B'));
  replication.awaitHw(p2!, waiter(b1, 'C'));
  replication.awaitHw(p1!, waiter(b2, 'D'));
  // broker-2's crash: p1's D, then p0's B (p0 is left with none and stops waiting).
  replication.dropWaitersOn(b2, -1 as EntryId);
  expect(dropped).toEqual(['D', 'B']);
  // p0 waits again: after p1 and p2, which still wait.
  replication.awaitHw(p0!, waiter(b1, 'E'));
  replication.dropWaitersOn(b1, -1 as EntryId);
  expect(dropped).toEqual(['D', 'B', 'A', 'C', 'E']);
  // Nothing waits any more.
  replication.dropWaitersOn(b1, -1 as EntryId);
  expect(dropped).toHaveLength(5);
});
