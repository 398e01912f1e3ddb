/**
 * Every run drains or says what is stuck (fast-check over random pipelines, recipes and fault
 * schedules; `FC_SEED=random` explores, a failure prints the seed and the shrunk scenario):
 *
 * - a run reported stuck names at least one component, with what it waits for and since when;
 * - a run that drained (not cut off) has nothing pending, and every loss in it has a cause — a
 *   loss with none ("e1 is in the log but was never processed", "e1 never reached sink") is a
 *   component that waits forever without the run saying so, or an engine path that drops an
 *   event silently.
 *
 * Issue 30's open items, as this property meets them (the fixed seed passes; other seeds,
 * `FC_SEED=random`, may draw them): items 1 and 4 are reported stuck (pass); items 2 and 3 (a
 * failed write dropped by Flink's non-XA JDBC sink, or by a parallel/handoff consumer with
 * onStatementError=retry) leave "e1 never reached sink", a loss without a cause (fail).
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { parseScenario, type Guarantee } from '../engine';
import { runCase, scenarioArb, unexplainedLosses, type Pipeline } from './pipelineArbs';

/** A fixed seed keeps `npm test` reproducible; `FC_SEED=random` (or a number) explores others. */
const seed = process.env.FC_SEED === 'random' ? undefined : Number(process.env.FC_SEED ?? 20261202);
const params = (numRuns: number) => ({ numRuns, ...(seed !== undefined ? { seed } : {}) });

const pipelines: Pipeline[] = [
  'consumer-kafka',
  'consumer-table',
  'flink-kafka',
  'flink-table',
  'flink-xa',
  'spark-delta',
];
const guarantees: Guarantee[] = ['at-most-once', 'at-least-once', 'exactly-once'];

/**
 * Any pipeline under any guarantee it offers (Spark has no at-most-once recipe), with random
 * faults — but for a fault the recipe made impossible (a lost checkpoint message once the
 * at-most-once recipe turned checkpointing off), which the scenario's validation refuses.
 */
const anyScenario = fc
  .record({ p: fc.constantFrom(...pipelines), g: fc.constantFrom(...guarantees) })
  .filter(({ p, g }) => !(p === 'spark-delta' && g === 'at-most-once'))
  .chain(({ p, g }) => scenarioArb(p, g))
  .filter((s) => parseScenario(s).ok);

describe('every run drains or says what is stuck', () => {
  it('stuck names a component; drained leaves nothing pending and no loss without a cause', () => {
    fc.assert(
      fc.property(anyScenario, (s) => {
        const run = runCase(s);
        if (run.cutOffBy === 'stuck') {
          expect(run.stuck.length).toBeGreaterThan(0);
          for (const x of run.stuck) {
            expect(run.trace.actors).toContain(x.component);
            expect(x.since).toBeGreaterThanOrEqual(0);
            expect(x.since).toBeLessThanOrEqual(run.endTime);
          }
          return;
        }
        if (run.cutOff) return; // stopped at stopAtMs or the trace limit: said so already
        expect(run.stuck).toEqual([]);
        expect(unexplainedLosses(run)).toEqual([]);
      }),
      params(300),
    );
  }, 120_000);
});
