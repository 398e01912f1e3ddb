/**
 * Which sink structures are settled history (src/engine/core/settled.ts): the fault atlas's
 * rejoin test leaves them out of the states it compares, so naming one that a later statement
 * reads would make atlases wrong. Only a table that no statement reads is settled: a plain
 * INSERT's without a unique key or a dedupe table, and a file sink's; the external service's
 * effect counts.
 */
import { describe, expect, it } from 'vitest';
import { settledFields, type HasSettledFields } from '../core/settled';
import { runScenario } from '../testing';
import type { ScenarioInput } from '../scenario/schema';

/** The settled fields of the sink (or the service) of a one-record run into `sink`. */
function settledOf(
  sink: NonNullable<ScenarioInput['sink']>,
  of: 'sink' | 'service' = 'sink',
): readonly string[] {
  // A file or Delta sink is written by a Spark query.
  const spark = sink.type === 'file' || sink.type === 'delta';
  const run = runScenario({
    workload: { events: [{ id: 'a', amount: 1, at: 0 }] },
    processor: spark
      ? { type: 'spark' }
      : { type: 'consumer', 'enable.auto.commit': false, 'auto.offset.reset': 'earliest' },
    sink,
  });
  return (run.state[of] as unknown as HasSettledFields)[settledFields]();
}

describe('settled history of the sinks', () => {
  it('is the rows of a table no statement reads: a plain INSERT, a file sink', () => {
    expect(settledOf({ type: 'table', name: 't' })).toEqual(['rows']);
    expect(settledOf({ type: 'table', name: 't', statement: 'insert' })).toEqual(['rows']);
    expect(settledOf({ type: 'file', name: 'f' })).toEqual(['rows']);
  });

  it('is nothing where a statement looks rows up: ON CONFLICT, MERGE, a unique key, a dedupe table, Delta', () => {
    for (const statement of ['on-conflict-do-nothing', 'on-conflict-do-update', 'merge'] as const)
      expect(settledOf({ type: 'table', name: 't', statement })).toEqual([]);
    expect(settledOf({ type: 'table', name: 't', uniqueKey: true })).toEqual([]);
    expect(settledOf({ type: 'table', name: 't', dedupe: { retentionMs: 60_000 } })).toEqual([]);
    expect(settledOf({ type: 'delta', name: 'd' })).toEqual([]);
  });

  it("is the external service's effect counts, not its idempotency keys", () => {
    expect(settledOf({ type: 'effect', service: 'email' }, 'service')).toEqual([
      'effectsOf',
      'effects',
      'sum',
    ]);
  });
});
