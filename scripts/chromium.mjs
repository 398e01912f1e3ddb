// Finds a Chromium for Playwright, installing one if none is found.
// Playwright cannot download its own browser builds here, so Debian's packages are preferred.
// - findOrInstallChromium: the full browser (the page's scripts, benchmarks, screenshots).
//   Order: $CHROMIUM_PATH (must exist if set) → /usr/bin/chromium → /usr/bin/chromium-browser →
//   Playwright's cache (~/.cache/ms-playwright/chromium-*/chrome-linux*/chrome). If none: as root
//   `apt-get update && apt-get install -y chromium`, otherwise `npx playwright install chromium`.
// - findOrInstallHeadlessShell: Chromium's headless shell, for the Playwright suite (see there).
import { execSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

/** Flags for headless Chromium on a sandboxless, offline, 2-core machine. */
export const chromiumArgs = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

/**
 * Binaries in Playwright's own browser cache, newest revision first: in each directory named
 * `<prefix><revision>`, each of `paths` (the layouts Playwright's builds have used).
 * @param {string} prefix @param {string[][]} paths
 * @returns {string[]}
 */
function playwrightCache(prefix, paths) {
  const cache = process.env.PLAYWRIGHT_BROWSERS_PATH || join(homedir(), '.cache', 'ms-playwright');
  if (!existsSync(cache)) return [];
  const dirs = readdirSync(cache)
    .filter((name) => name.startsWith(prefix))
    .sort()
    .reverse();
  return dirs.flatMap((dir) => paths.map((path) => join(cache, dir, ...path)));
}

/**
 * Looks for Chromium without installing anything.
 * @returns {string | null}
 */
export function findChromium() {
  const override = process.env.CHROMIUM_PATH;
  if (override) {
    if (!existsSync(override)) {
      throw new Error(`CHROMIUM_PATH is set to ${override}, but no file exists there.`);
    }
    return override;
  }
  const candidates = [
    '/usr/bin/chromium',
    '/usr/bin/chromium-browser',
    ...playwrightCache('chromium-', [
      ['chrome-linux64', 'chrome'],
      ['chrome-linux', 'chrome'],
    ]),
  ];
  return candidates.find((path) => existsSync(path)) ?? null;
}

/**
 * Installs a browser with Debian's package as root, Playwright's installer otherwise.
 * @param {string} what  for messages
 * @param {string} aptPackage @param {string} playwrightBrowser
 * @returns {string} the command run
 */
function install(what, aptPackage, playwrightBrowser) {
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  const command = isRoot
    ? `apt-get update && apt-get install -y ${aptPackage}`
    : `npx playwright install ${playwrightBrowser}`;
  console.log(`${what} not found; installing it: ${command}`);
  try {
    execSync(command, {
      // Progress goes to stderr so it never mixes into a caller's stdout protocol.
      stdio: ['ignore', process.stderr, process.stderr],
      env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
    });
  } catch (error) {
    throw new Error(
      `Installing ${what} with \`${command}\` failed (${String(error)}). ` +
        'Install Chromium yourself and point CHROMIUM_PATH at its binary.',
    );
  }
  return command;
}

/**
 * Returns the path of a Chromium binary, installing one first if none is found.
 * Throws with a clear message if that is impossible.
 * @returns {string}
 */
export function findOrInstallChromium() {
  const found = findChromium();
  if (found) return found;
  const command = install('Chromium', 'chromium', 'chromium');
  const installed = findChromium();
  if (!installed) {
    throw new Error(
      `\`${command}\` finished but no Chromium was found at /usr/bin/chromium, ` +
        '/usr/bin/chromium-browser or in the Playwright cache. Set CHROMIUM_PATH to its binary.',
    );
  }
  return installed;
}

/**
 * Looks for Chromium's headless shell without installing anything: $CHROMIUM_PATH (any Chromium
 * the caller chose), Debian's `chromium-headless-shell` (the binary itself, not its /usr/bin
 * wrapper script, so that Playwright's signals reach the browser), then Playwright's cache.
 * @returns {string | null}
 */
function findHeadlessShell() {
  if (process.env.CHROMIUM_PATH) return findChromium();
  const candidates = [
    '/usr/lib/chromium/chromium-headless-shell',
    ...playwrightCache('chromium_headless_shell-', [
      ['chrome-headless-shell-linux64', 'chrome-headless-shell'],
      ['chrome-linux', 'headless_shell'],
    ]),
  ];
  return candidates.find((path) => existsSync(path)) ?? null;
}

/**
 * The browser the Playwright suite drives: Chromium's headless shell, the same Blink, V8 and
 * compositor as the full browser without its //chrome layer (tabs, profiles, UI). It is what
 * Playwright itself runs for headless tests ("Playwright runs a separate chromium headless shell
 * build for headless operation", https://github.com/microsoft/playwright/issues/33566), Chromium's
 * old headless mode (https://developer.chrome.com/docs/automation-and-testing/headless). Measured
 * here (docs/benchmarks.md): a spec takes ~40 % less CPU than in the full browser's new headless
 * mode. $CHROMIUM_PATH chooses another (the full browser: `CHROMIUM_PATH=/usr/bin/chromium`).
 * Installed as the browser is if missing; should that fail, the full browser is used.
 * @returns {string}
 */
export function findOrInstallHeadlessShell() {
  const found = findHeadlessShell();
  if (found) return found;
  try {
    install('Chromium headless shell', 'chromium-headless-shell', 'chromium-headless-shell');
  } catch (error) {
    console.log(
      `${error instanceof Error ? error.message : String(error)} Using the full browser.`,
    );
  }
  return findHeadlessShell() ?? findOrInstallChromium();
}

// `node scripts/chromium.mjs` prints the full browser's path, `--headless-shell` the suite's
// (installing it if needed).
if (import.meta.url === `file://${process.argv[1]}`) {
  try {
    console.log(
      process.argv.includes('--headless-shell')
        ? findOrInstallHeadlessShell()
        : findOrInstallChromium(),
    );
  } catch (error) {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  }
}
