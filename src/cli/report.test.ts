/**
 * The text and JSON reports of a run cut off with work still pending: they say so (the page says
 * "cut off at stopAtMs"), instead of presenting what had not arrived yet as plain data loss.
 */
import { describe, expect, it } from 'vitest';
import { runScenario } from '../engine/testing';
import { jsonReport, textReport } from './report';

/**
 * 2,500 events within the first 0.25 ms; the consumer starts at 10 s, the run stops at 5 s: nothing is processed,
 * every event counts as lost, and the engine explains the first 2,000 of them.
 */
const cut = () =>
  runScenario({
    workload: { generate: { count: 2500, intervalMs: 0.0001 } },
    processor: { type: 'consumer', 'auto.offset.reset': 'earliest', startAtMs: 10_000 },
    stopAtMs: 5_000,
  });

describe('a run cut off at stopAtMs', () => {
  it('JSON carries cutOff and the stop in effect', () => {
    const r = jsonReport(cut());
    expect(r.cutOff).toBe(true);
    expect(r.stopAtMs).toBe(5_000);
    expect(r.totals.lost).toBe(2500);
  });

  it('text says the run was cut off, why the events are missing, and how many were explained', () => {
    const text = textReport(cut());
    expect(text).toContain(
      'cut off at 5000 ms (stopAtMs) with work still pending: events still on their way count as lost',
    );
    expect(text).toContain(
      'e1 is in the log but had not been processed when the run was cut off at 5000 ms',
    );
    expect(text).toContain('(explained: the first 2,000 of 2,500 events lost or duplicated)');
  });

  it('a run that drains says neither', () => {
    const run = runScenario({
      workload: { generate: { count: 10, intervalMs: 1 } },
      processor: { type: 'consumer', 'auto.offset.reset': 'earliest' },
    });
    expect(jsonReport(run).cutOff).toBe(false);
    const text = textReport(run);
    expect(text).not.toContain('cut off');
    expect(text).not.toContain('explained:');
  });
});
