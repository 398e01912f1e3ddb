/**
 * The lab page's first load as a waterfall (issue 24: first verdict ≤ 500 ms): the production
 * build (dist/, or WATERFALL_DIST) served by `vite preview` on WATERFALL_PORT (default 4310), `/`
 * loaded WATERFALL_ROUNDS times (default 5) at 1280×720, each a first visit in a fresh browser
 * context as bench/ui.bench.ts measures it (WATERFALL_RELOAD=1: one tab loaded again, its scripts
 * from the cache after the first load); the load with the median first verdict printed file by
 * file (asked → began → arrived, ms since navigation start, bytes transferred: 0 from the cache)
 * with the page's marks between them. `npx vite build` first.
 */
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { startPreview } from '../bench/previewServer';
import { chromiumArgs, findOrInstallChromium } from './chromium.mjs';

const root = join(import.meta.dirname, '..');
const dist = process.env.WATERFALL_DIST ?? join(root, 'dist');
const port = Number(process.env.WATERFALL_PORT ?? 4310);
const rounds = Number(process.env.WATERFALL_ROUNDS ?? 5);
const base = `http://127.0.0.1:${port}/`;
const VERDICT =
  '[data-testid="verdict"][data-observed], [data-testid="outcome-hidden"][data-what="verdict"]';

interface Load {
  verdict: number;
  files: { name: string; start: number; begin: number; end: number; size: number }[];
  marks: { name: string; at: number }[];
}

const server = await startPreview(dist, port);
try {
  const browser = await chromium.launch({
    executablePath: findOrInstallChromium(),
    args: chromiumArgs,
  });
  const loads: Load[] = [];
  try {
    const reload = process.env.WATERFALL_RELOAD === '1';
    const tab = async () => {
      const page = await browser.newPage({ viewport: { width: 1280, height: 720 } });
      await page.addInitScript('window.__name = (f) => f;');
      return page;
    };
    const one = reload ? await tab() : null;
    for (let i = 0; i < rounds; i++) {
      // browser.newPage opens it in a context of its own: nothing cached from an earlier load.
      const page = one ?? (await tab());
      await page.goto(base, { waitUntil: 'commit' });
      const h = await page.waitForFunction(
        (sel) => (document.querySelector(sel) ? performance.now() : 0),
        VERDICT,
        { polling: 'raf', timeout: 60_000 },
      );
      const verdict = (await h.jsonValue()) as number;
      const rest = await page.evaluate(() => ({
        files: (performance.getEntriesByType('resource') as PerformanceResourceTiming[]).map(
          (r) => ({
            name: r.name.replace(location.origin, ''),
            start: r.startTime,
            begin: r.requestStart,
            end: r.responseEnd,
            size: r.encodedBodySize,
          }),
        ),
        marks: performance.getEntriesByType('mark').map((m) => ({ name: m.name, at: m.startTime })),
      }));
      loads.push({ verdict, ...rest });
      if (!one) await page.context().close();
    }
  } finally {
    await browser.close();
  }
  const sorted = [...loads].sort((a, b) => a.verdict - b.verdict);
  const shown = sorted[sorted.length >> 1]!;
  console.log(
    `verdicts ${loads.map((l) => l.verdict.toFixed(0)).join(' ')}; median load (load average ${loadavg()[0]!.toFixed(2)}):`,
  );
  const ms = (x: number) => x.toFixed(0).padStart(5);
  const rows: { at: number; line: string }[] = [];
  const before = shown.files.filter((f) => f.start <= shown.verdict);
  for (const f of before)
    rows.push({
      at: f.start,
      line: `${ms(f.start)} ${ms(f.begin)} → ${ms(f.end)} ${String(f.size).padStart(7)}  ${f.name}`,
    });
  for (const m of shown.marks)
    rows.push({ at: m.at, line: `${ms(m.at)}                ● ${m.name}` });
  rows.push({ at: shown.verdict, line: `${ms(shown.verdict)}                ● verdict` });
  rows.sort((a, b) => a.at - b.at);
  for (const r of rows) console.log(r.line);
  console.log(`${before.length} files before the verdict`);
} finally {
  server.kill();
}
