/**
 * The atlas as the page's workers build it — a plan, slices run apart, assembled in slice order —
 * is the engine's one-thread atlas, for any worker count.
 */
import { describe, expect, it } from 'vitest';
import { explore, parseScenario, PLACEMENT_KINDS, type Scenario } from '../../engine';
import { findPreset } from '../../scenarios';
import { assembleSlices, planAtlas, runAtlasSlice, trialChunks, trialSlices } from './atlasJob';
import { heatMap } from './heatMap';

function scenarioOf(ref: string): Scenario {
  const r = parseScenario(findPreset(ref)!.variant.scenario);
  if (!r.ok) throw new Error(ref);
  return r.scenario;
}

/** The atlas as `workers` workers build it. */
function inWorkers(s: Scenario, workers: number, depth: 1 | 2 = 1) {
  const plan = planAtlas(s, depth, PLACEMENT_KINDS);
  if ('refused' in plan) throw new Error(plan.refused);
  const results = trialSlices(plan.trials, workers).map((sl) =>
    runAtlasSlice(s, plan, sl.from, sl.to),
  );
  return assembleSlices(s, plan, results);
}

describe('the atlas in slices', () => {
  it('at-most-once: 204 placements, the same atlas with 1, 2 and 3 workers as on one thread', () => {
    const s = scenarioOf('at-most-once/default');
    const whole = explore(s);
    // 204 placements, 170 held and 34 losing and duplicating: what `sim at-most-once --explore`
    // prints
    // (placements.ts enumerates them; src/engine/atlas/placements.test.ts counts them by hand
    // on small scenarios). The page's e2e spec asserts these same numbers on screen.
    expect(whole.placements).toHaveLength(204);
    for (const w of [1, 2, 3]) expect(inWorkers(s, w)).toEqual(whole);
    expect(heatMap(whole).totals).toEqual(AT_MOST_ONCE_TOTALS);
    // The page hands out chunks as workers free up, so they finish in any order: run them last
    // first, each result stored at its chunk's index, and the atlas is the same.
    const plan = planAtlas(s, 1, PLACEMENT_KINDS);
    if ('refused' in plan) throw new Error(plan.refused);
    const chunks = trialChunks(plan.trials, 2);
    const results = chunks.map(() => [] as ReturnType<typeof runAtlasSlice>);
    for (let c = chunks.length - 1; c >= 0; c--)
      results[c] = runAtlasSlice(s, plan, chunks[c]!.from, chunks[c]!.to);
    expect(assembleSlices(s, plan, results)).toEqual(whole);
  }, 120_000);

  it('cuts trials into about 8 chunks per worker, none under 8 trials, covering each once', () => {
    // 184 trials, 2 workers: min(2·8, ⌊184/8⌋ = 23) = 16 chunks; 184 = 16·11 + 8, so the first
    // 8 chunks hold 12 trials and the last 8 hold 11.
    const c = trialChunks(184, 2);
    expect(c.map((x) => x.to - x.from)).toEqual([...Array(8).fill(12), ...Array(8).fill(11)]);
    expect(c[0]!.from).toBe(0);
    for (let i = 1; i < c.length; i++) expect(c[i]!.from).toBe(c[i - 1]!.to);
    expect(c.at(-1)!.to).toBe(184);
    // 20 trials: ⌊20/8⌋ = 2 chunks of 10, however many workers; 5 trials: one chunk of 5.
    expect(trialChunks(20, 4)).toEqual([
      { from: 0, to: 10 },
      { from: 10, to: 20 },
    ]);
    expect(trialChunks(5, 2)).toEqual([{ from: 0, to: 5 }]);
  });

  it('refuses pairs past the engine bound, in words', () => {
    const s = scenarioOf('flink-checkpoint-replay/plain-sink');
    const plan = planAtlas(s, 2, PLACEMENT_KINDS);
    expect(plan).toHaveProperty('refused');
  }, 60_000);
});

/** Pinned from the one-thread atlas above (the engine's classification of each run). */
const AT_MOST_ONCE_TOTALS = { held: 170, duplicates: 0, losses: 0, both: 34, stuck: 0 };
