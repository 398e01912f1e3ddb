/**
 * What a fork costs next to what it saves (issue 23, section 3; src/engine/atlas/fork.ts): for
 * each variant, the scenario's own run paused halfway, then the median CPU time of one snapshot of
 * it (after warm-up copies), of the run up to that point from scratch (what the snapshot saves),
 * and of the whole run — with the trace entries written by then. `BENCH_ONLY=atlasPaths npm run
 * bench`; BENCH_PRESETS=a,b narrows to ids starting so (default: the variants docs/benchmarks.md
 * quotes); BENCH_COPIES (default 41) copies are timed per variant.
 */
import { parseScenario, simulate, type Scenario } from '../src/engine';
import { assembleRun, advanceRun, finishRun } from '../src/engine/simulate';
import { Forker } from '../src/engine/atlas/fork';
import { BufferPool, withPool } from '../src/engine/core/pool';
import { buildEvents } from '../src/engine/scenario/workload';
import { presets } from '../src/scenarios';

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

console.log(
  `fork cost per variant, paused halfway: median CPU ms of ${COPIES} (after ${WARMUP} warm-up) — snapshot / the run to halfway from scratch (what a fork saves) / the whole run; entries written by then`,
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
    const wholeMs = cpuMedian(Math.min(COPIES, 15), () => {
      const { result, taken } = withPool(pool, () =>
        finishRun(assembleRun(s, {}), { explain: false }),
      );
      pool.own(result, taken);
      pool.reclaim(result);
    });
    console.log(
      `  ${id}: copy ${copyMs.toFixed(3)} / prefix ${prefixMs.toFixed(3)} / run ${wholeMs.toFixed(3)} ms; ${entries} of ${whole.trace.length} entries by then (copy ${((copyMs * 1000) / Math.max(1, entries)).toFixed(2)} µs per entry written)`,
    );
  }
