/**
 * The batch presets: every variant parses, runs through the batch engine and matches the
 * `expect` derived by hand beside it (./batch.ts, ./batchDedupe.ts); every fact a question needs
 * is in its setup; every source is a known page.
 */
import { describe, expect, it } from 'vitest';
import { compareBatchExpect, parseScenario, runBatch } from '../../engine';
import { batchPresets } from './batch';
import { SOURCES } from './sources';

describe('batch presets', () => {
  const known = new Set<string>(Object.values(SOURCES).map((s) => s.url));
  for (const p of batchPresets)
    describe(p.id, () => {
      it('states every fact its question needs, and cites known pages', () => {
        for (const need of p.predict.needs) expect(p.setup, need).toContain(need);
        for (const url of p.sources) expect(known.has(url), url).toBe(true);
      });
      for (const v of p.variants)
        it(`${v.id}: the run matches its expect`, () => {
          const parsed = parseScenario(v.scenario);
          if (!parsed.ok) throw new Error(JSON.stringify(parsed.issues));
          const r = runBatch(parsed.scenario);
          expect(compareBatchExpect(r, parsed.scenario.expect)).toEqual([]);
          // The observed guarantee is pinned by every variant.
          expect(parsed.scenario.expect?.observed).toBeDefined();
        });
    });

  it('the first variant of each question has the answer the question marks', () => {
    const first = (id: string) => {
      const p = batchPresets.find((x) => x.id === id)!;
      const parsed = parseScenario(p.variants[0]!.scenario);
      if (!parsed.ok) throw new Error('refused');
      return runBatch(parsed.scenario).verdict;
    };
    expect(
      first('clear-rerun-window')
        .events.filter((e) => e.ownRows === 0 && e.fate === 'lost')
        .map((e) => e.id),
    ).toEqual(['e1', 'e2', 'e3']);
    expect(
      first('redis-claim-order')
        .events.filter((e) => e.fate === 'lost')
        .map((e) => e.id),
    ).toEqual(['e5']);
    expect(
      first('content-key-false-merge')
        .events.filter((e) => e.fate === 'false-merge')
        .map((e) => e.id),
    ).toEqual(['p2']);
  });
});
