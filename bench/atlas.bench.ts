/**
 * Small-run and fault-atlas benchmark (issue 23, section 3), in Node, on the bundled engine:
 * 1. the median time of one run of each library preset variant (after warm-up runs), with the
 *    CPU time beside the wall time — on a shared machine the wall time includes waits for a core;
 * 2. the atlas of every single-fault placement of each library preset variant: placements, total
 *    time, runs/s. Each atlas reuses its runs' memory (BufferPool), as the page's workers do.
 * Targets on the 2-core reference machine: a small run ≤ 0.5 ms median; a preset's single-fault
 * atlas ≤ 2 s. BENCH_ATLAS=0 skips the atlases; BENCH_PRESETS=a,b narrows to ids starting so.
 * An atlas of more than BENCH_ATLAS_SAMPLE_ABOVE placements (default 2,000: the 250- and
 * 1,000-event presets, whose whole atlases take minutes) is timed on an evenly spaced sample of
 * 400 of them and its total extrapolated — printed as "est."; BENCH_ATLAS_SAMPLE_ABOVE=Infinity
 * runs every placement of every preset.
 */
import {
  BufferPool,
  enumeratePlacements,
  firstRun,
  parseScenario,
  runTrials,
  simulate,
  trialFaults,
  type Scenario,
} from '../src/engine';
import { presets } from '../src/scenarios';

const WARMUP = Number(process.env.BENCH_WARMUP ?? 20);
const RUNS = Number(process.env.BENCH_SMALL_RUNS ?? 41);
const only = process.env.BENCH_PRESETS?.split(',').filter(Boolean);
const SAMPLE_ABOVE = Number(process.env.BENCH_ATLAS_SAMPLE_ABOVE ?? 2_000);
const SAMPLE = 400;

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

function variants(): { id: string; scenario: Scenario }[] {
  const out: { id: string; scenario: Scenario }[] = [];
  for (const p of presets)
    for (const v of p.variants) {
      const id = `${p.id}/${v.id}`;
      if (only && !only.some((o) => id.startsWith(o))) continue;
      const r = parseScenario(v.scenario);
      if (r.ok) out.push({ id, scenario: r.scenario });
    }
  return out;
}

/**
 * Median wall time (ms) of one run of `s`, after warm-up runs, and the mean CPU time per run
 * (measured around all the runs: process.cpuUsage costs more than a small run).
 */
function smallRun(s: Scenario, pool: BufferPool): { wallMs: number; cpuMs: number } {
  for (let i = 0; i < WARMUP; i++) pool.reclaim(simulate(s, { pool }));
  const wall: number[] = [];
  const c0 = process.cpuUsage();
  for (let i = 0; i < RUNS; i++) {
    const t0 = performance.now();
    const run = simulate(s, { pool });
    wall.push(performance.now() - t0);
    pool.reclaim(run);
  }
  const c = process.cpuUsage(c0);
  return { wallMs: median(wall), cpuMs: (c.user + c.system) / 1000 / RUNS };
}

export function runAtlasBench(): void {
  const list = variants();
  const pool = new BufferPool();
  console.log(
    `small runs: median wall time of ${RUNS} after ${WARMUP} warm-up runs / mean CPU time (ms)`,
  );
  const medians: number[] = [];
  for (const { id, scenario } of list) {
    const r = smallRun(scenario, pool);
    medians.push(r.wallMs);
    console.log(`  ${id}: ${r.wallMs.toFixed(3)} / ${r.cpuMs.toFixed(3)} ms`);
  }
  console.log(
    `  over ${list.length} variants: median ${median(medians).toFixed(3)} ms, mean ${(medians.reduce((a, b) => a + b, 0) / medians.length).toFixed(3)} ms, max ${Math.max(...medians).toFixed(3)} ms`,
  );
  if (process.env.BENCH_ATLAS === '0') return;
  console.log('single-fault atlas per preset variant (placements, wall / CPU s, runs/s)');
  let worst = { id: '', s: 0 };
  let within = 0;
  for (const { id, scenario } of list) {
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    // As explore() does, with the trials sampled when there are too many to time them all.
    const first = firstRun(scenario, pool);
    const placements = enumeratePlacements(scenario, first, undefined);
    const cutOff = first.cutOff;
    pool.reclaim(first);
    const n = placements.length;
    const sampled = n > SAMPLE_ABOVE;
    const picked = sampled
      ? Array.from({ length: SAMPLE }, (_, i) => [Math.floor((i * n) / SAMPLE)])
      : placements.map((_, i) => [i]);
    runTrials(scenario, trialFaults(placements, picked), cutOff, { pool });
    const scale = n / picked.length;
    const s = ((performance.now() - t0) / 1000) * scale;
    const c = process.cpuUsage(c0);
    const cpu = ((c.user + c.system) / 1e6) * scale;
    if (s > worst.s) worst = { id, s };
    if (cpu <= 2) within++;
    console.log(
      `  ${id}: ${n} placements, ${sampled ? 'est. ' : ''}${s.toFixed(2)} / ${cpu.toFixed(2)} s, ${Math.round(n / s)} runs/s${sampled ? ` (timed on ${SAMPLE})` : ''}`,
    );
  }
  console.log(
    `  slowest atlas: ${worst.id}, ${worst.s.toFixed(2)} s; ${within} of ${list.length} within 2 s of CPU`,
  );
}

if (process.argv[1] && /atlas\.bench\.[cm]?[tj]s$/.test(process.argv[1])) runAtlasBench();
