/**
 * Properties of the time-bounded dedupe in the stream processors (fast-check, bounded runs;
 * FC_SEED=random explores others), docs/semantics/stream-dedupe.md:
 * - Flink keep-first dedupe with `table.exec.state.ttl`: a key's state is written by its first row
 *   and expires `ttl` after that write, in processing time; an expired entry is never returned
 *   (https://nightlies.apache.org/flink/flink-docs-stable/docs/dev/datastream/fault-tolerance/state/#state-time-to-live-ttl).
 *   Over any arrivals, the rows that pass are exactly those the rule picks from the arrival times.
 * - Through the whole engine, an application's second copy of one event (a new record, sent `gap`
 *   ms after the first): removed when it comes within the TTL / the watermark delay, passed when it
 *   comes later — Flink: later than the TTL; Spark `dropDuplicatesWithinWatermark`: once the
 *   watermark (max event time seen − delay) has passed the first copy's time + the delay
 *   (https://spark.apache.org/docs/latest/api/python/reference/pyspark.sql/api/pyspark.sql.DataFrame.dropDuplicatesWithinWatermark.html).
 *   Exact rows: 40 events, plus 1 when the copy passes.
 * - The same scenario gives the same trace hash.
 */
import { describe, expect, it, vi } from 'vitest';
import fc from 'fast-check';
import { traceHash, type ScenarioInput } from '../engine';
import { ttlDedupe } from '../engine/processors/streamDedupe';
import { runScenario, totals } from '../engine/testing';

// Whole runs on a loaded two-core machine: this file's slowest test took 2.4 s alone; 20 s each
// is ≥ 8× that, far from vitest's 5 s default.
vi.setConfig({ testTimeout: 20_000 });

const seed = process.env.FC_SEED === 'random' ? undefined : Number(process.env.FC_SEED ?? 20261202);
const params = (numRuns: number) => ({ numRuns, ...(seed !== undefined ? { seed } : {}) });

describe('Flink TTL dedupe over any arrivals', () => {
  it('passes exactly the rows that come when no live state holds their key', () => {
    // Times and TTLs on a 100 ms grid, so that copies often come exactly `ttl` after the write:
    // expired then ("never returned" once the TTL has passed).
    const grid = (max: number) => fc.integer({ min: 0, max }).map((n) => 100 * n);
    const arrivals = fc.array(fc.record({ id: fc.integer({ min: 1, max: 3 }), at: grid(100) }), {
      maxLength: 30,
    });
    const ttlArb = grid(40).filter((t) => t > 0);
    fc.assert(
      fc.property(arrivals, ttlArb, (list, ttl) => {
        const sorted = [...list].sort((a, b) => a.at - b.at);
        // The rule from the arrival times: a row passes when it is the key's first, or comes
        // `ttl` or more after the row that last wrote the key's state (keep-first: a dropped copy
        // does not write it).
        const writtenAt = new Map<number, number>();
        let expected = 0;
        for (const { id, at } of sorted) {
          const w = writtenAt.get(id);
          if (w === undefined || at - w >= ttl) {
            expected++;
            writtenAt.set(id, at);
          }
        }
        const state = new Map<number, number>();
        const passed = sorted.filter(({ id, at }) => ttlDedupe(state, id, at, ttl) === 'pass');
        expect(passed.length).toBe(expected);
      }),
      params(200),
    );
  });
});

/** 40 events every 100 ms from 100 ms; the application sends e`k` again `gap` ms after it. */
function secondCopy(k: number, gap: number, processor: ScenarioInput['processor']): ScenarioInput {
  return {
    version: 1,
    name: 'second copy',
    claim: 'exactly-once',
    workload: { topic: 'orders', generate: { count: 40, startAtMs: 100, intervalMs: 100 } },
    producer: { app: { onFailure: 'resend' } },
    processor,
    sink: { type: 'table', name: 'orders', statementPer: 'batch' },
    faults: [{ kind: 'app-resend', event: `e${k}`, at: 100 * k + gap }],
  };
}

/** The copy's event: e1..e5, so the workload (to 4,000 ms) runs on past any copy. */
const eventArb = fc.integer({ min: 1, max: 5 });

describe('a second copy through the engine: removed within the bound, passed after it', () => {
  it('Flink keep-first dedupe with table.exec.state.ttl', () => {
    // The copy reaches the dedupe `gap` ms after the first, give or take the fetch and the
    // network (a few ms): removed when gap < ttl, passed when gap ≥ ttl. Gaps within 300 ms of
    // the TTL are left out (the record's own delays decide them).
    const caseArb = fc
      .record({
        k: eventArb,
        gap: fc.integer({ min: 100, max: 3000 }),
        ttl: fc.integer({ min: 200, max: 2500 }),
      })
      .filter(({ gap, ttl }) => Math.abs(gap - ttl) > 300);
    fc.assert(
      fc.property(caseArb, ({ k, gap, ttl }) => {
        const run = runScenario(
          secondCopy(k, gap, {
            type: 'flink',
            'execution.checkpointing.interval': 1000,
            dedupe: { 'table.exec.state.ttl': ttl },
          }),
        );
        expect(totals(run).rows).toBe(gap < ttl ? 40 : 41);
      }),
      params(12),
    );
  });

  it('Spark dropDuplicatesWithinWatermark on the record timestamp', () => {
    // First copy at t (≈ 100·k), the copy at t + gap, read by the first micro-batch after it
    // (trigger 1 s). That batch's watermark is the max event time read by the batches before it
    // — between t + gap − 1,100 and t + gap — minus the delay; the key is evicted once that
    // watermark reaches t + delay. So gap < delay: removed (within the watermark); gap ≥
    // 2·delay + 1,200: passed; the gaps between depend on the batch boundaries and are left out.
    const caseArb = fc
      .record({
        k: eventArb,
        gap: fc.integer({ min: 100, max: 3400 }),
        delay: fc.integer({ min: 300, max: 2000 }),
      })
      .filter(({ gap, delay }) => gap < delay || gap >= 2 * delay + 1200);
    fc.assert(
      fc.property(caseArb, ({ k, gap, delay }) => {
        const run = runScenario(
          secondCopy(k, gap, {
            type: 'spark',
            startingOffsets: 'earliest',
            dedupe: { delayThresholdMs: delay },
          }),
        );
        expect(totals(run).rows).toBe(gap < delay ? 40 : 41);
      }),
      params(12),
    );
  });

  it('the same scenario gives the same trace hash', () => {
    const caseArb = fc.record({
      k: eventArb,
      gap: fc.integer({ min: 100, max: 3400 }),
      bound: fc.integer({ min: 200, max: 2500 }),
      flink: fc.boolean(),
    });
    fc.assert(
      fc.property(caseArb, ({ k, gap, bound, flink }) => {
        const input = secondCopy(
          k,
          gap,
          flink
            ? { type: 'flink', dedupe: { 'table.exec.state.ttl': bound } }
            : { type: 'spark', dedupe: { delayThresholdMs: bound } },
        );
        const again = JSON.parse(JSON.stringify(input)) as ScenarioInput;
        expect(traceHash(runScenario(again).trace)).toBe(traceHash(runScenario(input).trace));
      }),
      params(6),
    );
  });
});
