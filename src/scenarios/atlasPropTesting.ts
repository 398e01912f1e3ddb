/**
 * The library's variants of at most 30 events, parsed: the atlas's property tests
 * (atlasTrials.prop.test.ts, atlasRejoin.prop.test.ts) draw from them, so that a trial stays a
 * few milliseconds.
 */
import { parseScenario, type Scenario } from '../engine';
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
