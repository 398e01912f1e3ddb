// `npm test`: everything a submission must pass, in order, with one honest count at the end.
//   1. typecheck, lint and the unused-export check (knip, knip.json): gates, run side by side
//      (each is one process on one core), the build beside them; if one fails, stop.
//   2. vitest (unit, property and jsdom tests), JSON report in reports/vitest.json — after finding
//      or installing a native PostgreSQL for the prepared-transaction conformance tests (scripts/postgres.mjs)
//      and redis-server for the dedupe store's (scripts/redis.mjs)
//   3. vite build (the page Playwright tests), started with the gates and awaited here
//   4. find or install Chromium's headless shell (scripts/chromium.mjs)
//   5. Playwright against `vite preview` of dist/, JSON report in reports/playwright.json
// The last line printed is exactly `N passed, N failed` (`, N skipped` when some were skipped),
// summed from the two JSON reports. A missing report, or a runner that failed without a failed
// test in its report, counts as a failure. Exit code 0 only if nothing failed.
import { spawn, spawnSync } from 'node:child_process';
import { createServer } from 'node:net';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { findOrInstallHeadlessShell } from './chromium.mjs';
import { findOrInstallPostgres } from './postgres.mjs';
import { findOrInstallRedis } from './redis.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
process.chdir(root);

const reportsDir = 'reports';
const vitestReport = join(reportsDir, 'vitest.json');
const playwrightReport = join(reportsDir, 'playwright.json');
rmSync(vitestReport, { force: true });
rmSync(playwrightReport, { force: true });
mkdirSync(reportsDir, { recursive: true });

/** @type {string[]} */
const summary = [];
const started = Date.now();

/** @param {number} since */
const seconds = (since) => `${((Date.now() - since) / 1000).toFixed(1)}s`;

/**
 * Runs a local binary from node_modules/.bin (or `node <script>`) with inherited output.
 * @param {string} title
 * @param {string} bin  a name in node_modules/.bin, or 'node'
 * @param {string[]} args
 * @param {NodeJS.ProcessEnv} [env]
 */
function run(title, bin, args, env = {}) {
  console.log(`\n── ${title}: ${bin} ${args.join(' ')}`);
  const t0 = Date.now();
  const program = bin === 'node' ? process.execPath : join('node_modules', '.bin', bin);
  const result = spawnSync(program, args, { stdio: 'inherit', env: { ...process.env, ...env } });
  const status = result.error ? `could not start: ${result.error.message}` : result.status;
  return { ok: result.status === 0, status, time: seconds(t0) };
}

/** Processes from `start` still running: stopped should the run end before them (a gate failed). */
/** @type {Set<import('node:child_process').ChildProcess>} */
const running = new Set();

/**
 * Starts a local binary as `run` does, its output held back (side by side, two outputs would
 * interleave line by line) and printed whole, under its title, by the caller once it is done.
 * @param {string} title
 * @param {string} bin  a name in node_modules/.bin, or 'node'
 * @param {string[]} args
 * @returns {Promise<{ ok: boolean, status: number | string | null, time: string, print: () => void }>}
 */
function start(title, bin, args) {
  const t0 = Date.now();
  const program = bin === 'node' ? process.execPath : join('node_modules', '.bin', bin);
  /** @type {Buffer[]} */
  const output = [];
  const child = spawn(program, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  running.add(child);
  child.once('exit', () => running.delete(child));
  child.stdout.on('data', (chunk) => output.push(chunk));
  child.stderr.on('data', (chunk) => output.push(chunk));
  const print = () => {
    console.log(`\n── ${title}: ${bin} ${args.join(' ')}`);
    process.stdout.write(Buffer.concat(output));
  };
  return new Promise((resolve) => {
    child.once('error', (error) =>
      resolve({ ok: false, status: `could not start: ${error.message}`, time: seconds(t0), print }),
    );
    child.once('close', (code) =>
      resolve({ ok: code === 0, status: code, time: seconds(t0), print }),
    );
  });
}

/**
 * Prints the summary and the closing count line, then exits.
 * @param {number} passed @param {number} failed @param {number} skipped
 */
function finish(passed, failed, skipped) {
  console.log('\n── summary');
  for (const line of summary) console.log(line);
  console.log(`total time: ${seconds(started)}`);
  console.log(`${passed} passed, ${failed} failed${skipped > 0 ? `, ${skipped} skipped` : ''}`);
  for (const child of running) child.kill();
  process.exit(failed > 0 ? 1 : 0);
}

/** @param {string} path @returns {any} */
function readJson(path) {
  if (!existsSync(path)) return null;
  try {
    return JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    console.error(`${path} is not valid JSON: ${String(error)}`);
    return null;
  }
}

// ── 1. Gates ──────────────────────────────────────────────────────────────────────────────
const gates = [
  { title: 'typecheck', bin: 'node', args: ['scripts/typecheck.mjs'] },
  { title: 'lint', bin: 'eslint', args: ['.'] },
  // An export nobody imports is dead code or a missing test: 0 findings, or stop here.
  { title: 'unused exports', bin: 'knip', args: ['--no-progress'] },
];
// Side by side on CI's 2 cores: tsc, ESLint and knip are one busy process each. CPU seconds
// (user+sys, measured one by one): typecheck 69, lint 40, knip 6, build 7 — ~122 s in a row,
// ~70 s side by side (the typecheck's three projects, one after another, are the longest).
const buildStarted = start('build', 'vite', ['build']);
const gateResults = await Promise.all(
  gates.map(async (gate) => ({ gate, result: await start(gate.title, gate.bin, gate.args) })),
);
for (const { gate, result } of gateResults) {
  result.print();
  summary.push(
    result.ok
      ? `${gate.title}: ok (${result.time})`
      : `${gate.title}: FAILED (exit ${result.status}, ${result.time}): see its output above`,
  );
}
if (gateResults.some(({ result }) => !result.ok)) {
  summary.push('tests not run: typecheck, lint and the unused-export check must pass first');
  finish(0, 1, 0);
}

let passed = 0;
let failed = 0;
let skipped = 0;

// ── 2. Vitest ─────────────────────────────────────────────────────────────────────────────
try {
  console.log(`\n── postgresql: ${findOrInstallPostgres()}`);
} catch (error) {
  // The native conformance test fails with the same message; the rest of the suite runs.
  console.log(`\n── postgresql: ${error instanceof Error ? error.message : String(error)}`);
}
try {
  console.log(`\n── redis-server: ${findOrInstallRedis()}`);
} catch (error) {
  // The Redis conformance test fails with the same message; the rest of the suite runs.
  console.log(`\n── redis-server: ${error instanceof Error ? error.message : String(error)}`);
}
const vitest = run('vitest', 'vitest', [
  'run',
  '--reporter=default',
  '--reporter=json',
  `--outputFile.json=${vitestReport}`,
]);
{
  const report = readJson(vitestReport);
  if (report === null) {
    failed += 1;
    summary.push(
      `vitest: report ${vitestReport} missing (exit ${vitest.status}) — counted as 1 failed`,
    );
  } else {
    const p = report.numPassedTests ?? 0;
    let f = report.numFailedTests ?? 0;
    const s = (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0);
    let note = '';
    if (f === 0 && (!vitest.ok || report.success === false || report.numFailedTestSuites > 0)) {
      // A test file that fails to load, or an unhandled error, fails the run with no failed test.
      f = Math.max(1, report.numFailedTestSuites ?? 0);
      note = ` — vitest failed (exit ${vitest.status}) outside any test: counted as ${f} failed`;
    }
    passed += p;
    failed += f;
    skipped += s;
    summary.push(`vitest: ${p} passed, ${f} failed, ${s} skipped (${vitest.time})${note}`);
  }
}

// ── 3. Build ──────────────────────────────────────────────────────────────────────────────
const build = await buildStarted;
build.print();
summary.push(`build: ${build.ok ? 'ok' : `FAILED (exit ${build.status})`} (${build.time})`);

// ── 4 + 5. Chromium, then Playwright ──────────────────────────────────────────────────────
/** @type {string | null} */
let chromium = null;
if (build.ok) {
  try {
    chromium = findOrInstallHeadlessShell();
    console.log(`\n── chromium: ${chromium}`);
  } catch (error) {
    summary.push(`chromium: ${error instanceof Error ? error.message : String(error)}`);
  }
}
/**
 * A TCP port nobody listens on at 127.0.0.1 now (the system picks it).
 * @returns {Promise<number>}
 */
function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address
          ? resolve(address.port)
          : reject(new Error('no port')),
      );
    });
  });
}

/** @type {{ ok: boolean, status: number | string | null, time: string } | null} */
let playwright = null;
if (chromium !== null) {
  // A trace on every test (screencast frames and a DOM snapshot at each action) costs ~40 % more
  // CPU and ~30 % more wall time per test on a 2-core machine (16 tests: 770 s against 555 s, both
  // runs side by side), only to be thrown away when the test passes. The whole run records one on
  // a retry only (CI retries once); a spec run by hand keeps 'retain-on-failure'
  // (playwright.config.ts), so a failure seen here is traced by running its spec again.
  // One retry, as playwright.config.ts gives CI (its `CI` variable is not set by every runner): on
  // this shared, loaded machine a timing-bound test (embed-shift's layout shift at 480 px) failed
  // once in a clean-clone run. A test that passes only on its retry is counted and named as flaky.
  const args = ['test', '--reporter=list,json', '--trace=on-first-retry', '--retries=1'];
  playwright = run('playwright', 'playwright', args, {
    CHROMIUM_PATH: chromium,
    PLAYWRIGHT_JSON_OUTPUT_NAME: playwrightReport,
    // Never test another checkout's server left on a port (see playwright.config.ts), and
    // serve on two ports free now, so that another run on the machine cannot collide.
    E2E_OWN_SERVERS: '1',
    E2E_PORT: String(await freePort()),
    E2E_HOST_PORT: String(await freePort()),
  });
}
{
  const report = playwright === null ? null : readJson(playwrightReport);
  if (report === null) {
    failed += 1;
    const why =
      playwright === null
        ? build.ok
          ? 'not run: no Chromium'
          : 'not run: the build failed'
        : `report ${playwrightReport} missing (exit ${playwright.status})`;
    summary.push(`playwright: ${why} — counted as 1 failed`);
  } else if (playwright !== null) {
    const stats = report.stats ?? {};
    const expected = stats.expected ?? 0;
    const flaky = stats.flaky ?? 0;
    let f = stats.unexpected ?? 0;
    const s = stats.skipped ?? 0;
    const errors = Array.isArray(report.errors) ? report.errors.length : 0;
    let note = '';
    if (f === 0 && (!playwright.ok || errors > 0)) {
      // e.g. the web server did not start, or a spec file failed to load.
      f = Math.max(1, errors);
      note = ` — Playwright failed (exit ${playwright.status}) outside any test: counted as ${f} failed`;
    }
    const p = expected + flaky;
    passed += p;
    failed += f;
    skipped += s;
    const flakyNote = flaky > 0 ? ` (${flaky} of them flaky: passed only on retry)` : '';
    summary.push(
      `playwright: ${p} passed${flakyNote}, ${f} failed, ${s} skipped (${playwright.time})${note}`,
    );
  }
}

finish(passed, failed, skipped);
