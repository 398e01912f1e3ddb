/**
 * What a run costs on a fork's copy against the same run on its original (issue 23, section 3;
 * src/engine/atlas/fork.ts): each named variant's own run paused halfway, then, alternated
 * FORK_REST_N times (default 201), one copy of it and the rest of the run on that copy, and the
 * same rest on a fresh run paused there — the median CPU ms of each, and the copy's ratio. The
 * two rests write the same entries (printed), so the ratio is what a copy's objects cost the code
 * that runs on them (V8 gives `Object.create`'s objects other hidden classes than the classes'
 * own instances, docs/benchmarks.md), measured in one process: a shared machine's load weighs on
 * both alike, unlike two atlases timed apart. Bundled, as the page ships the engine:
 *   npx vite build --ssr bench/forkRest.ts --outDir <dir> …, then node <dir>/forkRest.js
 * FORK_REST_PRESETS=a/b,c/d picks the variants (default: flink-checkpoint-replay/2pc-read-committed
 * and card-charge-idempotency/email-in-operator).
 */
import { simulate } from '../src/engine';
import { assembleRun, advanceRun, finishRun } from '../src/engine/simulate';
import { Forker } from '../src/engine/atlas/fork';
import { buildEvents } from '../src/engine/scenario/workload';
import { presetScenario } from './presetScenario';

const ids = (
  process.env.FORK_REST_PRESETS ??
  'flink-checkpoint-replay/2pc-read-committed,card-charge-idempotency/email-in-operator'
).split(',');
const N = Number(process.env.FORK_REST_N ?? 201);

/** CPU ms of `fn`. */
function cpuMs(fn: () => void): number {
  const c0 = process.cpuUsage();
  fn();
  const c = process.cpuUsage(c0);
  return (c.user + c.system) / 1000;
}

function median(xs: number[]): number {
  return [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
}

for (const id of ids) {
  const s = presetScenario(id);
  const half = Math.floor(simulate(s, { explain: false }).endTime / 2);
  const events = buildEvents(s.workload, s.seed);
  const pausedRun = () => {
    const run = assembleRun(s, { events });
    advanceRun(run, half);
    return run;
  };
  const paused = pausedRun();
  const forker = new Forker(paused.world);
  const copy: number[] = [];
  const onCopy: number[] = [];
  const onOriginal: number[] = [];
  let entriesOnCopy = 0;
  let entriesOnOriginal = 0;
  for (let i = 0; i < N; i++) {
    let c = paused;
    copy.push(cpuMs(() => (c = forker.snapshot(paused))));
    onCopy.push(cpuMs(() => (entriesOnCopy = finishRun(c, { explain: false }).trace.length)));
    const o = pausedRun();
    onOriginal.push(
      cpuMs(() => (entriesOnOriginal = finishRun(o, { explain: false }).trace.length)),
    );
  }
  const rest = median(onCopy) / median(onOriginal);
  console.log(
    `${id}: paused at ${paused.world.trace.length} entries; copy ${median(copy).toFixed(3)} ms; the rest on the copy ${median(onCopy).toFixed(3)} ms (${entriesOnCopy} entries) / on the original ${median(onOriginal).toFixed(3)} ms (${entriesOnOriginal}): ×${rest.toFixed(2)}`,
  );
}
