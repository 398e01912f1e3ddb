/**
 * An atlas worker's warm-up: which trials it runs, in how many steps, and that an atlas after it
 * is the atlas without it.
 */
import { describe, expect, it } from 'vitest';
import { BufferPool, explore, parseScenario, PLACEMENT_KINDS, type Scenario } from '../../engine';
import { findPreset } from '../../scenarios';
import { assembleSlices, planAtlas, runAtlasSlice, trialChunks } from './atlasJob';
import { atlasWarmUp, warmUpSlices } from './atlasWarmUp';

function scenarioOf(ref: string): Scenario {
  const r = parseScenario(findPreset(ref)!.variant.scenario);
  if (!r.ok) throw new Error(ref);
  return r.scenario;
}

describe('warmUpSlices', () => {
  it('2,858 trials (Flink 2pc-read-committed): 48 slices of 4, the k-th from ⌊k × 2,858 / 48⌋', () => {
    const slices = warmUpSlices(2858);
    expect(slices).toHaveLength(48);
    // ⌊1 × 2,858 / 48⌋ = ⌊59.5⌋, ⌊24 × 2,858 / 48⌋ = 1,429, ⌊47 × 2,858 / 48⌋ = ⌊2,798.4⌋.
    expect([slices[0], slices[1], slices[24], slices[47]]).toEqual(
      [0, 59, 1429, 2798].map((from) => ({ from, to: from + 4 })),
    );
  });

  it('184 trials: ⌊k × 184 / 48⌋ steps by less than 4, so each slice starts where the last ended — 46 of 4', () => {
    expect(warmUpSlices(184)).toEqual(
      Array.from({ length: 46 }, (_, k) => ({ from: 4 * k, to: 4 * k + 4 })),
    );
  });

  it('10 trials: the slices would overlap, so each starts where the last ended — 4, 4, then 2', () => {
    expect(warmUpSlices(10)).toEqual([
      { from: 0, to: 4 },
      { from: 4, to: 8 },
      { from: 8, to: 10 },
    ]);
  });

  it('no trials: none', () => {
    expect(warmUpSlices(0)).toEqual([]);
  });
});

describe('atlasWarmUp', () => {
  it('at-most-once (204 placements): a plan, then 48 slices — 49 steps — and the atlas after it is the same', () => {
    const s = scenarioOf('at-most-once/default');
    const pool = new BufferPool();
    const warm = atlasWarmUp(s, pool);
    let steps = 1;
    while (warm.step()) steps++;
    expect(steps).toBe(49);
    expect(warm.step()).toBe(false);
    // The worker's next atlas reuses the warm-up's pool: its results are the one-thread atlas's.
    const plan = planAtlas(s, 1, PLACEMENT_KINDS, pool);
    if ('refused' in plan) throw new Error(plan.refused);
    const results = trialChunks(plan.trials, 1).map((c) =>
      runAtlasSlice(s, plan, c.from, c.to, { pool }),
    );
    expect(assembleSlices(s, plan, results)).toEqual(explore(s));
    // Two atlases of 204 runs and a warm-up: wide for a shared, loaded machine.
  }, 120_000);

  it('a workload of 1,001 events: no step at all, not even the plan (1,000 is the bound)', () => {
    const s = scenarioOf('at-most-once/default');
    const events = Array.from({ length: 1_001 }, (_, i) => ({
      ...s.workload.events![0]!,
      id: `p-${i + 1}`,
      at: i * 50,
    }));
    expect(atlasWarmUp({ ...s, workload: { ...s.workload, events } }).step()).toBe(false);
  });
});
