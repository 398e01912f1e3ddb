/**
 * A run's trace stops growing at its limit: the columns double as entries come, but not past the
 * trace limit and a step's margin — a run cut off at 10,000,000 entries would otherwise hold
 * columns for 16,777,216 (≈ 790 MB at 47 bytes an entry), and while growing the old ones beside.
 */
import { describe, expect, it } from 'vitest';
import { parseScenario, simulate } from '.';
import { CEILING_MARGIN } from './trace';

describe('trace capacity at the trace limit', () => {
  it('a run cut off at 10,000 entries keeps columns for at most 10,000 + the margin', () => {
    // A crash before every commit, restarted at once: the run keeps itself busy until the limit.
    // 3 events: the columns start at 4,096 + 3 × 3.3 → 4,106 entries, double to 8,212, then
    // would double to 16,424; the ceiling stops them at 10,000 + 4,096 = 14,096.
    const parsed = parseScenario({
      version: 1,
      name: 'busy',
      workload: { generate: { count: 3, intervalMs: 1 } },
      processor: { type: 'consumer', 'auto.offset.reset': 'earliest', 'enable.auto.commit': false },
      faults: [
        {
          kind: 'periodic-crash',
          target: 'consumer-0',
          everyRecords: 1,
          point: 'before-commit',
          restartAfterMs: 0,
        },
      ],
      stopAtMs: 604_800_000,
    });
    if (!parsed.ok) throw new Error('invalid');
    const run = simulate(parsed.scenario, { maxTraceEntries: 10_000 });
    expect(run.cutOffBy).toBe('trace-limit');
    expect(run.trace.time.length).toBe(10_000 + CEILING_MARGIN);
  });
});
