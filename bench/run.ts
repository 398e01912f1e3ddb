/**
 * `npm run bench`: every benchmark, with its figures printed (never a pass/fail).
 * 1. the engine (bench/engine.bench.ts): 1,000,000 events through the consumer path and the
 *    Flink 2PC path, events/s, peak heap and typed-array memory, trace bytes per event, ratio to
 *    bench/baseline.ts;
 * 2. the page (bench/ui.bench.ts) against the production build in headless Chromium.
 * BENCH_ONLY=engine or BENCH_ONLY=ui runs one of them.
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { runEngineBench } from './engine.bench';

const root = join(import.meta.dirname, '..');
const only = process.env.BENCH_ONLY;

if (only !== 'ui') {
  console.log('== engine ==');
  runEngineBench();
}
if (only !== 'engine') {
  console.log('\n== page (production build, headless Chromium) ==');
  const build = spawnSync(
    process.execPath,
    [join(root, 'node_modules', 'vite', 'bin', 'vite.js'), 'build', '--logLevel', 'error'],
    { cwd: root, stdio: 'inherit' },
  );
  if (build.status !== 0) process.exit(build.status ?? 1);
  const ui = spawnSync(
    process.execPath,
    [join(root, 'node_modules', 'tsx', 'dist', 'cli.mjs'), join(root, 'bench', 'ui.bench.ts')],
    { cwd: root, stdio: 'inherit' },
  );
  if (ui.status !== 0) process.exit(ui.status ?? 1);
}
