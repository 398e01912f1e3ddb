/**
 * Properties of the consumer loop's recovery paths (issue 30, items 3 and 4), over random fault
 * schedules (fast-check; `FC_SEED=<seed>` replays a failure, `FC_SEED=random` explores):
 * - at-least-once with a hand-off worker or a parallel pool, a statement that fails (its write
 *   lost, no writer retry) retried by `onStatementError: "retry"` as in a sync loop: no event is
 *   lost once the run has drained;
 * - consume-transform-produce (the exactly-once recipe, `commit: "with-transaction"`) with a
 *   zombie while events keep arriving, lost produce and transaction requests and responses: once
 *   drained, the output topic holds every event exactly once as read_committed sees it (the fenced
 *   zombie exits instead of holding partitions it can no longer write for).
 */
import { describe, expect, it, vi } from 'vitest';
import fc from 'fast-check';
import { formatIssues, parseScenario, simulate } from '../engine';
import type { ScenarioInput } from '../engine';
import { applyGuarantee } from './guarantees';

// Whole runs on a loaded two-core machine: its slowest test took 1.2 s in a full CI run
// (this file 2.1 s), so each gets 10 s, ≥ 5× that, far from vitest's 5 s default.
vi.setConfig({ testTimeout: 10_000 });

const seed = process.env.FC_SEED === 'random' ? undefined : Number(process.env.FC_SEED ?? 20261202);
const params = (numRuns: number) => ({ numRuns, ...(seed !== undefined ? { seed } : {}) });

/** A probability in [0, max] in steps of 0.001 (fc.double favours extreme values). */
const probability = (max: number) =>
  fc.integer({ min: 0, max: Math.round(max * 1000) }).map((x) => x / 1000);

function run(s: ScenarioInput) {
  const r = parseScenario(s);
  if (!r.ok)
    throw new Error(
      `generated an invalid scenario: ${formatIssues(r.issues)}\n${JSON.stringify(s)}`,
    );
  return simulate(r.scenario);
}

/** Effects per event at a point of a run (rows or applications, whichever is more). */
function countsAt(r: ReturnType<typeof simulate>, point: string): number[] {
  const p = r.verdict.points.find((x) => x.name === point)!;
  return Array.from({ length: r.events.identities }, (_, j) => Math.max(p.rows[j]!, p.effects[j]!));
}

describe('consumer loop recovery under random faults', () => {
  it('at-least-once, handoff or parallel, statements failing with onStatementError retry: nothing lost once drained', () => {
    const arb = fc.record({
      mode: fc.constantFrom('handoff', 'parallel'),
      statementPer: fc.constantFrom('record', 'batch'),
      count: fc.integer({ min: 1, max: 20 }),
      partitions: fc.integer({ min: 1, max: 2 }),
      concurrency: fc.integer({ min: 1, max: 4 }),
      seed: fc.integer({ min: 0, max: 1000 }),
      faults: fc.array(
        fc.record({
          kind: fc.constant('random'),
          what: fc.constantFrom('drop-request', 'drop-response'),
          link: fc.constantFrom('sink', 'sink', 'fetch', 'commit'),
          probability: probability(0.3),
          untilMs: fc.integer({ min: 1000, max: 60_000 }),
        }),
        { minLength: 1, maxLength: 3 },
      ),
    });
    fc.assert(
      fc.property(arb, (c) => {
        const s = applyGuarantee(
          {
            version: 1,
            name: 'property',
            seed: c.seed,
            workload: { generate: { count: c.count, intervalMs: 50 } },
            broker: { partitions: c.partitions },
            processor: {
              type: 'consumer',
              'auto.offset.reset': 'earliest',
              processing: { mode: c.mode, concurrency: c.concurrency },
            },
            sink: { type: 'table', statementPer: c.statementPer },
            faults: c.faults as ScenarioInput['faults'],
          },
          'at-least-once',
        );
        // No writer retry: every lost statement reaches onStatementError (the recipe says retry).
        const r = run({ ...s, sink: { ...(s.sink as object), retries: 0 } } as ScenarioInput);
        expect(r.cutOff).toBe(false);
        expect(countsAt(r, r.verdict.primary).every((x) => x >= 1)).toBe(true);
      }),
      params(40),
    );
    // ~0.6 s on an idle machine; a loaded two-core CI machine runs it many times slower.
  }, 60_000);

  it('consume-transform-produce with a zombie: every event once in read_committed once drained', () => {
    const arb = fc.record({
      partitions: fc.integer({ min: 1, max: 2 }),
      seed: fc.integer({ min: 0, max: 1000 }),
      zombieAt: fc.integer({ min: 0, max: 60_000 }),
      pauseMs: fc.integer({ min: 46_000, max: 90_000 }),
      faults: fc.array(
        fc.record({
          kind: fc.constant('random'),
          // From 60 s on the source producer (events every 3 s up to 57 s) has sent everything:
          // only the loop's own producer and its transactions meet these.
          at: fc.constant(60_000),
          what: fc.constantFrom('drop-request', 'drop-response'),
          link: fc.constantFrom('produce', 'txn'),
          probability: probability(0.1),
          untilMs: fc.integer({ min: 60_000, max: 150_000 }),
        }),
        { maxLength: 2 },
      ),
    });
    fc.assert(
      fc.property(arb, (c) => {
        const r = run(
          applyGuarantee(
            {
              version: 1,
              name: 'property',
              seed: c.seed,
              workload: { topic: 'in', generate: { count: 20, startAtMs: 10, intervalMs: 3000 } },
              broker: { partitions: c.partitions },
              processor: { type: 'consumer', 'auto.offset.reset': 'earliest' },
              sink: { type: 'kafka', topic: 'out' },
              readers: [{ name: 'rc', topic: 'out', 'isolation.level': 'read_committed' }],
              faults: [
                { kind: 'zombie', at: c.zombieAt, target: 'consumer-0', pauseMs: c.pauseMs },
                ...(c.faults as NonNullable<ScenarioInput['faults']>),
              ],
            },
            'exactly-once',
          ),
        );
        expect(r.cutOff).toBe(false);
        const n = countsAt(r, 'log:out:read_committed');
        expect(n).toEqual(n.map(() => 1));
      }),
      params(40),
    );
    // ~0.6 s on an idle machine; a loaded two-core CI machine runs it many times slower.
  }, 60_000);
});
