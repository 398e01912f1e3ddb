/**
 * A member giving its partitions up (a `rebalance` fault) must end up owning what the group gives
 * it back, whatever else happens meanwhile. Two schedules the property tests found
 * (src/scenarios/guarantees.prop.test.ts, FC_SEED=random), each with every event lost before the
 * fix: one partition left with no owner, so nothing after the rebalance was ever processed.
 */
import { describe, expect, it } from 'vitest';
import { anomalies, entriesOf, runScenario, totals } from '../testing';

// One instance, several partitions, commits after writing, an upsert on the business id.
const group = (
  partitions: number,
  seed: number,
  jitterMs: number,
  events: { id: string; key: string; amount: number; at: number }[],
  faults: unknown[],
) =>
  runScenario({
    seed,
    network: { latencyMs: 2, jitterMs },
    workload: { events },
    broker: { partitions },
    processor: {
      type: 'consumer',
      'auto.offset.reset': 'earliest',
      'max.poll.records': 5,
      'enable.auto.commit': false,
    },
    sink: { type: 'table', statement: 'on-conflict-do-update', set: 'excluded' },
    faults: faults as never,
  });

describe('a rebalance of a lone member (it gets its own partitions back, in a new generation)', () => {
  it('a fetch answer arriving while the revoke commit is in flight does not start a second revoke: 9 events once', () => {
    // The rebalance at 288 ms revokes p0..p2; consumer-0 commits them (the commit is answered at
    // 294 ms). A fetch answer wakes its poll loop at 290 ms, still revoking: before the fix it
    // sent a second commit and, when that one came back, gave up the partitions the group had
    // just assigned to it again (296 ms) — every record after e2 stayed unprocessed.
    const run = group(
      3,
      556,
      1,
      [
        { id: 'e1', key: 'k0', amount: 10, at: 1182 },
        { id: 'e2', key: 'k0', amount: 20, at: 236 },
        { id: 'e3', key: 'k1', amount: 30, at: 273 },
        { id: 'e4', key: 'k3', amount: 40, at: 692 },
        { id: 'e5', key: 'k3', amount: 50, at: 957 },
        { id: 'e6', key: 'k2', amount: 60, at: 1259 },
        { id: 'e7', key: 'k3', amount: 70, at: 1197 },
        { id: 'e8', key: 'k0', amount: 80, at: 1298 },
        { id: 'e9', key: 'k2', amount: 90, at: 581 },
      ],
      [{ kind: 'rebalance', at: 288, target: 'consumer-0' }],
    );
    // Each partition revoked once and assigned twice (at the start and after the rebalance).
    expect(entriesOf(run, 'revoke')).toHaveLength(3);
    expect(entriesOf(run, 'assign')).toHaveLength(6);
    expect(totals(run)).toEqual({ rows: 9, sum: 450, duplicates: 0, lost: 0 });
  });

  it('a crash while it gives its partitions up: back (0 ms later), it owns them again → both events once', () => {
    // The rebalance at 3 ms asks consumer-0 for p0 and p1; it commits, and crashes at 4 ms before
    // the answer. Its new incarnation rejoins under the same name — before the fix the group
    // still waited for the dead incarnation to release the partitions, and nobody ever read them.
    const run = group(
      2,
      387,
      1,
      [
        { id: 'e1', key: 'k1', amount: 10, at: 1337 },
        { id: 'e2', key: 'k1', amount: 20, at: 285 },
      ],
      [
        { kind: 'crash', at: 4, target: 'consumer-0', point: 'now', restartAfterMs: 0 },
        { kind: 'rebalance', at: 3, target: 'consumer-0' },
      ],
    );
    expect(anomalies(run)).toEqual([]);
    expect(totals(run)).toEqual({ rows: 2, sum: 30, duplicates: 0, lost: 0 });
  });
});
