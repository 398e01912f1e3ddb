/**
 * Property (fast-check): a Flink job whose sink loses messages — transactional requests and
 * answers of a KafkaSink, statements and answers of a JDBC sink — recovers as the real systems do
 * (flink-recovery.test.ts has the single cases, derived by hand): once the lost messages stop, the
 * run drains, and an exactly-once sink (KafkaSink EXACTLY_ONCE read with read_committed, the JDBC
 * XA sink, an upsert on the business id) holds every event exactly once — with a crash of the job
 * thrown in too. `FC_SEED=random` (or a number) explores other cases; a failure prints its seed
 * and the shrunk counterexample.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { runScenario, totals } from '../testing';

const seed = process.env.FC_SEED === 'random' ? undefined : Number(process.env.FC_SEED ?? 20261202);
const params = (numRuns: number) => ({ numRuns, ...(seed !== undefined ? { seed } : {}) });

const sinks = {
  kafka: {
    sink: {
      type: 'kafka',
      topic: 'out',
      deliveryGuarantee: 'EXACTLY_ONCE',
      transactionalIdPrefix: 'job',
      'transaction.timeout.ms': 900_000,
    },
    link: 'txn',
    point: 'reader:rc',
  },
  xa: { sink: { type: 'table', xa: true, retries: 0 }, link: 'sink', point: 'sink' },
  upsert: {
    sink: { type: 'table', statement: 'on-conflict-do-nothing', retries: 0 },
    link: 'sink',
    point: 'sink',
  },
} as const;

/** Lost messages on `link`: a few scheduled ones and a random spell that ends within 20 s. */
const lostMessages = (link: string) =>
  fc.tuple(
    fc.array(
      fc.record({
        kind: fc.constantFrom('drop-request', 'drop-response'),
        link: fc.constant(link),
        at: fc.integer({ min: 0, max: 5000 }),
        match: fc.record({ nth: fc.integer({ min: 1, max: 8 }) }),
      }),
      { maxLength: 3 },
    ),
    fc.option(
      fc.record({
        kind: fc.constant('random'),
        what: fc.constantFrom('drop-request', 'drop-response'),
        link: fc.constant(link),
        probability: fc.integer({ min: 1, max: 300 }).map((x) => x / 1000),
        at: fc.integer({ min: 0, max: 3000 }),
        untilMs: fc.integer({ min: 3000, max: 20_000 }),
      }),
      { nil: undefined },
    ),
    fc.option(
      fc.record({
        kind: fc.constant('crash'),
        target: fc.constant('flink'),
        at: fc.integer({ min: 0, max: 8000 }),
        restartAfterMs: fc.integer({ min: 0, max: 3000 }),
      }),
      { nil: undefined },
    ),
  );

describe('Flink exactly-once sinks under lost sink messages: drained, every event once', () => {
  for (const [name, s] of Object.entries(sinks))
    it(
      name,
      () => {
        fc.assert(
          fc.property(
            fc.integer({ min: 1, max: 12 }),
            fc.integer({ min: 1, max: 1000 }),
            lostMessages(s.link),
            (count, scenarioSeed, [scheduled, random, crash]) => {
              const run = runScenario({
                seed: scenarioSeed,
                claim: 'exactly-once',
                workload: { generate: { count, intervalMs: 400 } },
                processor: { type: 'flink', 'execution.checkpointing.interval': 1000 },
                sink: s.sink as never,
                readers:
                  name === 'kafka'
                    ? [{ name: 'rc', topic: 'out', 'isolation.level': 'read_committed' }]
                    : [],
                faults: [...scheduled, random, crash].filter((f) => f !== undefined) as never,
              });
              expect(run.cutOff).toBe(false);
              const t = totals(run, s.point);
              expect([t.rows, t.duplicates, t.lost]).toEqual([count, 0, 0]);
            },
          ),
          params(25),
        );
      },
      300_000,
    );
});
