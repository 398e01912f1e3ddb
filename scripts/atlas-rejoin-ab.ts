// Atlas CPU time of two checkouts, alternated in one process (the load weighs on both alike):
// `ATLAS_AB=dirA,dirB npx tsx scripts/atlas-rejoin-ab.ts <variant>… ` runs, per round and per
// checkout, each variant's single-fault atlas on the placements bench/atlasSample.ts picks (all,
// or ATLAS_AB_SAMPLE evenly spaced ones above that many, default 200) and prints its CPU s and
// what the rejoin test did (trials tested, rejoined, of them with other settled history, entries
// skipped). ATLAS_AB_ROUNDS rounds (default 2). ATLAS_AB_WORKERS=n runs the trials as the page's n
// workers do (src/views/atlas/atlasJob.ts): in its chunks, worker i taking chunks i, i + n, …,
// each worker's chunks sharing a trial session where the checkout has one (session.ts).
import { pickPlacements } from '../bench/atlasSample';
import type * as EngineModule from '../src/engine';
import type * as LibraryModule from '../src/scenarios';
import type * as JobModule from '../src/views/atlas/atlasJob';

const roots = (process.env.ATLAS_AB ?? '').split(',').filter(Boolean);
const SAMPLE = Number(process.env.ATLAS_AB_SAMPLE ?? 200);
const ROUNDS = Number(process.env.ATLAS_AB_ROUNDS ?? 2);
const WORKERS = Number(process.env.ATLAS_AB_WORKERS ?? 0);
const ids = process.argv.slice(2);
if (roots.length === 0 || ids.length === 0)
  throw new Error('usage: ATLAS_AB=dirA,dirB npx tsx scripts/atlas-rejoin-ab.ts <variant>…');

type Engine = typeof EngineModule;
type Library = typeof LibraryModule;
type Job = typeof JobModule;
const loaded = await Promise.all(
  roots.map(async (root) => ({
    root,
    engine: (await import(`${root}/src/engine/index.ts`)) as Engine,
    library: (await import(`${root}/src/scenarios/index.ts`)) as Library,
    job: (await import(`${root}/src/views/atlas/atlasJob.ts`)) as Job,
  })),
);

for (let round = 1; round <= ROUNDS; round++)
  for (const { root, engine, library, job } of loaded)
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
      const trials = engine.trialFaults(placements, picked);
      if (WORKERS === 0) engine.runTrials(s, trials, first.cutOff, { pool, rejoinStats: stats });
      else {
        const chunks = job.trialChunks(trials.length, WORKERS);
        for (let w = 0; w < WORKERS; w++) {
          // A checkout before trial sessions has none: each chunk then builds its own.
          const session = (engine as Partial<Engine>).trialSession?.(s);
          const worker = { ...stats, tried: 0, rejoined: 0, settled: 0, skipped: 0 };
          for (let c = w; c < chunks.length; c += WORKERS) {
            const part = { tried: 0, rejoined: 0, settled: 0, checks: 0, skipped: 0, tokens: 0 };
            const { from, to } = chunks[c]!;
            engine.runTrials(s, trials.slice(from, to), first.cutOff, {
              pool,
              rejoinStats: part,
              session,
            });
            // With a session the counts are the session's so far: the last chunk's are the total.
            for (const k of ['tried', 'rejoined', 'settled', 'skipped'] as const)
              worker[k] = session ? part[k] : worker[k] + part[k];
          }
          for (const k of ['tried', 'rejoined', 'settled', 'skipped'] as const)
            stats[k] += worker[k];
        }
      }
      const t = process.cpuUsage(t0);
      const cpu = (t.user + t.system) / 1e6;
      console.log(
        `round ${round}\t${root}\t${id}\t${picked.length} of ${placements.length}\tCPU ${cpu.toFixed(2)} s\ttested ${stats.tried} rejoined ${stats.rejoined} (settled ${stats.settled ?? '-'}) skipped ${stats.skipped}`,
      );
    }
