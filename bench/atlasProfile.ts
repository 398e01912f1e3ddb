/**
 * The atlases to profile (issue 23, section 3): each named preset's single-fault atlas on an
 * evenly spaced sample of its placements, as bench/atlas.bench.ts times them (the default trial
 * path, one BufferPool), with the CPU time and its extrapolation to every placement. Profile it
 * bundled, as the page ships the engine (tsx wraps every function in a naming call):
 *   npx vite build --ssr bench/atlasProfile.ts --outDir <dir> …, then
 *   node --cpu-prof --cpu-prof-dir=<dir> <dir>/atlasProfile.js
 * or, for a quick look, `npx tsx bench/atlasProfile.ts`. ATLAS_PROFILE_PRESETS=a/b,c/d picks the
 * variants (default: flink-checkpoint-replay/2pc-read-committed and
 * card-charge-idempotency/email-in-operator); ATLAS_PROFILE_SAMPLE the sample (default 400).
 */
import { BufferPool, enumeratePlacements, firstRun, runTrials, trialFaults } from '../src/engine';
import { presetScenario } from './presetScenario';
import { pickPlacements } from './atlasSample';

const ids = (
  process.env.ATLAS_PROFILE_PRESETS ??
  'flink-checkpoint-replay/2pc-read-committed,card-charge-idempotency/email-in-operator'
).split(',');
const SAMPLE = Number(process.env.ATLAS_PROFILE_SAMPLE ?? 400);

const pool = new BufferPool();
for (const id of ids) {
  const s = presetScenario(id);
  const c0 = process.cpuUsage();
  const first = firstRun(s, pool);
  const placements = enumeratePlacements(s, first, undefined);
  const cutOff = first.cutOff;
  const entries = first.trace.length;
  pool.reclaim(first);
  const n = placements.length;
  const k = Math.min(SAMPLE, n);
  const picked = pickPlacements(n, SAMPLE);
  runTrials(s, trialFaults(placements, picked), cutOff, { pool });
  const c = process.cpuUsage(c0);
  const cpu = (c.user + c.system) / 1e6;
  console.log(
    `${id}: ${n} placements × ${entries} entries, ${k} run in ${cpu.toFixed(2)} s of CPU → est. ${((cpu * n) / k).toFixed(2)} s for all`,
  );
}
