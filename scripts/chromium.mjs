// Finds a Chromium for Playwright, installing one if none is found.
// Playwright cannot download its own browser builds here, so Debian's `chromium` is preferred.
// Order: $CHROMIUM_PATH (must exist if set) → /usr/bin/chromium → /usr/bin/chromium-browser →
// Playwright's cache (~/.cache/ms-playwright/chromium-*/chrome-linux*/chrome).
// If none: as root `apt-get update && apt-get install -y chromium`, otherwise
// `npx playwright install chromium`; then look again.
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

/** @returns {string[]} Chromium binaries in Playwright's own browser cache. */
function playwrightCacheCandidates() {
  const cache = process.env.PLAYWRIGHT_BROWSERS_PATH || join(homedir(), '.cache', 'ms-playwright');
  if (!existsSync(cache)) return [];
  const found = [];
  for (const dir of readdirSync(cache)
    .filter((name) => name.startsWith('chromium-'))
    .sort()) {
    for (const sub of ['chrome-linux64', 'chrome-linux']) {
      found.push(join(cache, dir, sub, 'chrome'));
    }
  }
  return found.reverse(); // newest revision first
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
    ...playwrightCacheCandidates(),
  ];
  return candidates.find((path) => existsSync(path)) ?? null;
}

/**
 * Returns the path of a Chromium binary, installing one first if none is found.
 * Throws with a clear message if that is impossible.
 * @returns {string}
 */
export function findOrInstallChromium() {
  const found = findChromium();
  if (found) return found;

  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  const command = isRoot
    ? 'apt-get update && apt-get install -y chromium'
    : 'npx playwright install chromium';
  console.log(`Chromium not found; installing it: ${command}`);
  try {
    execSync(command, {
      // Progress goes to stderr so it never mixes into a caller's stdout protocol.
      stdio: ['ignore', process.stderr, process.stderr],
      env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
    });
  } catch (error) {
    throw new Error(
      `Installing Chromium with \`${command}\` failed (${String(error)}). ` +
        'Install Chromium yourself and point CHROMIUM_PATH at its binary.',
    );
  }
  const installed = findChromium();
  if (!installed) {
    throw new Error(
      `\`${command}\` finished but no Chromium was found at /usr/bin/chromium, ` +
        '/usr/bin/chromium-browser or in the Playwright cache. Set CHROMIUM_PATH to its binary.',
    );
  }
  return installed;
}

// `node scripts/chromium.mjs` prints the path (installing Chromium if needed).
if (import.meta.url === `file://${process.argv[1]}`) {
  try {
    console.log(findOrInstallChromium());
  } catch (error) {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  }
}
