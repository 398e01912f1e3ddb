/**
 * The embed's first paint, step by step (issue 31: first paint of the player ≤ 500 ms): one load
 * of an embed address in a fresh context, as a reader's browser loads it (no test API), read from
 * the page's own Performance entries once the player is shown. Each step is the time since
 * navigation start (ms) at which:
 * - `html`: the document arrived;
 * - `entry`: the entry script (src/entry.ts) arrived;
 * - `js`: the last script that arrived before embedMain.tsx ran;
 * - `presets`: the presets the address opens were in (src/ui/io/firstPresets.ts);
 * - `main`: src/embedMain.tsx began (its imports evaluated, the presets awaited);
 * - `render`: its first render was asked for;
 * - `run`: the first run had settled (simulated and derived: the lab's `settled()`);
 * - `measure`: the player began measuring its height (laid out at its run's end) (src/ui/embed/ReserveHeight.tsx);
 * - `measured`: the height was known;
 * - `paint`: the player was shown (the first animation frame that matched `shown`);
 * and `files`: how many files the page had fetched by then, `waves`: how many rounds of
 * requests the scripts came in (a request that starts after another script arrived is a round
 * later: entry → player → simulation → … is a chain). bench/ui.bench.ts prints the medians;
 * scripts/embed-waterfall.ts prints one load file by file.
 */
import type { Browser } from 'playwright-core';
import { chunkName } from './transfer';

export const EMBED_STEPS = [
  'html',
  'entry',
  'js',
  'presets',
  'main',
  'render',
  'run',
  'measure',
  'measured',
  'paint',
] as const;
export type EmbedSteps = Record<(typeof EMBED_STEPS)[number] | 'files' | 'waves', number>;

/**
 * The page's main thread until the player was shown (ms, Chromium's own counters: CDP
 * `Performance.getMetrics`): busy in all (`task`), of it running scripts, laying out, and
 * recalculating styles. Time the thread spent working, not waiting: far less swayed by the
 * machine's load than the steps' wall-clock times.
 */
export interface MainThread {
  task: number;
  script: number;
  layout: number;
  style: number;
}

/** One file the load fetched: its name without the build's hash, requested → arrived (ms). */
export interface Fetched {
  name: string;
  start: number;
  end: number;
}

export interface EmbedLoad {
  steps: EmbedSteps;
  main: MainThread;
  files: Fetched[];
  /** Every `embed:`/`lab:` mark, in order (ms since navigation start). */
  marks: { name: string; at: number }[];
}

/**
 * Load `url` once in a fresh context at `viewport`, wait until `shown` is on screen, and read
 * the steps and the files.
 */
export async function loadEmbed(
  browser: Browser,
  url: string,
  shown: string,
  viewport: { width: number; height: number },
): Promise<EmbedLoad> {
  const context = await browser.newContext({ viewport });
  // A reader's browser: no test API (as bench/transfer.ts).
  await context.addInitScript(
    "Object.defineProperty(Navigator.prototype, 'webdriver', { get: () => false });",
  );
  try {
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('Performance.enable');
    await page.goto(url, { waitUntil: 'commit' });
    const paint = await page
      .waitForFunction((q) => (document.querySelector(q) ? performance.now() : 0), shown, {
        polling: 'raf',
        timeout: 60_000,
      })
      .then(async (h) => (await h.jsonValue()) as number);
    const { metrics } = await cdp.send('Performance.getMetrics');
    const metric = (name: string) => 1000 * (metrics.find((m) => m.name === name)?.value ?? NaN);
    const thread: MainThread = {
      task: metric('TaskDuration'),
      script: metric('ScriptDuration'),
      layout: metric('LayoutDuration'),
      style: metric('RecalcStyleDuration'),
    };
    const read = await page.evaluate(() => {
      const nav = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming;
      const files = (performance.getEntriesByType('resource') as PerformanceResourceTiming[]).map(
        (r) => ({ name: new URL(r.name).pathname, start: r.startTime, end: r.responseEnd }),
      );
      const marks = performance
        .getEntriesByType('mark')
        .filter((m) => /^(embed|lab):/.test(m.name))
        .map((m) => ({ name: m.name, at: m.startTime }));
      return { html: nav.responseEnd, files, marks };
    });
    const files = read.files.map((f) => ({ ...f, name: chunkName(f.name) }));
    const mark = (name: string) => read.marks.find((m) => m.name === name)?.at ?? NaN;
    const main = mark('embed:main');
    const scripts = files.filter((f) => f.name.endsWith('.js'));
    const before = scripts.filter((f) => f.end <= main).map((f) => f.end);
    const steps: EmbedSteps = {
      html: read.html,
      entry: scripts.find((f) => f.name.startsWith('index'))?.end ?? NaN,
      js: before.length > 0 ? Math.max(...before) : NaN,
      presets: mark('lab:presets-in'),
      main,
      render: mark('embed:render'),
      run: mark('embed:run-settled'),
      measure: mark('embed:measure-start'),
      measured: mark('embed:measure-end'),
      paint,
      files: files.filter((f) => f.start <= paint).length,
      waves: waves(scripts.filter((f) => f.start <= paint)),
    };
    return { steps, main: thread, files, marks: read.marks };
  } finally {
    await context.close();
  }
}

/**
 * Rounds of script requests: a request made after a script of round n had arrived is of round
 * n + 1 at least (what a chain of imports, entry → player → simulation → …, looks like from the
 * network); requests made before any arrived are round 1.
 */
function waves(scripts: readonly Fetched[]): number {
  const sorted = [...scripts].sort((a, b) => a.start - b.start);
  const round: number[] = [];
  sorted.forEach((f, i) => {
    const after = sorted.slice(0, i).filter((g, j) => g.end <= f.start && round[j] !== undefined);
    round[i] = 1 + Math.max(0, ...after.map((g) => round[sorted.indexOf(g)]!));
  });
  return Math.max(0, ...round);
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};

/** One line: the main thread's medians over the loads (ms). */
export function mainThreadLine(all: readonly MainThread[]): string {
  const m = (k: keyof MainThread) => median(all.map((x) => x[k])).toFixed(0);
  return `embed main thread until first paint (median ms of work, CDP Performance.getMetrics): ${m('task')} busy, of it script ${m('script')}, layout ${m('layout')}, style ${m('style')}`;
}

/** One line: each step's median over the loads, the files and rounds of requests. */
export function embedStepsLine(all: readonly EmbedSteps[]): string {
  const at = EMBED_STEPS.map((k) => {
    const m = median(all.map((s) => s[k]));
    return `${k} ${Number.isFinite(m) ? m.toFixed(0) : '–'}`;
  });
  const files = median(all.map((s) => s.files));
  const waves = median(all.map((s) => s.waves));
  return `embed first paint's steps (median ms since navigation): ${at.join(' → ')}; ${files} files fetched in ${waves} rounds of script requests`;
}
