/**
 * Consume-transform-produce (`commit: "with-transaction"`) with a zombie: the replacement's
 * initTransactions fences the zombie's producer (same `transactional.id`), and the fenced
 * instance, once it learns it, closes its producer and exits — "We can't recover from these
 * exceptions, so our only option is to close the producer and exit" (KafkaProducer javadoc,
 * https://kafka.apache.org/40/javadoc/org/apache/kafka/clients/producer/KafkaProducer.html).
 * Before, it rejoined the group with its fenced producer, took the partition back (the range
 * assignor gives it to the first member by name, consumer-0) and stopped there for good: every
 * later record was lost and the run ended as if drained (issue 30, item 4).
 *
 * Times: session.timeout.ms 45 s (the zombie is removed 45 s after its pause starts, and a dead
 * static member 45 s after it dies), network hop 2 ms, request.timeout.ms 30 s and
 * transaction.timeout.ms 60 s for the loop's producer (the Java client's defaults).
 */
import { describe, expect, it } from 'vitest';
import type { ScenarioInput } from '../scenario/schema';
import { entriesOf, runScenario, totals } from '../testing';
import { fencedExit } from '../trace';
import type { Run } from '../simulate';

/** The copier of the reproducer: `in` → consumer loop (transactional) → `out` → rc. */
const copier = (
  generate: { count: number; startAtMs: number; intervalMs: number },
  faults: unknown[],
  broker: ScenarioInput['broker'] = {},
) =>
  runScenario({
    claim: 'exactly-once',
    workload: { topic: 'in', generate },
    broker,
    processor: {
      type: 'consumer',
      commit: 'with-transaction',
      'enable.auto.commit': false,
      'isolation.level': 'read_committed',
      'auto.offset.reset': 'earliest',
    },
    sink: { type: 'kafka', topic: 'out', 'transactional.id': 'copier-0' },
    readers: [{ name: 'rc', topic: 'out', 'isolation.level': 'read_committed' }],
    faults: faults as never,
  });

/** The entries of `kind` written by actor `name`. */
const entriesBy = (run: Run, kind: string, name: string) =>
  entriesOf(run, kind).filter((i) => run.trace.actors[run.trace.actor[i]!] === name);

describe('a fenced zombie closes its producer and exits (issue 30, item 4)', () => {
  // e1..e10 (10·i, sum 550) at 10 ms, 10 s, …, 90 s. consumer-0 copies e1 (committed at 38 ms)
  // and pauses from 1,529 to 51,529 ms. At 46,529 the group removes it and the replacement starts:
  // its initTransactions fences consumer-0's producer, it reads from the committed offset 1 and
  // copies e2..e6 as they come. consumer-0 wakes, is told it left the group and rejoins at 51,531:
  // the range assignor gives partition 0 to consumer-0 (first by name). At 60,025 it polls e7;
  // its first send is refused (its epoch is fenced) → it exits at 60,026. The group removes the
  // dead static member 45 s later: the replacement gets partition 0 back at 105,028 from the
  // committed offset 6 and copies e7..e10 in one transaction: appended at 105,035..105,038, the
  // followers hold e7 at once and the rest in the answers to their next fetches (high watermark
  // 13 at 105,043), so it commits at 105,049.
  const zombieWhileEventsArrive = [
    { kind: 'zombie', at: 1529, target: 'consumer-0', pauseMs: 50_000 },
  ];

  it('events keep arriving after the zombie wakes: read_committed sees e1..e10 once, sum 550, drained', () => {
    const run = copier({ count: 10, startAtMs: 10, intervalMs: 10_000 }, zombieWhileEventsArrive);
    expect(totals(run, 'reader:rc')).toEqual({ rows: 10, sum: 550, duplicates: 0, lost: 0 });
    expect(run.cutOff).toBe(false);
    expect(run.endTime).toBe(105_057);
    const exits = entriesBy(run, 'crash', 'consumer-0');
    expect(exits.map((i) => run.trace.time[i])).toEqual([60_026]);
    expect(fencedExit(run.trace, exits[0]!)).toBe(true);
    const takeBack = entriesBy(run, 'assign', 'consumer-0-replacement').at(-1)!;
    expect([run.trace.time[takeBack], run.trace.offset[takeBack]]).toEqual([105_028, 6]);
  });

  // The same with 2 partitions and e1..e20 (10·i, sum 2100) every 5 s: the zombie takes one
  // partition back and exits on its first transaction; none of its records is lost.
  it('two partitions: e1..e20 once, sum 2100, drained', () => {
    const run = copier({ count: 20, startAtMs: 10, intervalMs: 5000 }, zombieWhileEventsArrive, {
      partitions: 2,
    });
    expect(totals(run, 'reader:rc')).toEqual({ rows: 20, sum: 2100, duplicates: 0, lost: 0 });
    expect(run.cutOff).toBe(false);
    expect(entriesBy(run, 'crash', 'consumer-0')).toHaveLength(1);
  });

  // The reproducer: e1..e10 at 10..100 ms; every 4th produce request from the 3rd on is
  // lost, for the whole run. consumer-0 pauses at 1,529 with transaction 1 open (e1 sent, its
  // request lost); the replacement starts at 46,529 (fencing it) and copies from offset 0.
  // consumer-0 wakes at 51,529; its retried send is refused (INVALID_PRODUCER_EPOCH) → fenced →
  // it exits at 51,637 and never takes the partition back.
  // No transaction can commit while the drops go on: a transaction's records leave in at least
  // four requests and each round of retries too, so each round loses one; a lost request is
  // retried only after request.timeout.ms (30 s), so the second round ends after the
  // transaction's 60 s — the coordinator aborts it (INVALID_PRODUCER_EPOCH, abortable: the
  // producer claims the bumped epoch) and the loop rejoins from the committed offset 0 and tries
  // again, for ever. The run cannot drain, in Kafka as here: it is cut off at its stop (the last
  // fault + 1 h = 3,651,529 ms) with 0 rows at rc, and says so. (Before: consumer-0 rejoined
  // with its fenced producer, took the partition at 166,557 and stopped; the run ended there,
  // not cut off.)
  it('reproducer (every 4th produce request lost): the zombie exits; the replacement rewinds to offset 0 after each aborted transaction; cut off, not ended as drained', () => {
    const run = copier({ count: 10, startAtMs: 10, intervalMs: 10 }, [
      { kind: 'zombie', at: 1529, target: 'consumer-0', pauseMs: 50_000 },
      { kind: 'drop-request', link: 'produce', match: { nth: 3, every: 4 } },
    ]);
    expect(run.cutOff).toBe(true);
    expect(run.cutOffBy).toBe('stop');
    expect(run.endTime).toBe(3_651_529);
    expect(totals(run, 'reader:rc').rows).toBe(0);
    const exits = entriesBy(run, 'crash', 'consumer-0');
    expect(exits.map((i) => run.trace.time[i])).toEqual([51_637]);
    expect(fencedExit(run.trace, exits[0]!)).toBe(true);
    expect(entriesBy(run, 'assign', 'consumer-0').every((i) => i < exits[0]!)).toBe(true);
    const rewinds = entriesBy(run, 'assign', 'consumer-0-replacement');
    expect(rewinds.length).toBeGreaterThan(2);
    expect(rewinds.every((i) => run.trace.offset[i] === 0)).toBe(true);
  });
});
