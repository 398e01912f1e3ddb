// Screenshots of the built page (dist/, `npx vite build` first) to look at by eye: at 1280×720 and
// 1920×1080, projector mode off and on, light and dark, each at t = 0 (the question asked) and at
// the run's end (the outcome shown) — issue 24, "Screenshots at 1280×720 and 1920×1080 in both
// modes, looked at". Also retakes the README's (docs/screenshot.png: projector mode, 1280×720,
// light, at-least-once at its end) with --readme. With --lesson ID, the presenter view instead:
// each of the lesson's steps named by --steps (all of them by default) asked and revealed at its
// run's end (a "then flip to" step's Compare undone to show its pipeline there, as
// e2e/lesson.spec.ts does), at both sizes and in both colour schemes, without a room.
//
//   node scripts/screenshots.mjs [--out DIR] [--preset REF] [--readme]
//   node scripts/screenshots.mjs --lesson ID [--steps 1,6] [--out DIR]
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
    lesson: { type: 'string' },
    steps: { type: 'string' },
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
    // Projector mode's band: the verdict's card waits off screen, the question box has its own.
    else if (await page.getByTestId('predict-reveal').isVisible())
      await page.getByTestId('predict-reveal').click();
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

/**
 * Screenshots of a lesson's steps in the presenter view, asked and revealed at the run's end.
 * @param {import('@playwright/test').Browser} browser
 * @param {string} url
 * @param {string} lesson
 */
async function lessonShots(browser, url, lesson) {
  mkdirSync(values.out, { recursive: true });
  for (const size of SIZES)
    for (const colorScheme of /** @type {const} */ (['light', 'dark'])) {
      const context = await browser.newContext({ viewport: size, colorScheme });
      const page = await context.newPage();
      // The clock paused: the runs do not play on their own, the reveal is shot at the run's end.
      await page.clock.install();
      await page.goto(`${url}?lesson=${lesson}&step=1`);
      const view = page.getByTestId('lesson-presenter');
      const count = Number(
        /of (\d+)/.exec((await page.getByTestId('lesson-step-count').textContent()) ?? '')?.[1],
      );
      const wanted = values.steps ? values.steps.split(',').map(Number) : null;
      for (let step = 1; step <= count; step++) {
        if (step > 1) await page.keyboard.press('PageDown');
        await view.and(page.locator(`[data-step="${step}"]`)).waitFor();
        if (wanted && !wanted.includes(step)) continue;
        await page.locator('.pipeline .stage').first().waitFor();
        await page.waitForTimeout(300);
        for (const revealed of [false, true]) {
          if (revealed) {
            await page.keyboard.press('r');
            await page.keyboard.press('End');
            await page.waitForTimeout(300);
            if ((await view.getAttribute('data-comparing')) === 'true') {
              await page.keyboard.press('Control+z');
              await page.locator('.pipeline .stage').first().waitFor();
            }
            await page.waitForTimeout(300);
          }
          const name = `${size.width}x${size.height}-lesson-${lesson}-${step}-${colorScheme}-${revealed ? 'revealed' : 'asked'}.png`;
          await page.screenshot({ path: join(values.out, name) });
          console.log(join(values.out, name));
        }
      }
      await context.close();
    }
}

const port = await freePort();
const server = await preview(port);
const browser = await chromium.launch({
  executablePath: findOrInstallChromium(),
  args: chromiumArgs,
});
try {
  if (values.lesson) {
    await lessonShots(browser, server.url, values.lesson);
  } else if (values.readme) {
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
