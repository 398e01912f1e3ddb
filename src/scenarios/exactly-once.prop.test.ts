/**
 * The exactly-once recipes of every processor type, with the whole machinery, under random fault
 * schedules (fast-check; `FC_SEED=random` explores, a failure prints the seed and the shrunk
 * scenario): every run either drains with every event exactly once at the primary point, or is
 * reported stuck, naming what waits (src/engine/stuck.ts) — never a clean verdict over a loss.
 *
 * - consumer loop: consume-transform-produce in one Kafka transaction (`commit: with-transaction`,
 *   read_committed input), a read_committed reader downstream;
 * - Flink: KafkaSink EXACTLY_ONCE (two-phase commit per checkpoint) with a read_committed reader;
 *   and the JDBC exactly-once sink (XA transactions prepared per checkpoint);
 * - Spark: foreachBatch into Delta with `txnAppId`/`txnVersion` (the batch id), so a re-run batch
 *   is skipped.
 *
 * Faults: lost requests and answers on every link the pipeline uses, crashes of the processor,
 * leader failovers, zombies (consumer loop) and seeded random faults — but not the source-side
 * faults no recipe here can turn into exactly once (crashes of the source application, produce
 * messages lost for good: see `faultArb` in ./pipelineArbs.ts).
 *
 * Issue 30's open items, as these properties meet them (the fixed seed passes; other seeds,
 * `FC_SEED=random`, draw them): item 1 (a lost start-up transaction message, or a lost XA commit,
 * stops a Flink job) and item 4 (a fenced consumer stops holding its partition) are reported
 * stuck, so they pass; once fixed they drain and must be exactly once. Item 5 (the Flink and
 * Spark recipes keep `app.onFailure: skip`) needs source faults left out here.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { primaryCounts, runCase, scenarioArb, type Pipeline } from './pipelineArbs';

/** A fixed seed keeps `npm test` reproducible; `FC_SEED=random` (or a number) explores others. */
const seed = process.env.FC_SEED === 'random' ? undefined : Number(process.env.FC_SEED ?? 20261202);
const params = (numRuns: number) => ({ numRuns, ...(seed !== undefined ? { seed } : {}) });

/** Drains with each event exactly once at the primary point, or is cut off naming what waits. */
function drainsExactlyOnceOrNamesWhatIsStuck(p: Pipeline) {
  fc.assert(
    fc.property(scenarioArb(p, 'exactly-once', 'recoverable'), (s) => {
      const run = runCase(s);
      // Stuck, or cut off at the stop (a fault that never lets go: every other answer lost for
      // good): not a verdict, and the run names what waits.
      if (run.cutOff) {
        expect(run.stuck.length).toBeGreaterThan(0);
        return;
      }
      const n = primaryCounts(run);
      expect(n).toEqual(n.map(() => 1));
    }),
    params(60),
  );
}

describe('exactly-once recipes under random faults: drained exactly once, or stuck and named', () => {
  it('consumer loop, consume-transform-produce in one transaction → read_committed reader', () => {
    drainsExactlyOnceOrNamesWhatIsStuck('consumer-kafka');
  }, 60_000);

  it('Flink, KafkaSink EXACTLY_ONCE (2PC per checkpoint) → read_committed reader', () => {
    drainsExactlyOnceOrNamesWhatIsStuck('flink-kafka');
  }, 60_000);

  it('Flink, JDBC exactly-once sink (XA per checkpoint)', () => {
    drainsExactlyOnceOrNamesWhatIsStuck('flink-xa');
  }, 60_000);

  it('Spark, foreachBatch into Delta with txnAppId/txnVersion', () => {
    drainsExactlyOnceOrNamesWhatIsStuck('spark-delta');
  }, 60_000);
});
