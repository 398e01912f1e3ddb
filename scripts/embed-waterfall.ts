/**
 * The embed's first load as a waterfall (issue 31: first paint of the player ≤ 500 ms): the
 * production build (dist/, or WATERFALL_DIST) served by `vite preview` on WATERFALL_PORT
 * (default 4310), `?embed&preset=lost-ack-retry/acks-1` (or WATERFALL_QUERY) loaded
 * WATERFALL_ROUNDS times (default 5) in headless Chromium at 700×480, each in a fresh context; the
 * load with the median first paint printed file by file (requested → arrived, ms since navigation
 * start, and its round of requests) with the page's marks (bench/embedSteps.ts) between them,
 * then every load's steps and their medians. Run `npx vite build` first, then
 * `npx tsx scripts/embed-waterfall.ts`.
 */
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import {
  EMBED_STEPS,
  embedStepsLine,
  loadEmbed,
  mainThreadLine,
  type EmbedLoad,
} from '../bench/embedSteps';
import { startPreview } from '../bench/previewServer';
import { chromiumArgs, findOrInstallChromium } from './chromium.mjs';

const root = join(import.meta.dirname, '..');
const dist = process.env.WATERFALL_DIST ?? join(root, 'dist');
const port = Number(process.env.WATERFALL_PORT ?? 4310);
const query = process.env.WATERFALL_QUERY ?? 'preset=lost-ack-retry/acks-1';
const rounds = Number(process.env.WATERFALL_ROUNDS ?? 5);
/** WATERFALL_STEPS_ONLY=1: the steps and main-thread figures only, not the file-by-file list. */
const stepsOnly = process.env.WATERFALL_STEPS_ONLY === '1';
const base = `http://127.0.0.1:${port}/`;
/** As bench/ui.bench.ts: the player shown, its run in and its height reserved. */
const SHOWN = '[data-testid="embed-player"]:not([aria-busy])';

const server = await startPreview(dist, port);
try {
  const browser = await chromium.launch({
    executablePath: findOrInstallChromium(),
    args: chromiumArgs,
  });
  const loads: EmbedLoad[] = [];
  try {
    for (let i = 0; i < rounds; i++)
      loads.push(
        await loadEmbed(browser, `${base}?embed&${query}`, SHOWN, { width: 700, height: 480 }),
      );
  } finally {
    await browser.close();
  }
  const byPaint = [...loads].sort((a, b) => a.steps.paint - b.steps.paint);
  const shown = byPaint[byPaint.length >> 1]!;
  console.log(
    `?embed&${query} at 700×480, the load with the median first paint of ${rounds} (load average ${loadavg()[0]!.toFixed(2)}):`,
  );
  const rows: { at: number; line: string }[] = [];
  const ms = (x: number) => x.toFixed(0).padStart(5);
  for (const f of shown.files.filter((f) => f.start <= shown.steps.paint))
    rows.push({
      at: f.start,
      line: `${ms(f.start)} → ${ms(f.end)}  ${f.name}`,
    });
  for (const m of shown.marks) rows.push({ at: m.at, line: `${ms(m.at)}          ● ${m.name}` });
  rows.push({ at: shown.steps.paint, line: `${ms(shown.steps.paint)}          ● player shown` });
  rows.sort((a, b) => a.at - b.at);
  if (!stepsOnly) for (const r of rows) console.log(r.line);
  console.log(`\n${EMBED_STEPS.join(' ')} files waves · busy script layout style`);
  for (const l of loads)
    console.log(
      [...EMBED_STEPS, 'files', 'waves'].map((k) => l.steps[k].toFixed(0)).join(' ') +
        ` · ${[l.main.task, l.main.script, l.main.layout, l.main.style].map((x) => x.toFixed(0)).join(' ')}`,
    );
  console.log(embedStepsLine(loads.map((l) => l.steps)));
  console.log(mainThreadLine(loads.map((l) => l.main)));
} finally {
  server.kill();
}
