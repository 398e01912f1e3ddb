// Prints, for every preset variant, a hash of its single-fault atlas's full outcome list (each
// trial's outcome, duplicated and lost counts, and whether its fault fired, in placement order):
// a reference to compare before and after a change to the engine or the atlas that must leave
// every atlas unchanged (`npx tsx scripts/atlas-outcomes.ts > before.txt`, change, again, `diff`).
// An atlas of more than 2,000 placements is taken on an evenly spaced sample of 400 of them, as
// the benchmark times it (bench/atlas.bench.ts); ATLAS_OUTCOMES_ALL=1 runs every placement.
// ATLAS_OUTCOMES_PRESETS=a,b narrows to variant ids starting so.
import {
  BufferPool,
  enumeratePlacements,
  firstRun,
  hashString32,
  parseScenario,
  runTrials,
  trialFaults,
} from '../src/engine';
import { presets } from '../src/scenarios';
import { pickPlacements } from '../bench/atlasSample';

const SAMPLE_ABOVE = process.env.ATLAS_OUTCOMES_ALL === '1' ? Infinity : 2_000;
const SAMPLE = 400;
const only = process.env.ATLAS_OUTCOMES_PRESETS?.split(',').filter(Boolean);

const pool = new BufferPool();
for (const preset of presets)
  for (const variant of preset.variants) {
    const id = `${preset.id}/${variant.id}`;
    if (only && !only.some((o) => id.startsWith(o))) continue;
    const parsed = parseScenario(variant.scenario);
    if (!parsed.ok) continue;
    const s = parsed.scenario;
    const first = firstRun(s, pool);
    const placements = enumeratePlacements(s, first, undefined);
    const cutOff = first.cutOff;
    pool.reclaim(first);
    const n = placements.length;
    const picked = pickPlacements(n, SAMPLE, SAMPLE_ABOVE);
    const results = runTrials(s, trialFaults(placements, picked), cutOff, { pool });
    const words = results
      .map((r) => `${r.outcome}:${r.duplicated}:${r.lost}:${r.fired ? 1 : 0}`)
      .join(',');
    const counts: Record<string, number> = {};
    for (const r of results) counts[r.outcome] = (counts[r.outcome] ?? 0) + 1;
    console.log(
      `${id}\t${results.length} of ${n}\t${hashString32(words).toString(16)}\t${Object.entries(counts)
        .map(([k, v]) => `${k}=${v}`)
        .join(' ')}`,
    );
  }
