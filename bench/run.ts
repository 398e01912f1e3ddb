/**
 * `npm run bench`: every benchmark, with its figures printed (never a pass/fail).
 * 1. the engine (bench/engine.bench.ts, bundled by Vite as the page's engine is, run by node):
 *    1,000,000 events through the consumer path and the Flink 2PC path, events/s, peak heap and
 *    typed-array memory, trace bytes per event, ratio to bench/baseline.ts;
 * 2. small runs and the fault atlas (bench/atlas.bench.ts, bundled the same way): the median time of
 *    one run of each library preset variant, and each variant's single-fault atlas;
 * 3. the CLI's peak memory (bench/cli-rss.ts, each in a child process): `--format json` of the
 *    largest documented workloads (2,000,000 events through Flink 2PC and through the batched
 *    consumer loop, and a run cut off at the 10,000,000-entry trace limit), peak RSS against the
 *    1 GB they must fit in;
 * 4. the page (bench/ui.bench.ts) against the production build in headless Chromium.
 * 5. the CLI's start-up (bench/startup.ts): `delivery-lab --list` and a preset, bundled, beside
 *    `npm run sim` (tsx).
 * 6. the classroom server (bench/classroom.bench.ts, through tsx as `npm run classroom` runs it):
 *    200 students answering at once, the time until the presenter's tally counts them all.
 * 7. "Run on a real PostgreSQL" (bench/pglite.bench.ts): the PGlite chunk's size (gzip) and a
 *    preset's script time in PGlite (median).
 * BENCH_ONLY=engine, atlas, cli, ui, classroom or pglite runs one of them (cli: peak memory and
 * start-up).
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { build } from 'vite';

const root = join(import.meta.dirname, '..');
const only = process.env.BENCH_ONLY;

/** Bundle `bench/<name>.bench.ts` as the page's engine is bundled, and run it with node. */
async function runBundled(name: string): Promise<void> {
  const outDir = join(root, 'node_modules', '.cache', 'bench');
  await build({
    configFile: false,
    logLevel: 'error',
    build: {
      ssr: join(root, 'bench', `${name}.bench.ts`),
      outDir,
      emptyOutDir: false,
      minify: false,
      rolldownOptions: { output: { entryFileNames: `${name}.bench.mjs` } },
    },
  });
  const r = spawnSync(process.execPath, ['--expose-gc', join(outDir, `${name}.bench.mjs`)], {
    cwd: root,
    stdio: 'inherit',
  });
  if (r.status !== 0) process.exit(r.status ?? 1);
}

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
if (only === undefined || only === 'atlas') {
  console.log('\n== small runs and the fault atlas (Node) ==');
  await runBundled('atlas');
}
if (only === 'atlasPaths') {
  console.log('\n== what a fork costs (Node) ==');
  await runBundled('atlasPaths');
}
if (only === undefined || only === 'cli') {
  console.log(
    '\n== CLI peak memory (--format json, the largest documented workloads; limit 1 GB) ==',
  );
  // One child process per workload, so each peak is that run's alone. Through tsx, as
  // `npm run sim` runs the CLI.
  for (const workload of ['flink', 'consumer', 'trace-limit']) {
    const child = spawnSync(
      process.execPath,
      ['--import', 'tsx', join(root, 'bench', 'cli-rss.ts'), workload],
      { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] },
    );
    const line = child.stdout.trim().split('\n').pop() ?? '';
    try {
      const r = JSON.parse(line) as Record<string, number | string>;
      console.log(
        `${workload}: peak RSS ${r.maxRssMB} MB (${Number(r.maxRssMB) <= 1000 ? 'within' : 'OVER'} 1 GB) · exit ${r.code} · report ${r.reportMB} MB · ${r.seconds} s`,
      );
    } catch {
      console.log(`${workload}: no figure (exit ${child.status}, signal ${child.signal}): ${line}`);
    }
  }
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
if (only === undefined || only === 'classroom') {
  console.log('\n== classroom server (200 students) ==');
  const classroom = spawnSync(
    process.execPath,
    [
      join(root, 'node_modules', 'tsx', 'dist', 'cli.mjs'),
      join(root, 'bench', 'classroom.bench.ts'),
    ],
    { cwd: root, stdio: 'inherit' },
  );
  if (classroom.status !== 0) process.exit(classroom.status ?? 1);
}
if (only === undefined || only === 'pglite') {
  console.log('\n== Run on a real PostgreSQL (PGlite) ==');
  // dist/ from the page's section above; built here when run alone.
  if (only === 'pglite') {
    const built = spawnSync(
      process.execPath,
      [join(root, 'node_modules', 'vite', 'bin', 'vite.js'), 'build', '--logLevel', 'error'],
      { cwd: root, stdio: 'inherit' },
    );
    if (built.status !== 0) process.exit(built.status ?? 1);
  }
  const pglite = spawnSync(
    process.execPath,
    [join(root, 'node_modules', 'tsx', 'dist', 'cli.mjs'), join(root, 'bench', 'pglite.bench.ts')],
    { cwd: root, stdio: 'inherit' },
  );
  if (pglite.status !== 0) process.exit(pglite.status ?? 1);
}
