/**
 * What a fork costs next to what it saves (issue 23, section 3; src/engine/atlas/fork.ts): for
 * each variant, the scenario's own run paused halfway, then the median CPU time of one snapshot of
 * it (after warm-up copies), of the run up to that point from scratch (what the snapshot saves),
 * and of the whole run — with the trace entries written by then. `BENCH_ONLY=atlasPaths npm run
 * bench`; BENCH_PRESETS=a,b narrows to ids starting so (default: the variants docs/benchmarks.md
 * quotes); BENCH_COPIES (default 41) copies are timed per variant.
 * Then each variant's single-fault atlas by each trial path (BENCH_PATHS, default scratch,auto),
 * the paths alternated BENCH_ALTERNATIONS (default 3) times in one process — so a shared machine's
 * changing load weighs on each alike — with the median CPU s per path; an atlas of more than
 * BENCH_PATH_SAMPLE (default 400) placements is timed on that many, evenly spaced, and
 * extrapolated ("est."). Last, pairs of the 50-event workload of bench/atlas.bench.ts by each
 * path (BENCH_PAIRS=0 skips them). BENCH_COPY=0 skips the copy figures.
 */
import {
  enumeratePlacements,
  firstRun,
  PAIR_EVENT_LIMIT,
  pairsOf,
  parseScenario,
  runTrials,
  simulate,
  trialFaults,
  type Scenario,
  type TrialPath,
} from '../src/engine';
import { assembleRun, advanceRun, finishRun } from '../src/engine/simulate';
import { Forker } from '../src/engine/atlas/fork';
import { BufferPool, withPool } from '../src/engine/core/pool';
import { buildEvents } from '../src/engine/scenario/workload';
import { presets } from '../src/scenarios';
import { pickPlacements } from './atlasSample';

const DEFAULT = [
  'at-least-once/',
  'at-most-once/',
  'card-charge-idempotency/stable-key',
  'card-charge-idempotency/email-in-operator',
  'retry-storm/',
  'consume-transform-produce/read-committed',
  'lost-ack-retry/acks-1',
];
const only = process.env.BENCH_PRESETS?.split(',').filter(Boolean) ?? DEFAULT;
const COPIES = Number(process.env.BENCH_COPIES ?? 41);
const WARMUP = 10;

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

/** CPU ms of `fn`, timed `n` times after `WARMUP` untimed calls: the median. */
function cpuMedian(n: number, fn: () => void): number {
  for (let i = 0; i < WARMUP; i++) fn();
  const xs: number[] = [];
  for (let i = 0; i < n; i++) {
    const c0 = process.cpuUsage();
    fn();
    const c = process.cpuUsage(c0);
    xs.push((c.user + c.system) / 1000);
  }
  return median(xs);
}

/** The run of `s` paused at `ms`, its arrays from `pool` (given back when the caller is done). */
function pausedAt(s: Scenario, ms: number, pool: BufferPool) {
  const events = buildEvents(s.workload, s.seed);
  return withPool(pool, () => {
    const run = assembleRun(s, { events });
    advanceRun(run, ms);
    return run;
  }).result;
}

const PATHS = (process.env.BENCH_PATHS ?? 'scratch,auto').split(',') as TrialPath[];
const ALTERNATIONS = Number(process.env.BENCH_ALTERNATIONS ?? 3);
const PATH_SAMPLE = Number(process.env.BENCH_PATH_SAMPLE ?? 400);

/** The variants to measure, parsed. */
function variants(): { id: string; s: Scenario }[] {
  const out: { id: string; s: Scenario }[] = [];
  for (const p of presets)
    for (const v of p.variants) {
      const id = `${p.id}/${v.id}`;
      if (!only.some((o) => id.startsWith(o))) continue;
      const r = parseScenario(v.scenario);
      if (r.ok) out.push({ id, s: r.scenario });
    }
  return out;
}

/** CPU s of `fn`. */
function cpuS(fn: () => void): number {
  const c0 = process.cpuUsage();
  fn();
  const c = process.cpuUsage(c0);
  return (c.user + c.system) / 1e6;
}

/** `trials` of `s` by each path, alternated: the median CPU s per path, times `scale`. */
function byPath(
  s: Scenario,
  trials: ReturnType<typeof trialFaults>,
  cutOff: boolean,
  pool: BufferPool,
  alternations: number,
): string {
  const cpu = new Map<TrialPath, number[]>(PATHS.map((p) => [p, []]));
  for (let a = 0; a < alternations; a++)
    for (const path of PATHS)
      cpu.get(path)!.push(cpuS(() => runTrials(s, trials, cutOff, { pool, path })));
  return PATHS.map((p) => `${p} ${median(cpu.get(p)!).toFixed(3)}`).join(' / ');
}

function atlasesByPath(): void {
  console.log(
    `single-fault atlas by trial path: median CPU s of ${ALTERNATIONS} alternations (${PATHS.join(' / ')})`,
  );
  const pool = new BufferPool();
  for (const { id, s } of variants()) {
    const first = firstRun(s, pool);
    const placements = enumeratePlacements(s, first, undefined);
    const cutOff = first.cutOff;
    pool.reclaim(first);
    const n = placements.length;
    const k = Math.min(n, PATH_SAMPLE);
    const picked = pickPlacements(n, PATH_SAMPLE);
    const trials = trialFaults(placements, picked);
    // Scaled to the whole atlas when sampled.
    const line = byPath(s, trials, cutOff, pool, ALTERNATIONS).replace(/[0-9.]+/g, (x) =>
      ((Number(x) * n) / k).toFixed(3),
    );
    console.log(`  ${id}: ${n} placements, ${k < n ? `est. from ${k}: ` : ''}${line} s`);
  }
  if (process.env.BENCH_PAIRS === '0') return;
  const raw = presets.find((p) => p.id === 'at-least-once')?.variants[0]?.scenario;
  if (!raw) return;
  const events = Array.from({ length: PAIR_EVENT_LIMIT }, (_, i) => ({
    id: `p-${i + 1}`,
    amount: 10 * (i + 1),
    at: 50 * i,
  }));
  const parsed = parseScenario({ ...raw, workload: { ...raw.workload, events } });
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.issues));
  const s = parsed.scenario;
  const first = firstRun(s, pool);
  const all = enumeratePlacements(s, first, undefined);
  const cutOff = first.cutOff;
  pool.reclaim(first);
  const placements = pickPlacements(all.length, 200).map(([i]) => all[i!]!);
  const pairs = pairsOf(placements.length, PAIR_EVENT_LIMIT);
  if ('refused' in pairs) throw new Error(pairs.refused);
  console.log(
    `pairs of a ${PAIR_EVENT_LIMIT}-event workload (bench/atlas.bench.ts's, ${pairs.length} runs): ${byPath(s, trialFaults(placements, pairs), cutOff, pool, 1)} s CPU`,
  );
}

if (process.env.BENCH_COPY !== '0') copyCosts();
atlasesByPath();

function copyCosts(): void {
  console.log(
    `fork cost per variant, paused halfway: median CPU ms of ${COPIES} (after ${WARMUP} warm-up) — snapshot / the run to halfway from scratch (what a fork saves) / the whole run, and a trial forked there (the copy and the run on it); entries written by then`,
  );
  const pool = new BufferPool();
  for (const p of presets)
    for (const v of p.variants) {
      const id = `${p.id}/${v.id}`;
      if (!only.some((o) => id.startsWith(o))) continue;
      const r = parseScenario(v.scenario);
      if (!r.ok) continue;
      const s = r.scenario;
      const whole = simulate(s, { explain: false });
      const half = Math.floor(whole.endTime / 2);
      const paused = pausedAt(s, half, new BufferPool());
      const entries = paused.world.trace.length;
      let copyMs: number;
      try {
        const forker = new Forker(paused.world);
        copyMs = cpuMedian(COPIES, () => {
          const { result, taken } = withPool(pool, () => forker.snapshot(paused));
          pool.own(result, taken);
          pool.reclaim(result);
        });
      } catch (e) {
        console.log(`  ${id}: cannot fork halfway (${(e as Error).message.slice(0, 80)})`);
        continue;
      }
      const prefixMs = cpuMedian(Math.min(COPIES, 15), () => {
        const { result, taken } = withPool(pool, () => pausedAt(s, half, pool));
        pool.own(result, taken);
        pool.reclaim(result);
      });
      // A fork's trial: the copy and the run after it (to compare with the whole run).
      const forker = new Forker(paused.world);
      const forkMs = cpuMedian(Math.min(COPIES, 15), () => {
        const { result, taken } = withPool(pool, () =>
          finishRun(forker.snapshot(paused), { explain: false }),
        );
        pool.own(result, taken);
        pool.reclaim(result);
      });
      const wholeMs = cpuMedian(Math.min(COPIES, 15), () => {
        const { result, taken } = withPool(pool, () =>
          finishRun(assembleRun(s, {}), { explain: false }),
        );
        pool.own(result, taken);
        pool.reclaim(result);
      });
      console.log(
        `  ${id}: copy ${copyMs.toFixed(3)} / prefix ${prefixMs.toFixed(3)} / run ${wholeMs.toFixed(3)} ms, forked ${forkMs.toFixed(3)} ms (copy and the rest, run on the copy); ${entries} of ${whole.trace.length} entries by then (copy ${((copyMs * 1000) / Math.max(1, entries)).toFixed(2)} µs per entry written)`,
      );
    }
}
