/**
 * CLI start-up (issue 28: ≤ 300 ms median for `delivery-lab --list` and a one-preset run): the
 * wall time of the child process, median of N runs, for the bundled executable
 * (dist-cli/delivery-lab.mjs, as `npx delivery-lab` runs it) beside `npm run sim` (tsx) and a bare
 * `node -e ''` (the floor this machine sets). BENCH_STARTUP_RUNS sets N (default 9).
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

const root = join(import.meta.dirname, '..');
const runs = Number(process.env.BENCH_STARTUP_RUNS ?? 9);
const bin = join(root, 'dist-cli', 'delivery-lab.mjs');
const tsx = join(root, 'node_modules', 'tsx', 'dist', 'cli.mjs');
const sim = join(root, 'src', 'cli', 'bin.ts');

/** Median wall milliseconds of `node …args` over `runs` runs (the output discarded). */
function median(args: string[]): number {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    const r = spawnSync(process.execPath, args, { cwd: root, stdio: 'ignore' });
    times.push(performance.now() - t0);
    if (r.status !== 0) throw new Error(`node ${args.join(' ')} exited ${r.status}`);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)]!;
}

const build = spawnSync(
  process.execPath,
  [join(root, 'node_modules', 'vite', 'bin', 'vite.js'), 'build', '--config', 'vite.cli.config.ts'],
  { cwd: root, stdio: 'inherit' },
);
if (build.status !== 0) process.exit(build.status ?? 1);
const preset = 'lost-ack-retry/acks-1';
const rows: [string, number][] = [
  ["node -e '' (floor)", median(['-e', ''])],
  ['delivery-lab --list', median([bin, '--list'])],
  [`delivery-lab ${preset}`, median([bin, preset])],
  ['npm run sim -- --list (tsx)', median([tsx, sim, '--list'])],
  [`npm run sim -- ${preset} (tsx)`, median([tsx, sim, preset])],
];
console.log(
  `start-up, median of ${runs} runs of the child process (target ≤ 300 ms for delivery-lab):`,
);
for (const [what, ms] of rows) console.log(`  ${what.padEnd(42)} ${ms.toFixed(0).padStart(6)} ms`);
