/**
 * A reader that looks up the latest offset while a new leader's high watermark is behind the
 * start of its epoch is answered OFFSET_NOT_AVAILABLE and asks again retry.backoff.ms later
 * (KIP-207; docs/semantics/broker.md#a-new-leaders-high-watermark).
 */
import { expect, it } from 'vitest';
import { entriesOf, runScenario, totals } from '../testing';
import { ERROR_CODES } from '../traceCodes';
import type { ScenarioInput } from '../scenario/schema';
import type { Run } from '../simulate';

type ProcessorInput = NonNullable<ScenarioInput['processor']>;

/**
 * newLeaderHw.test.ts's failover: e1..e4 acknowledged by broker-1 (HW 4 at 406 ms), which dies at
 * 410 ms while its followers know HW 3; broker-2 leads from 9,410 ms with HW 3 and log end 4 (its
 * epoch's start offset), and reaches HW 4 at 9,414 ms. e5 is written at 20 s. The reader starts
 * at 9,411 ms, inside that round.
 */
function startsInTheRound(processor: ProcessorInput) {
  return runScenario({
    workload: {
      events: [
        { id: 'e1', amount: 10, at: 100 },
        { id: 'e2', amount: 20, at: 200 },
        { id: 'e3', amount: 30, at: 300 },
        { id: 'e4', amount: 40, at: 400 },
        { id: 'e5', amount: 50, at: 20_000 },
      ],
    },
    producer: { acks: 'all', 'linger.ms': 0 },
    broker: { partitions: 1 },
    processor,
    faults: [{ kind: 'leader-failover', at: 410, restartAfterMs: null }],
  });
}

/** The reader's OFFSET_NOT_AVAILABLE entries and its restores, as `time:offset`. */
function lookups(run: Run) {
  const t = run.trace;
  const refused = entriesOf(run, 'reject').filter(
    (i) => ERROR_CODES[t.aux[i]!] === 'OFFSET_NOT_AVAILABLE',
  );
  return {
    refused: refused.map((i) => `${t.time[i]}:${t.offset[i]}`),
    restores: entriesOf(run, 'restore').map((i) => `${t.time[i]}:${t.offset[i]}`),
    assigns: entriesOf(run, 'assign').map((i) => `${t.time[i]}:${t.offset[i]}`),
  };
}

it("Flink's OffsetsInitializer.latest() at 9,411 ms: OFFSET_NOT_AVAILABLE (HW 3 < 4), asked again 100 ms later: starts at 4, after e4", () => {
  const run = startsInTheRound({ type: 'flink', offsetsInitializer: 'latest', startAtMs: 9411 });
  // Refused at 9,411 (the entry carries the HW, 3); at 9,511 the HW is 4 = the latest offset.
  expect(lookups(run)).toEqual({ refused: ['9411:3'], restores: ['9511:4'], assigns: [] });
  // Only e5 is read: a start at 3 would have read e4, which a start at "latest" after it never
  // sees (KIP-207: the latest offset never goes back).
  expect(totals(run)).toEqual({ rows: 1, sum: 50, duplicates: 0, lost: 4 });
});

it("Spark's startingOffsets=latest at 9,411 ms: the same refusal and retry, the query's first batch from 4", () => {
  const run = startsInTheRound({ type: 'spark', startingOffsets: 'latest', startAtMs: 9411 });
  expect(lookups(run)).toEqual({ refused: ['9411:3'], restores: ['9511:4'], assigns: [] });
  expect(totals(run)).toEqual({ rows: 1, sum: 50, duplicates: 0, lost: 4 });
});

it('a lookup after the round is answered at once', () => {
  // From 9,414 ms the HW is 4 again (at 9,415 the move is behind it): no refusal, the start at 4.
  const run = startsInTheRound({ type: 'flink', offsetsInitializer: 'latest', startAtMs: 9415 });
  expect(lookups(run)).toEqual({ refused: [], restores: ['9415:4'], assigns: [] });
});

it("the consumer's auto.offset.reset=latest, assigned at 9,410 ms: OFFSET_NOT_AVAILABLE, its position found 100 ms later at 4", () => {
  // Started at 9,408 ms, the consumer is assigned the partition at 9,410, just after the
  // election (no committed offset): the lookup is refused (HW 3 < 4), the partition waits, and at
  // 9,510 ms its position is 4 — the 'assign' entry then. It reads e5 alone (before: from 3, e4
  // too).
  const run = startsInTheRound({
    type: 'consumer',
    'auto.offset.reset': 'latest',
    startAtMs: 9408,
  });
  expect(lookups(run)).toEqual({ refused: ['9410:3'], restores: [], assigns: ['9510:4'] });
  expect(totals(run)).toEqual({ rows: 1, sum: 50, duplicates: 0, lost: 4 });
  // read_committed asks the same: the broker checks the high watermark whatever the level.
  const rc = startsInTheRound({
    type: 'consumer',
    'auto.offset.reset': 'latest',
    'isolation.level': 'read_committed',
    startAtMs: 9408,
  });
  expect(lookups(rc)).toEqual({ refused: ['9410:3'], restores: [], assigns: ['9510:4'] });
});

it('a Spark trigger during the round waits for the latest offsets: one batch of e1..e4 at 9,511 ms instead of e1..e3 at 9,411 and e4 later', () => {
  // startingOffsets=earliest, trigger.processingTime 9,411 ms: the query finds no data at 0,
  // e1's HW move at 106 ms wakes it for the next boundary, 9,411 — inside the round (HW 3, the
  // epoch from 4). The latest-offset lookup is refused and asked again 100 ms later: batch 0 is
  // planned at 9,511 from 0 to 4.
  const run = runScenario({
    workload: { events: [1, 2, 3, 4].map((k) => ({ id: `e${k}`, amount: 10 * k, at: 100 * k })) },
    producer: { acks: 'all', 'linger.ms': 0 },
    broker: { partitions: 1 },
    processor: {
      type: 'spark',
      startingOffsets: 'earliest',
      startAtMs: 0,
      'trigger.processingTime': 9411,
    },
    faults: [{ kind: 'leader-failover', at: 410, restartAfterMs: null }],
  });
  const t = run.trace;
  expect(lookups(run).refused).toEqual(['9411:3']);
  expect(
    entriesOf(run, 'batch-planned').map((i) => `${t.time[i]}:${t.offset[i]}+${t.count[i]}`),
  ).toEqual(['9511:0+4']);
  expect(totals(run)).toEqual({ rows: 4, sum: 100, duplicates: 0, lost: 0 });
});
