/**
 * `partition.assignment.strategy`: the assignor and its rebalance protocol.
 * - `range` (Kafka's default list [RangeAssignor, CooperativeStickyAssignor] "will use the
 *   RangeAssignor by default", https://kafka.apache.org/documentation/#consumerconfigs_partition.assignment.strategy):
 *   the EAGER protocol "requires a consumer to always revoke all its owned partitions before
 *   participating in a rebalance event"
 *   (https://kafka.apache.org/42/javadoc/org/apache/kafka/clients/consumer/ConsumerPartitionAssignor.RebalanceProtocol.html):
 *   a member that keeps a partition still gives it up, commits what it may, and reads it again
 *   from the committed offset.
 * - `cooperative-sticky`: only the partitions that move are revoked; the sticky assignor keeps
 *   current owners up to their quota (AbstractStickyAssignor.constrainedAssign).
 *
 * Shared layout (12 generated events, 12 keys, 2 partitions; amounts 10·i): p0 holds offsets 0..7
 * = e4, e5, e6, e8, e9, e10, e11, e12 and p1 offsets 0..3 = e1, e2, e3, e7. Two instances start at
 * 1 s: consumer-0 gets p0, consumer-1 gets p1 (both assignors agree). Parallel loops, 10 records
 * at once, commit the contiguous prefix of finished offsets; each instance's n-th processing
 * attempt takes the n-th of `durations` (cycling): the second record of each partition (e5, e2)
 * is slow, every other one takes 10 ms. At ≈1,016 ms e4, e6, e8..e12 and e1, e3, e7 are written
 * (10 rows, 780 − 50 − 20 = 710), and both committed offsets stop at 1 behind the slow record.
 */
import { describe, expect, it } from 'vitest';
import type { ScenarioInput } from '../scenario/schema';
import { anomalies, entriesOf, runScenario, totals } from '../testing';

type Strategy = 'range' | 'cooperative-sticky';

const twoMembers = (
  strategy: Strategy | undefined,
  slowMs: number,
  faults: ScenarioInput['faults'],
  sessionTimeoutMs = 45_000,
) =>
  runScenario({
    claim: 'exactly-once',
    workload: { topic: 'events', generate: { count: 12, startAtMs: 0, intervalMs: 1, keys: 12 } },
    broker: { partitions: 2 },
    processor: {
      type: 'consumer',
      instances: 2,
      'enable.auto.commit': false,
      'auto.offset.reset': 'earliest',
      startAtMs: 1000,
      'session.timeout.ms': sessionTimeoutMs,
      ...(strategy ? { 'partition.assignment.strategy': strategy } : {}),
      processing: {
        mode: 'parallel',
        concurrency: 10,
        durationsMs: [10, slowMs, 10, 10, 10, 10, 10, 10, 10, 10, 10, 10],
      },
    },
    sink: { type: 'table', name: 't' },
    faults,
  });

/** The member each partition was last assigned to. */
const lastOwners = (run: ReturnType<typeof runScenario>): Record<number, string> => {
  const out: Record<number, string> = {};
  for (const i of entriesOf(run, 'assign'))
    out[run.trace.partition[i]!] = run.trace.actors[run.trace.actor[i]!]!;
  return out;
};

const revokes = (run: ReturnType<typeof runScenario>) =>
  entriesOf(run, 'revoke').map(
    (i) => `${run.trace.actors[run.trace.actor[i]!]}:p${run.trace.partition[i]}`,
  );

describe('a rebalance fault moves consumer-0’s p0 to consumer-1 at 1.5 s (e5, e2 take 3 s)', () => {
  const faults: ScenarioInput['faults'] = [
    { id: 'rebalance', kind: 'rebalance', target: 'consumer-0', at: 1500 },
  ];

  it('range (the default, eager): consumer-1 revokes p1 too and redoes e2, e3, e7 → 22 rows, 10 duplicates', () => {
    // By hand: at 1.5 s both members revoke everything (commits stay 1, 1) and, once both have
    // given up, consumer-1 is assigned p0 and p1 again (1,502 ms). It has 9 free slots (its old e2
    // is still running): p0 from offset 1 (e5, e6, e8..e12: 7) and p1 from offset 1 (e2, e3),
    // 10 ms each → 9 rows; then e7, whose attempt is its 14th (3,000 ms) → 1 row at ≈4.5 s.
    // The old tasks are not stopped by the revoke: consumer-0's e5 and consumer-1's e2 finish at
    // ≈4 s → 2 rows. 10 + 9 + 2 + 1 = 22; twice: e2, e3, e5, e6, e7, e8..e12 (10);
    // sum 780 + (20 + 30 + 50 + 60 + 70 + 80 + 90 + 100 + 110 + 120) = 1,510.
    for (const run of [twoMembers(undefined, 3000, faults), twoMembers('range', 3000, faults)]) {
      expect(revokes(run)).toEqual(['consumer-0:p0', 'consumer-1:p1']);
      expect(lastOwners(run)).toEqual({ 0: 'consumer-1', 1: 'consumer-1' });
      expect(totals(run)).toEqual({ rows: 22, sum: 1510, duplicates: 10, lost: 0 });
      expect(anomalies(run)).toEqual([
        'e2:2',
        'e3:2',
        'e5:2',
        'e6:2',
        'e7:2',
        'e8:2',
        'e9:2',
        'e10:2',
        'e11:2',
        'e12:2',
      ]);
      // The explanation names the eager revocation of the partition that did not move.
      const e3 = run.verdict.explanations.find((x) => x.events.includes('e3'))!;
      expect(e3.sentence).toContain(
        'a rebalance made consumer-1 revoke partition 1 although the new assignment kept it there (partition.assignment.strategy=range',
      );
      const e2 = run.verdict.explanations.find((x) => x.events.includes('e2'))!;
      expect(e2.sentence).toContain(
        'consumer-1 was still processing e2 when a rebalance made it revoke partition 1',
      );
    }
  });

  it('cooperative-sticky: only p0 is revoked; consumer-1 keeps working on p1 → 19 rows, 7 duplicates', () => {
    // By hand: consumer-0 revokes p0 (commit stays 1); consumer-1 takes it at 1,502 ms and reads
    // e5, e6, e8..e12 again (7 rows); consumer-0's old e5 still writes at ≈4 s (1 row);
    // consumer-1's e2 finishes at ≈4 s on the p1 it never gave up (its first row). 10 + 7 + 1 + 1
    // = 19; twice: e5, e6, e8..e12 (7); sum 780 + 50 + 60 + 80 + 90 + 100 + 110 + 120 = 1,390.
    const run = twoMembers('cooperative-sticky', 3000, faults);
    expect(revokes(run)).toEqual(['consumer-0:p0']);
    expect(lastOwners(run)).toEqual({ 0: 'consumer-1', 1: 'consumer-1' });
    expect(totals(run)).toEqual({ rows: 19, sum: 1390, duplicates: 7, lost: 0 });
    expect(anomalies(run)).toEqual(['e5:2', 'e6:2', 'e8:2', 'e9:2', 'e10:2', 'e11:2', 'e12:2']);
  });
});

describe('consumer-0 crashes for good at 1.5 s; the group removes it 6 s later (e5, e2 take 10 s)', () => {
  const faults: ScenarioInput['faults'] = [
    { id: 'crash', kind: 'crash', target: 'consumer-0', at: 1500, restartAfterMs: null },
  ];

  it('range: the leave at 7.5 s makes consumer-1 revoke p1 too → 21 rows, 9 duplicates', () => {
    // By hand: the crash kills consumer-0's e5 task. At 7.5 s (session.timeout.ms = 6 s) the
    // group removes consumer-0 and rebalances: consumer-1 gives p1 up (commit stays 1) and gets
    // p0 and p1 at 7,502 ms. 9 free slots: p0 from 1 (e5, e6, e8..e12) and p1 from 1 (e2, e3),
    // 10 ms each → 9 rows; e7 next, its 14th attempt (10 s) → 1 row at ≈17.5 s; its old e2
    // finishes at ≈11 s → 1 row. 10 + 9 + 1 + 1 = 21; twice: e2, e3, e6, e7, e8..e12 (9);
    // sum 780 + 20 + 30 + 60 + 70 + 80 + 90 + 100 + 110 + 120 = 1,460.
    const run = twoMembers('range', 10_000, faults, 6000);
    expect(revokes(run)).toEqual(['consumer-1:p1']);
    expect(totals(run)).toEqual({ rows: 21, sum: 1460, duplicates: 9, lost: 0 });
    // No fault entry this time: the revoke itself is the cause the story finds.
    const e3 = run.verdict.explanations.find((x) => x.events.includes('e3'))!;
    expect(e3.sentence).toContain(
      "before e3's offset was committed, a rebalance made consumer-1 revoke partition 1 although the new assignment kept it there",
    );
    expect(anomalies(run)).toEqual([
      'e2:2',
      'e3:2',
      'e6:2',
      'e7:2',
      'e8:2',
      'e9:2',
      'e10:2',
      'e11:2',
      'e12:2',
    ]);
  });

  it('cooperative-sticky: consumer-1 keeps p1 and only takes p0 → 18 rows, 6 duplicates', () => {
    // By hand: at 7.5 s p0 (its owner dead) goes straight to consumer-1, which reads e5, e6,
    // e8..e12 from offset 1 (7 rows); its e2 finishes at ≈11 s (first row). 10 + 7 + 1 = 18;
    // twice: e6, e8..e12 (6); sum 780 + 60 + 80 + 90 + 100 + 110 + 120 = 1,340.
    const run = twoMembers('cooperative-sticky', 10_000, faults, 6000);
    expect(revokes(run)).toEqual([]);
    expect(totals(run)).toEqual({ rows: 18, sum: 1340, duplicates: 6, lost: 0 });
    expect(anomalies(run)).toEqual(['e6:2', 'e8:2', 'e9:2', 'e10:2', 'e11:2', 'e12:2']);
  });

  it('a restart within session.timeout.ms is no rebalance (static membership): consumer-1 revokes nothing, eager or not', () => {
    // "Static group members are able to leave and rejoin a group within the configured
    // session.timeout.ms without prompting a group rebalance" (group.instance.id). The crash kills
    // consumer-0's e5 task; back at 2.5 s, it takes p0 again from offset 1 and writes e5, e6,
    // e8..e12 (7 rows; its attempt counter goes on, so e11, its 14th, takes 10 s). consumer-1 is
    // not asked for p1: its e2 finishes at ≈11 s (first row). 10 + 7 + 1 = 18; twice: e6,
    // e8..e12 (6); sum 780 + 60 + 80 + 90 + 100 + 110 + 120 = 1,340.
    for (const strategy of ['range', 'cooperative-sticky'] as const) {
      const run = twoMembers(strategy, 10_000, [
        { id: 'crash', kind: 'crash', target: 'consumer-0', at: 1500, restartAfterMs: 1000 },
      ]);
      expect(revokes(run)).toEqual([]);
      expect(totals(run)).toEqual({ rows: 18, sum: 1340, duplicates: 6, lost: 0 });
    }
  });
});

describe('the sticky assignor keeps current owners where the balance allows', () => {
  // 5 partitions, 3 members joining one after the other at 1 s (one record, for a valid workload).
  const five = (strategy: Strategy, faults: ScenarioInput['faults']) =>
    runScenario({
      workload: { topic: 'events', events: [{ id: 'e1', key: 'k1', amount: 10, at: 0 }] },
      broker: { partitions: 5 },
      processor: {
        type: 'consumer',
        instances: 3,
        startAtMs: 1000,
        'session.timeout.ms': 6000,
        'partition.assignment.strategy': strategy,
      },
      sink: { type: 'table', name: 't' },
      faults,
    });

  it('joins: range gives [0,1] [2,3] [4]; sticky keeps what the first members held: [0,1] [3,4] [2]', () => {
    // Range: 5 / 3 → the first two members take 2 each, in name order. Sticky, join by join:
    // consumer-0 alone holds 0..4; consumer-1 joins (quota 2 or 3, one member may hold 3):
    // consumer-0 keeps 0, 1, 2 and consumer-1 gets 3, 4; consumer-2 joins (quota 1 or 2, two
    // members may hold 2): consumer-0 keeps 0, 1, consumer-1 keeps 3, 4, and 2 goes to consumer-2.
    expect(lastOwners(five('range', []))).toEqual({
      0: 'consumer-0',
      1: 'consumer-0',
      2: 'consumer-1',
      3: 'consumer-1',
      4: 'consumer-2',
    });
    expect(lastOwners(five('cooperative-sticky', []))).toEqual({
      0: 'consumer-0',
      1: 'consumer-0',
      2: 'consumer-2',
      3: 'consumer-1',
      4: 'consumer-1',
    });
  });

  it('a leave: sticky hands out only the leaver’s partitions; range (eager) reshuffles and revokes all', () => {
    // consumer-1 crashes at 2 s for good and is removed at 8 s. Sticky over consumer-0 {0, 1}
    // and consumer-2 {2} (quota 2 or 3, one member may hold 3): both keep theirs; the leftover
    // 3 goes to consumer-2 (under quota), then 4 to consumer-0 (at quota, may take one more).
    // Only the dead member's partitions move: no revoke. Range over consumer-0, consumer-2:
    // [0, 1, 2] and [3, 4] — consumer-1's p2 and p3 go to consumer-0 and consumer-2, and under
    // the eager protocol both live members first revoke everything they own (p0, p1; p4).
    const crash: ScenarioInput['faults'] = [
      { kind: 'crash', target: 'consumer-1', at: 2000, restartAfterMs: null },
    ];
    const sticky = five('cooperative-sticky', crash);
    expect(lastOwners(sticky)).toEqual({
      0: 'consumer-0',
      1: 'consumer-0',
      2: 'consumer-2',
      3: 'consumer-2',
      4: 'consumer-0',
    });
    expect(revokes(sticky)).toEqual([]);
    const range = five('range', crash);
    expect(lastOwners(range)).toEqual({
      0: 'consumer-0',
      1: 'consumer-0',
      2: 'consumer-0',
      3: 'consumer-2',
      4: 'consumer-2',
    });
    expect(revokes(range)).toEqual(['consumer-0:p0', 'consumer-0:p1', 'consumer-2:p4']);
  });
});

describe('the eager join phase waits for every member, up to the rebalance timeout', () => {
  // k1 → p1 (o1 twice), k3 → p0 (a1 at 0 s, a2 at 3 s, a3 at 20 s). Sync loops, a plain INSERT
  // per record into a table with a unique key. consumer-1 (p1) writes o1 at 1,009 ms; the second
  // o1 violates the key at 1,016 ms and the loop halts (onStatementError=halt) in mid-batch: it
  // never polls again, so it never rejoins. consumer-0 (p0) writes a1 and commits offset 1.
  // At 1.5 s a rebalance fault moves consumer-1's p1 to consumer-0.
  const halted = (strategy: Strategy) =>
    runScenario({
      claim: 'exactly-once',
      workload: {
        topic: 'in',
        events: [
          { id: 'o1', key: 'k1', amount: 10, at: 0 },
          { id: 'o1', key: 'k1', amount: 11, at: 1 },
          { id: 'a1', key: 'k3', amount: 1, at: 2 },
          { id: 'a2', key: 'k3', amount: 2, at: 3000 },
          { id: 'a3', key: 'k3', amount: 3, at: 20_000 },
        ],
      },
      broker: { partitions: 2 },
      processor: {
        type: 'consumer',
        instances: 2,
        'auto.offset.reset': 'earliest',
        'enable.auto.commit': false,
        startAtMs: 1000,
        'max.poll.interval.ms': 10_000,
        'partition.assignment.strategy': strategy,
      },
      sink: { type: 'table', name: 't', statement: 'insert', uniqueKey: true },
      faults: [{ kind: 'rebalance', target: 'consumer-1', at: 1500 }],
    });
  const rowAt = (run: ReturnType<typeof runScenario>, id: string) =>
    entriesOf(run, 'row-insert')
      .filter((i) => run.events.identityId(run.events.identity[run.trace.event[i]!]!) === id)
      .map((i) => run.trace.time[i]);

  it('range: consumer-0 gives p0 up at 1.5 s and gets it back only when the join times out (11.5 s)', () => {
    // Eager: consumer-0 revokes p0 (it keeps it) at once; consumer-1 never gives p1 up. The
    // coordinator completes the join after the rebalance timeout, max.poll.interval.ms = 10 s
    // (the static member that did not rejoin stays a member): consumer-0 is assigned p0 again at
    // 11,502 ms (2 ms network latency) and writes a2 — in the log since 3 s — at 11,509 ms.
    const run = halted('range');
    expect(revokes(run)).toEqual(['consumer-0:p0']);
    const assigns = entriesOf(run, 'assign').map((i) => run.trace.time[i]);
    expect(assigns).toEqual([1002, 1002, 11_502]);
    expect(rowAt(run, 'a2')).toEqual([11_509]);
    expect(totals(run)).toMatchObject({ rows: 4, duplicates: 0 });
  });

  it('cooperative-sticky: p0 is never revoked; a2 is written at 3,018 ms', () => {
    // Only p1 is to move, and its owner never releases it; consumer-0 reads on.
    const run = halted('cooperative-sticky');
    expect(revokes(run)).toEqual([]);
    expect(rowAt(run, 'a2')).toEqual([3018]);
    expect(totals(run)).toMatchObject({ rows: 4, duplicates: 0 });
  });
});
