/**
 * `npm run bench`: every benchmark, with its figures printed (never a pass/fail).
 * 1. the engine (bench/engine.bench.ts, bundled by Vite as the page's engine is, run by node):
 *    1,000,000 events through the consumer path and the Flink 2PC path, events/s, peak heap and
 *    typed-array memory, trace bytes per event, ratio to bench/baseline.ts;
 * 2. the page (bench/ui.bench.ts) against the production build in headless Chromium;
 * 3. the CLI's start-up (bench/startup.ts): `delivery-lab --list` and a preset, bundled, beside
 *    `npm run sim` (tsx).
 * BENCH_ONLY=engine, ui or cli runs one of them.
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { build } from 'vite';

const root = join(import.meta.dirname, '..');
const only = process.env.BENCH_ONLY;

if (only === undefined || only === 'engine') {
  console.log('== engine ==');
  // The engine as the page ships it: bundled by the production toolchain (Vite), then run by
  // plain node. Not through tsx, whose on-the-fly transform keeps names (keepNames) by wrapping
  // every function and class the engine creates in a naming call — measured on the consumer
  // path: 1,118 ms per run under tsx, 761 ms bundled (same machine, same minute).
  const outDir = join(root, 'node_modules', '.cache', 'bench');
  await build({
    configFile: false,
    logLevel: 'error',
    build: {
      ssr: join(root, 'bench', 'engine.bench.ts'),
      outDir,
      emptyOutDir: true,
      minify: false,
      rolldownOptions: { output: { entryFileNames: 'engine.bench.mjs' } },
    },
  });
  const engine = spawnSync(process.execPath, ['--expose-gc', join(outDir, 'engine.bench.mjs')], {
    cwd: root,
    stdio: 'inherit',
  });
  if (engine.status !== 0) process.exit(engine.status ?? 1);
}
if (only === undefined || only === 'ui') {
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
if (only === undefined || only === 'cli') {
  console.log('\n== CLI start-up ==');
  const startup = spawnSync(
    process.execPath,
    [join(root, 'node_modules', 'tsx', 'dist', 'cli.mjs'), join(root, 'bench', 'startup.ts')],
    { cwd: root, stdio: 'inherit' },
  );
  if (startup.status !== 0) process.exit(startup.status ?? 1);
}
