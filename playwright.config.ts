import { availableParallelism } from 'node:os';
import { defineConfig, devices } from '@playwright/test';
import { chromiumArgs, findOrInstallHeadlessShell } from './scripts/chromium.mjs';

// Chromium's headless shell (scripts/chromium.mjs says why). scripts/test.mjs resolves it first and
// passes it down in CHROMIUM_PATH; run on its own (`npm run test:e2e`), the config finds or
// installs it itself. `CHROMIUM_PATH=/usr/bin/chromium` runs the suite in the full browser.
const executablePath = findOrInstallHeadlessShell();
// The ports: 4173 and 4174 by hand; `npm test` picks two free ones (E2E_PORT, E2E_HOST_PORT) so
// that it runs beside anything else on the machine.
const port = Number(process.env.E2E_PORT ?? 4173);
/**
 * Reuse a server already on the port only when run by hand (`npm run test:e2e` while developing).
 * `npm test` and CI start their own: a server left by another checkout would otherwise be tested
 * in place of this one's dist/, silently; a busy port now fails the run with Playwright's message.
 */
const reuse = !process.env.CI && !process.env.E2E_OWN_SERVERS;
/** The embed specs' second origin (e2e/embed-host.mjs). */
export const hostPort = Number(process.env.E2E_HOST_PORT ?? 4174);

export default defineConfig({
  testDir: './e2e',
  testMatch: '**/*.spec.ts',
  outputDir: './test-results',
  fullyParallel: false,
  // One worker per core (a browser each; the static preview server costs little): on this
  // 2-core machine that halves the suite's wall time. Every spec opens its own page and state.
  // Not more: one worker alone keeps a process runnable 98 % of the time (sampled every 100 ms
  // over display.spec.ts; it waits on timers ~3 s in 13 tests), so a third only queues for a core.
  workers: Math.max(1, Math.min(2, availableParallelism())),
  retries: process.env.CI ? 1 : 0,
  forbidOnly: !!process.env.CI,
  timeout: 30_000,
  reporter: [['list']],
  use: {
    baseURL: `http://127.0.0.1:${port}/`,
    // By hand, a failed test keeps its trace; `npm test` records one on a retry only (a trace on
    // every test costs ~30 % of the run: scripts/test.mjs).
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
  },
  projects: [
    {
      name: 'chromium',
      use: {
        ...devices['Desktop Chrome'],
        launchOptions: { executablePath, args: chromiumArgs },
      },
    },
  ],
  webServer: [
    {
      // The built page (dist/), as a static host would serve it. Build first: `npm run build`.
      // Its hashed /assets/ files are sent `immutable`, as the classroom server sends them
      // (e2e/preview.config.ts): a test's reload or second visit takes them from the browser's
      // cache instead of revalidating ~100 files (CPU s per spec ~11 % less on navigating specs).
      command: `npx vite preview --config e2e/preview.config.ts --host 127.0.0.1 --port ${port} --strictPort`,
      url: `http://127.0.0.1:${port}/`,
      reuseExistingServer: reuse,
      timeout: 60_000,
      stdout: 'ignore',
      stderr: 'pipe',
    },
    {
      // A second origin for the embed specs: a host page, and dist/ under a sub-path of a plain
      // static server (e2e/embed-host.mjs).
      command: `node e2e/embed-host.mjs ${hostPort}`,
      url: `http://127.0.0.1:${hostPort}/health`,
      reuseExistingServer: reuse,
      timeout: 30_000,
      stdout: 'ignore',
      stderr: 'pipe',
    },
  ],
});
