import { describe, expect, it } from 'vitest';
import { parseScenario } from '../scenario/validate';
import type { ScenarioInput } from '../scenario/schema';
import { simulate, type Run } from '../simulate';
import { traceHash } from '../hash';
import { BufferPool } from './pool';

// Large enough that the per-event Int32 arrays (a table's row count per event, 4 bytes each)
// pass the pool's floor (256 bytes; 64 KiB when this was written), so they are taken from it:
// counts that must start at zero.
const N = 17_000;

function scenario(over: Partial<ScenarioInput>): ScenarioInput {
  const s = {
    version: 1,
    name: 'pool',
    seed: 3,
    workload: { generate: { count: N, intervalMs: 1, keys: 50 } },
    broker: { partitions: 4 },
    processor: { type: 'consumer', 'enable.auto.commit': false, 'max.poll.records': 100 },
    sink: { type: 'table', statement: 'insert' },
    faults: [
      { kind: 'random', link: 'produce', what: 'drop-response', probability: 0.05 },
      { kind: 'periodic-crash', target: 'consumer-0', everyRecords: 1000, restartAfterMs: 50 },
    ],
    ...over,
  };
  const p = parseScenario(s);
  if (!p.ok) throw new Error(JSON.stringify(p.issues));
  return p.scenario as unknown as ScenarioInput;
}

/** What a run shows: its trace hash and the checker's totals at every point. */
function outcome(run: Run): unknown {
  return {
    hash: traceHash(run.trace),
    points: run.verdict.points.map((p) => [p.name, p.totals]),
    fate: Array.from(run.verdict.fate),
  };
}

const run = (s: ScenarioInput, pool?: BufferPool) =>
  simulate(s as Parameters<typeof simulate>[0], { pool });

describe('BufferPool', () => {
  // Append sink with lost acks and crashes: duplicates, so a table's stale row counts from the
  // earlier run would show if a reused array were not zeroed.
  const append = scenario({});
  // A different pipeline (Flink, exactly-once Kafka sink) that asks for other sizes.
  const flink = scenario({
    processor: { type: 'flink', 'execution.checkpointing.interval': 200 },
    sink: {
      type: 'kafka',
      topic: 'out',
      partitions: 4,
      deliveryGuarantee: 'EXACTLY_ONCE',
      transactionalIdPrefix: 't',
    },
    readers: [{ name: 'rc', topic: 'out', 'isolation.level': 'read_committed' }],
    faults: [{ kind: 'periodic-crash', target: 'flink', everyRecords: 1500, restartAfterMs: 100 }],
  });

  it('reuses a reclaimed run’s arrays, and the next run is the same as with new memory', () => {
    const fresh = outcome(run(append));
    // The table's duplicates: the consumer's crashes replay what it wrote before its commit.
    const sink = (fresh as { points: [string, { duplicates: number }][] }).points.find(
      ([name]) => name === 'sink',
    );
    expect(sink![1].duplicates).toBeGreaterThan(0);
    const pool = new BufferPool();
    const first = run(append, pool);
    const buffers = new Set(first.trace.columns().map((c) => c.buffer));
    expect(outcome(first)).toEqual(fresh);
    pool.reclaim(first);
    const second = run(append, pool);
    // The same memory (one of the first trace's columns), rewritten from zero.
    expect(buffers.has(second.trace.time.buffer)).toBe(true);
    expect(outcome(second)).toEqual(fresh);
  }, 60_000);

  it('serves a different scenario after a reclaim without leaking the earlier run’s values', () => {
    const pool = new BufferPool();
    pool.reclaim(run(append, pool));
    expect(outcome(run(flink, pool))).toEqual(outcome(run(flink)));
    const again = run(append, pool);
    expect(outcome(again)).toEqual(outcome(run(append)));
  }, 60_000);

  it('skips buffers transferred away after the reclaim, and ignores runs it did not make', () => {
    const pool = new BufferPool();
    const first = run(append, pool);
    const moved = first.trace.time.buffer as ArrayBuffer;
    pool.reclaim(first);
    // As the worker's postMessage(view, transferables) does: the buffer is detached here.
    structuredClone(moved, { transfer: [moved] });
    expect(moved.byteLength).toBe(0);
    const second = run(append, pool);
    expect(second.trace.time.buffer).not.toBe(moved);
    expect(outcome(second)).toEqual(outcome(run(append)));
    const other = run(append);
    const before = outcome(other);
    pool.reclaim(other);
    run(flink, pool);
    expect(outcome(other)).toEqual(before);
  }, 60_000);
});
