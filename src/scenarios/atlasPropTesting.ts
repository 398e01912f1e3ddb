/**
 * Scenarios for the atlas's tests: the library's variants of at most 30 events, parsed (the
 * property tests atlasTrials.prop.test.ts and atlasRejoin.prop.test.ts draw from them, so that a
 * trial stays a few milliseconds), and a plain copy into a table built by hand (the rejoin's
 * unit and property tests, atlasRejoin.test.ts and atlasRejoin.prop.test.ts).
 */
import { parseScenario, type Guarantee, type Scenario } from '../engine';
import { presets } from './index';

export const smallPresetScenarios: Scenario[] = presets.flatMap((p) =>
  p.variants.flatMap((v) => {
    const r = parseScenario(v.scenario);
    if (!r.ok) return [];
    const w = r.scenario.workload;
    const n = w.events ? w.events.length : (w.generate?.count ?? 0);
    return n <= 30 ? [r.scenario] : [];
  }),
);

/**
 * `count` records a second apart (from 1 s on), copied by a consumer loop into a plain table,
 * commit after write — the shape of retry-storm without its own fault: a lost sink write, retried
 * within the gap between two records, leaves the table as the scenario's own run's (a trial that
 * rejoins it), a lost sink response a duplicate row for good (one that cannot).
 */
export function copyToTable(count: number, claim: Guarantee): Scenario {
  const r = parseScenario({
    version: 1,
    name: 'copy to a table',
    claim,
    workload: { topic: 'events', generate: { count, startAtMs: 1000, intervalMs: 1000 } },
    producer: { 'request.timeout.ms': 500 },
    processor: { type: 'consumer', 'enable.auto.commit': false, 'auto.offset.reset': 'earliest' },
    sink: { type: 'table', name: 'events' },
  });
  if (!r.ok) throw new Error(JSON.stringify(r.issues));
  return r.scenario;
}
