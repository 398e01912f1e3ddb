// Atlas CPU time of two checkouts, alternated in one process (the load weighs on both alike):
// `ATLAS_AB=dirA,dirB npx tsx scripts/atlas-rejoin-ab.ts <variant>… ` runs, per round and per
// checkout, each variant's single-fault atlas on the placements bench/atlasSample.ts picks (all,
// or ATLAS_AB_SAMPLE evenly spaced ones above that many, default 200) and prints its CPU s and
// what the rejoin test did (trials tested, rejoined, of them with other settled history, entries
// skipped). ATLAS_AB_ROUNDS rounds (default 2).
import { pickPlacements } from '../bench/atlasSample';
import type * as EngineModule from '../src/engine';
import type * as LibraryModule from '../src/scenarios';

const roots = (process.env.ATLAS_AB ?? '').split(',').filter(Boolean);
const SAMPLE = Number(process.env.ATLAS_AB_SAMPLE ?? 200);
const ROUNDS = Number(process.env.ATLAS_AB_ROUNDS ?? 2);
const ids = process.argv.slice(2);
if (roots.length === 0 || ids.length === 0)
  throw new Error('usage: ATLAS_AB=dirA,dirB npx tsx scripts/atlas-rejoin-ab.ts <variant>…');

type Engine = typeof EngineModule;
type Library = typeof LibraryModule;
const loaded = await Promise.all(
  roots.map(async (root) => ({
    root,
    engine: (await import(`${root}/src/engine/index.ts`)) as Engine,
    library: (await import(`${root}/src/scenarios/index.ts`)) as Library,
  })),
);

for (let round = 1; round <= ROUNDS; round++)
  for (const { root, engine, library } of loaded)
    for (const id of ids) {
      const v = library.findPreset(id)?.variant;
      if (!v) throw new Error(`no variant ${id}`);
      const parsed = engine.parseScenario(v.scenario);
      if (!parsed.ok) throw new Error(id);
      const s = parsed.scenario;
      const pool = new engine.BufferPool();
      const t0 = process.cpuUsage();
      const first = engine.firstRun(s, pool);
      const placements = engine.enumeratePlacements(s, first, undefined);
      pool.reclaim(first);
      const picked = pickPlacements(placements.length, SAMPLE);
      const stats = { tried: 0, rejoined: 0, settled: 0, checks: 0, skipped: 0, tokens: 0 };
      engine.runTrials(s, engine.trialFaults(placements, picked), first.cutOff, {
        pool,
        rejoinStats: stats,
      });
      const t = process.cpuUsage(t0);
      const cpu = (t.user + t.system) / 1e6;
      console.log(
        `round ${round}\t${root}\t${id}\t${picked.length} of ${placements.length}\tCPU ${cpu.toFixed(2)} s\ttested ${stats.tried} rejoined ${stats.rejoined} (settled ${stats.settled ?? '-'}) skipped ${stats.skipped}`,
      );
    }
