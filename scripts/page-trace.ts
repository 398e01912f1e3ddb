/**
 * Where the lab page's main thread goes until its first verdict (issue 24: first verdict
 * ≤ 500 ms), from a Chromium performance trace: the production build (dist/, or TRACE_DIST)
 * served by `vite preview` on TRACE_PORT (default 4310), the page loaded as bench/ui.bench.ts
 * loads it (one tab at 1280×720, reloaded: from the second load on it opens the saved workspace),
 * TRACE_WARM loads untraced (default 2), then TRACE_ROUNDS traced (default 3). For each traced
 * load: the verdict's time as the bench reads it, the main thread's tasks of 2 ms or more with
 * the page's `lab:` marks between them (TRACE_TIMELINE=1, the median load), and the median self
 * time by kind of work, by event name and, from V8's sampler, by script file and by function.
 * Run `npx vite build` first (with `--minify false` for the functions' names), then
 * `npx tsx scripts/page-trace.ts`. The embed's own: scripts/embed-trace.ts.
 */
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { chromium, type Page } from 'playwright-core';
import { chunkName } from '../bench/transfer';
import { startPreview } from '../bench/previewServer';
import {
  frameName,
  kindOf,
  median,
  profileSelfTimes,
  selfTimes,
  timeline,
  TRACE_CATEGORIES,
  type TraceEvent,
} from './chromeTrace';
import { chromiumArgs, findOrInstallChromium } from './chromium.mjs';

const root = join(import.meta.dirname, '..');
const dist = process.env.TRACE_DIST ?? join(root, 'dist');
const port = Number(process.env.TRACE_PORT ?? 4310);
const warm = Number(process.env.TRACE_WARM ?? 2);
const rounds = Number(process.env.TRACE_ROUNDS ?? 3);
const base = `http://127.0.0.1:${port}/`;
/** As bench/ui.bench.ts: the verdict, or the card that hides it until a prediction. */
const VERDICT =
  '[data-testid="verdict"][data-observed], [data-testid="outcome-hidden"][data-what="verdict"]';

/** The first verdict as bench/ui.bench.ts times it (ms since navigation start). */
async function firstVerdict(page: Page): Promise<number> {
  await page.goto(base, { waitUntil: 'commit' });
  const h = await page.waitForFunction(
    (sel) => (document.querySelector(sel) ? performance.now() : 0),
    VERDICT,
    { polling: 'raf', timeout: 60_000 },
  );
  return (await h.jsonValue()) as number;
}

async function traceOnce(page: Page) {
  const cdp = await page.context().newCDPSession(page);
  const chunks: TraceEvent[] = [];
  cdp.on('Tracing.dataCollected', (d) => chunks.push(...(d.value as TraceEvent[])));
  const done = new Promise<void>((r) => cdp.once('Tracing.tracingComplete', () => r()));
  await cdp.send('Tracing.start', {
    traceConfig: { includedCategories: TRACE_CATEGORIES },
    transferMode: 'ReportEvents',
  });
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
  await cdp.send('Profiler.start');
  const verdict = await firstVerdict(page);
  // The trace's clock at navigation start, from a mark's time on both clocks (the trace's own
  // navigationStart events include other documents').
  const render = await page.evaluate(
    () => performance.getEntriesByName('lab:render', 'mark')[0]?.startTime ?? NaN,
  );
  const { profile } = await cdp.send('Profiler.stop');
  await cdp.send('Tracing.end');
  await done;
  await cdp.detach();
  const mains = chunks.filter(
    (e) => e.ph === 'M' && e.name === 'thread_name' && e.args?.name === 'CrRendererMain',
  );
  const main =
    mains.find((m) => chunks.some((e) => e.pid === m.pid && e.name === 'lab:render')) ?? mains[0]!;
  const thread = chunks.filter((e) => e.pid === main.pid && e.tid === main.tid);
  const renderMark = thread.filter((e) => e.name === 'lab:render').at(-1);
  if (renderMark === undefined || !Number.isFinite(render)) throw new Error('no lab:render mark');
  const navStart = renderMark.ts - render * 1000;
  const to = navStart + verdict * 1000;
  const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
  // TRACE_CALLERS=name: who calls the functions of that name (the sampled stacks' parents).
  const callersOf = process.env.TRACE_CALLERS;
  const parents = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parents.set(c, n.id);
  const callers = new Map<string, number>();
  const { byFile, byFunction } = profileSelfTimes(profile, navStart, to, (id, dt) => {
    if (callersOf === undefined || nodes.get(id)!.callFrame.functionName !== callersOf) return;
    const stack: string[] = [];
    for (let p = parents.get(id); p !== undefined && stack.length < 6; p = parents.get(p))
      stack.push(frameName(nodes.get(p)!.callFrame));
    const key = stack.join(' ← ');
    callers.set(key, (callers.get(key) ?? 0) + dt);
  });
  for (const [k, us] of [...callers].sort((a, b) => b[1] - a[1]).slice(0, 5))
    console.log(`${callersOf} ${(us / 1000).toFixed(0)} ms ← ${k}`);
  // The verdict's frame: the task whose animation-frame callbacks found it, then ran that frame's
  // style, layout and paint. Its end is when the verdict's frame was rendered (the bench's figure
  // is its start).
  const frame = thread.find(
    (e) => e.ph === 'X' && e.name === 'RunTask' && e.ts <= to && e.ts + (e.dur ?? 0) >= to,
  );
  const rendered = frame ? (frame.ts + frame.dur! - navStart) / 1000 : NaN;
  // The main thread's own time (thread time: what load does not stretch) from the first render
  // to the end of the verdict's frame, and from navigation to it.
  const cpu = (from: number) =>
    thread
      .filter(
        (e) =>
          e.ph === 'X' &&
          e.name === 'RunTask' &&
          e.ts >= from &&
          e.ts <= navStart + rendered * 1000,
      )
      .reduce((sum, e) => sum + (e.tdur ?? e.dur ?? 0), 0) / 1000;
  const renderCpu = cpu(renderMark.ts);
  // TRACE_FORCED=1: the script that forced each style recalculation or layout after lab:render.
  if (process.env.TRACE_FORCED === '1')
    for (const e of thread)
      if (
        (e.name === 'UpdateLayoutTree' || e.name === 'Layout') &&
        e.ts >= renderMark.ts &&
        e.ts <= to
      ) {
        const data = (
          e.args as {
            beginData?: {
              stackTrace?: { functionName: string; url: string; lineNumber: number }[];
            };
          }
        )?.beginData;
        const stack = (data?.stackTrace ?? [])
          .slice(0, 5)
          .map(
            (f) =>
              `${f.functionName || '(anon)'} ${f.url ? chunkName(new URL(f.url).pathname) : ''}:${f.lineNumber + 1}`,
          );
        console.log(
          `${e.name} ${((e.dur ?? 0) / 1000).toFixed(1)} ms at ${((e.ts - renderMark.ts) / 1000).toFixed(0)} ms after lab:render ← ${stack.join(' ← ') || '(the frame)'}`,
        );
      }
  const allCpu = cpu(navStart);
  return {
    verdict,
    rendered,
    render,
    renderCpu,
    allCpu,
    self: selfTimes(thread, navStart, to),
    afterRender: selfTimes(thread, renderMark.ts, to),
    byFile,
    byFunction,
    timeline: timeline(thread, navStart, to, /^lab:/),
  };
}

const ms = (us: number) => (us / 1000).toFixed(0);

const server = await startPreview(dist, port);
try {
  const browser = await chromium.launch({
    executablePath: findOrInstallChromium(),
    args: chromiumArgs,
  });
  const loads: Awaited<ReturnType<typeof traceOnce>>[] = [];
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 720 } });
    for (let i = 0; i < warm; i++) await firstVerdict(page);
    for (let i = 0; i < rounds; i++) loads.push(await traceOnce(page));
  } finally {
    await browser.close();
  }
  const mid = [...loads].sort((a, b) => a.verdict - b.verdict)[loads.length >> 1]!;
  if (process.env.TRACE_TIMELINE === '1') {
    console.log(
      `main thread's tasks ≥ 2 ms, the median load (verdict ${mid.verdict.toFixed(0)} ms):`,
    );
    for (const line of mid.timeline) console.log(line);
  }
  const byKind = loads.map((l) => {
    const k = new Map<string, number>();
    for (const [name, us] of l.self) k.set(kindOf(name), (k.get(kindOf(name)) ?? 0) + us);
    return k;
  });
  const kinds = new Set(byKind.flatMap((k) => [...k.keys()]));
  const busy = byKind.map((k) => [...k.values()].reduce((a, b) => a + b, 0));
  console.log(
    `the lab's page at 1280×720, ${rounds} traced loads after ${warm} (load average ${loadavg()[0]!.toFixed(2)}); first verdict ${loads.map((l) => l.verdict.toFixed(0)).join(', ')} ms`,
  );
  console.log(`main thread busy until the verdict (median ms of self time): ${ms(median(busy))}`);
  console.log(
    `the verdict's frame rendered (its task's end, ms since navigation): ${loads.map((l) => l.rendered.toFixed(0)).join(', ')}; median ${median(loads.map((l) => l.rendered - l.verdict)).toFixed(0)} ms after the verdict's time`,
  );
  const renderTask = loads.map((l) => l.verdict - l.render);
  console.log(`lab:render → verdict (ms): median ${median(renderTask).toFixed(0)}`);
  console.log(
    `main thread's own time (thread time, ms) until the verdict's frame was rendered: from lab:render ${loads.map((l) => l.renderCpu.toFixed(0)).join(', ')} (median ${median(loads.map((l) => l.renderCpu)).toFixed(0)}); from navigation ${loads.map((l) => l.allCpu.toFixed(0)).join(', ')} (median ${median(loads.map((l) => l.allCpu)).toFixed(0)})`,
  );
  const med = (get: (k: Map<string, number>) => number) => median(byKind.map(get));
  for (const kind of [...kinds].sort(
    (a, b) => med((k) => k.get(b) ?? 0) - med((k) => k.get(a) ?? 0),
  ))
    console.log(`  ${kind.padEnd(14)} ${ms(med((k) => k.get(kind) ?? 0)).padStart(5)}`);
  const top = Number(process.env.TRACE_TOP ?? 20);
  for (const [what, of] of [
    ['event', (l: (typeof loads)[number]) => l.self],
    ['event from lab:render on', (l: (typeof loads)[number]) => l.afterRender],
    ['script file (CPU profile)', (l: (typeof loads)[number]) => l.byFile],
    ['function (CPU profile)', (l: (typeof loads)[number]) => l.byFunction],
  ] as const) {
    const all = new Map<string, number[]>();
    for (const l of loads) for (const [n, us] of of(l)) all.set(n, [...(all.get(n) ?? []), us]);
    console.log(`costliest by ${what} (median ms of self time):`);
    for (const [n, us] of [...all]
      .map(([n, xs]) => [n, median([...xs, ...Array(rounds - xs.length).fill(0)])] as const)
      .sort((a, b) => b[1] - a[1])
      .slice(0, top))
      console.log(`  ${ms(us).padStart(5)}  ${n}`);
  }
} finally {
  server.kill();
}
