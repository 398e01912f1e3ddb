// Screenshots of the built page (dist/, `npx vite build` first) to look at by eye: at 1280×720 and
// 1920×1080, projector mode off and on, light and dark, each at t = 0 (the question asked) and at
// the run's end (the outcome shown) — issue 24, "Screenshots at 1280×720 and 1920×1080 in both
// modes, looked at". Also retakes the README's (docs/screenshot.png: projector mode, 1280×720,
// light, at-least-once at its end) with --readme.
//
//   node scripts/screenshots.mjs [--out DIR] [--preset REF] [--readme]
//
// Serves dist/ with `vite preview` on a free port of its own and drives Chromium
// (scripts/chromium.mjs) with Playwright.
import { spawn } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { chromium } from '@playwright/test';
import { chromiumArgs, findOrInstallChromium } from './chromium.mjs';

const { values } = parseArgs({
  options: {
    out: { type: 'string', default: 'test-results/screenshots' },
    preset: { type: 'string', default: 'at-least-once' },
    readme: { type: 'boolean', default: false },
  },
});

const SIZES = [
  { width: 1280, height: 720 },
  { width: 1920, height: 1080 },
];

/** A free TCP port on 127.0.0.1. */
function freePort() {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.on('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = /** @type {import('node:net').AddressInfo} */ (s.address());
      s.close(() => resolve(port));
    });
  });
}

/**
 * `vite preview` of dist/ on `port`, resolved once it answers.
 * @param {number} port
 */
async function preview(port) {
  const child = spawn(
    'npx',
    ['vite', 'preview', '--host', '127.0.0.1', '--port', String(port), '--strictPort'],
    { stdio: 'ignore' },
  );
  const url = `http://127.0.0.1:${port}/`;
  for (let k = 0; k < 600; k++) {
    try {
      if ((await fetch(url)).ok) return { child, url };
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  child.kill();
  throw new Error(`vite preview did not answer on ${url} within 60 s (is dist/ built?)`);
}

/**
 * Opens the preset, then either leaves it at t = 0 (the question asked) or skips the question and
 * goes to the run's end (the outcome shown); returns the page.
 * @param {import('@playwright/test').BrowserContext} context
 * @param {string} url
 * @param {{ present: boolean, end: boolean }} how
 */
async function open(context, url, { present, end }) {
  const page = await context.newPage();
  await page.goto(`${url}?preset=${values.preset}${present ? '&present=1' : '&present=0'}`);
  await page.waitForFunction(() => window.__deliveryLab?.status() === 'ready');
  if (end) {
    // The verdict's own "Show the answer" (the story panel's may sit below its fold).
    const show = page
      .locator('[data-testid="outcome-hidden"][data-what="verdict"]')
      .getByTestId('outcome-show');
    if (await show.isVisible()) await show.click();
    await page.getByTestId('timeline').focus();
    await page.keyboard.press('End');
    await page.getByTestId('verdict').waitFor();
    // The timeline's focus ring is not part of the picture.
    await page.getByTestId('timeline').blur();
  }
  // The pipeline's tokens and layout settle within a few frames.
  await page.waitForTimeout(500);
  return page;
}

const port = await freePort();
const server = await preview(port);
const browser = await chromium.launch({
  executablePath: findOrInstallChromium(),
  args: chromiumArgs,
});
try {
  if (values.readme) {
    const context = await browser.newContext({ viewport: SIZES[0], colorScheme: 'light' });
    const page = await open(context, server.url, { present: true, end: true });
    await page.screenshot({ path: 'docs/screenshot.png' });
    console.log('docs/screenshot.png');
    await context.close();
  } else {
    mkdirSync(values.out, { recursive: true });
    for (const size of SIZES)
      for (const colorScheme of /** @type {const} */ (['light', 'dark']))
        for (const present of [false, true])
          for (const end of [false, true]) {
            const context = await browser.newContext({ viewport: size, colorScheme });
            const page = await open(context, server.url, { present, end });
            const name = `${size.width}x${size.height}-${present ? 'projector' : 'normal'}-${colorScheme}-${end ? 'end' : 'start'}.png`;
            await page.screenshot({ path: join(values.out, name) });
            console.log(join(values.out, name));
            await context.close();
          }
  }
} finally {
  await browser.close();
  server.child.kill();
}
