/**
 * What a page costs to load, measured in Chromium (issue 31, "Footprint"): every file the address
 * fetches from the build until `painted` is on screen, and for 1 s after (lazy chunks the first
 * screen asks for: the simulation, a worker), each gzipped on its own at level 9, as a server
 * would send it, in all and file by file (where the budget goes); and the time from navigation
 * until `painted` is on screen (ms, performance.now()). The page is loaded as a reader's browser
 * loads it: `navigator.webdriver` reads false, so the page does not fetch its test API
 * (src/ui/testApi.ts, loaded under automation: 1.3 kB and, with the trace hash, @noble's SHA-256
 * 2.7 kB more that a reader never fetches; counted before 2026-12-03's figures of issue 31).
 *
 * An embed's first screen is not all it loads: a run played to its end may load more (a table
 * passing 64 rows loads the virtualizer, src/ui/pipeline/Rows.tsx), and so may a question's
 * reveal. `then` is what the reader does after the first screen ({@link playedToEnd}: an
 * autoplayed run, its question answered first if it asks one): the count then goes on until it
 * is done, and 1 s after — so a byte moved from the first screen into a chunk the same embed loads
 * anyway while it plays is still counted (issue 31).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { Browser, Page } from 'playwright-core';

export interface Transfer {
  files: number;
  /** Bytes as built. */
  raw: number;
  /** Bytes gzipped, file by file. */
  gzip: number;
  /** Of `gzip`: JavaScript, style sheets, and the rest (the HTML, the icon…). */
  gzipByType: { js: number; css: number; other: number };
  /** Navigation start → `painted` on screen (ms). */
  paintMs: number;
  /** Navigation start → `settled` on screen (ms; NaN without `settled`): the first run's end. */
  settledMs: number;
  /** Each file fetched, largest first: its name without the build's hash, bytes gzipped. */
  byFile: { name: string; gzip: number }[];
}

/** `/assets/checker-D4owIQS6.js` → `checker.js`: a chunk's name as it reads across builds. */
export function chunkName(path: string): string {
  return path
    .split('/')
    .pop()!
    .replace(/-[\w-]{8}(\.\w+)$/, '$1');
}

export async function transferOf(
  browser: Browser,
  dist: string,
  url: string,
  painted: string,
  viewport = { width: 1280, height: 720 },
  settled?: string,
  then?: (page: Page) => Promise<void>,
): Promise<Transfer> {
  // A fresh context: nothing from the HTTP cache of an earlier load.
  const context = await browser.newContext({ viewport });
  // A reader's browser: no test API (src/ui/hooks/useLabDriver.ts loads it under automation).
  // A string, not a function: tsx would wrap a function in a __name() the page does not have.
  await context.addInitScript(
    "Object.defineProperty(Navigator.prototype, 'webdriver', { get: () => false });",
  );
  const page = await context.newPage();
  const origin = new URL(url).origin;
  const paths = new Set<string>();
  page.on('requestfinished', (r) => {
    const u = new URL(r.url());
    if (u.origin === origin) paths.add(u.pathname === '/' ? '/index.html' : u.pathname);
  });
  await page.goto(url, { waitUntil: 'commit' });
  // Both watched at once, from the start: each time is the first frame its selector matched in,
  // whichever comes first (one waited for after the other is late by at least a frame).
  const firstFrame = (sel: string) =>
    page
      .waitForFunction((q) => (document.querySelector(q) ? performance.now() : 0), sel, {
        polling: 'raf',
        timeout: 60_000,
      })
      .then(async (h) => (await h.jsonValue()) as number);
  const [paintMs, settledMs] = await Promise.all([
    firstFrame(painted),
    settled ? firstFrame(settled) : NaN,
  ]);
  if (then) await then(page);
  await page.waitForTimeout(1000);
  await context.close();
  let raw = 0;
  let gzip = 0;
  const gzipByType = { js: 0, css: 0, other: 0 };
  const byFile: Transfer['byFile'] = [];
  for (const p of paths) {
    const bytes = readFileSync(join(dist, decodeURIComponent(p)));
    const zipped = gzipSync(bytes, { level: 9 }).length;
    raw += bytes.length;
    gzip += zipped;
    gzipByType[p.endsWith('.js') ? 'js' : p.endsWith('.css') ? 'css' : 'other'] += zipped;
    byFile.push({ name: chunkName(p), gzip: zipped });
  }
  byFile.sort((a, b) => b.gzip - a.gzip);
  return { files: paths.size, raw, gzip, gzipByType, paintMs, settledMs, byFile };
}

/**
 * An embed opened with `autoplay=1`, played to its end: its question answered first if it asks
 * one (autoplay waits for the answer: the first choice, or "1", locked in — "Show the answer" if
 * that cannot be locked in), then its run's end — the stream player's counters final
 * (src/ui/Counters.tsx `data-final`), the batch player's summary shown — and with a question,
 * its answer revealed. At the scenario's own pace (src/views/run/pace.ts: ~30 s), so every moment
 * of the run is drawn as a reader sees it.
 */
export async function playedToEnd(page: Page): Promise<void> {
  const box = page.getByTestId('embed-predict');
  const asked = (await box.count()) > 0;
  if (asked) {
    // The three ways src/ui/library/Prediction.tsx asks: the four choices (a click locks one
    // in), a preset's options (a radio, then "Lock in"), or words and numbers (then "Lock in").
    const choice = box.locator('.predict-choices button');
    const option = box.locator('[data-testid="predict-options"] input');
    if ((await choice.count()) > 0) await choice.first().click();
    else {
      if ((await option.count()) > 0) await option.first().check();
      else await box.getByTestId('predict-input').fill('1');
      await box.getByTestId('predict-lock').click();
    }
    if ((await box.getByTestId('predict-yours').count()) === 0)
      await box.getByTestId('embed-reveal').click();
  }
  await page
    .locator('[data-testid="counter-missing"][data-final="true"], [data-testid="batch-summary"]')
    .first()
    .waitFor({ timeout: 180_000 });
  if (asked) await page.getByTestId('embed-answer').first().waitFor({ timeout: 60_000 });
}
