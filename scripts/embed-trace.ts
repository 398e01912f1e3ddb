/**
 * Where the embed's main thread goes until first paint (issue 31: first paint ≤ 500 ms), from a
 * Chromium performance trace rather than CDP's four counters (bench/embedSteps.ts): the production
 * build (dist/, or TRACE_DIST) served by `vite preview` on TRACE_PORT (default 4310),
 * `?embed&preset=lost-ack-retry/acks-1` (or TRACE_QUERY) loaded TRACE_ROUNDS times (default 3) at
 * 700×480, each in a fresh context and traced (devtools.timeline, v8, blink.user_timing). The
 * renderer's main thread from navigation start until the player is shown is summed by kind of
 * work, each event's self time (its time minus its children's), and the median of each kind
 * printed, with the ten costliest event names. Run `npx vite build` first, then
 * `npx tsx scripts/embed-trace.ts`.
 */
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { startPreview } from '../bench/previewServer';
import {
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
const query = process.env.TRACE_QUERY ?? 'preset=lost-ack-retry/acks-1';
const rounds = Number(process.env.TRACE_ROUNDS ?? 3);
const base = `http://127.0.0.1:${port}/`;
/** As bench/ui.bench.ts: the player shown, its run in and its height reserved. */
const SHOWN = '[data-testid="embed-player"]:not([aria-busy])';

async function traceOnce(browser: Browser, url: string) {
  const context = await browser.newContext({ viewport: { width: 700, height: 480 } });
  await context.addInitScript(
    "Object.defineProperty(Navigator.prototype, 'webdriver', { get: () => false });",
  );
  try {
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
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
    await page.goto(url, { waitUntil: 'commit' });
    const paint = await page
      .waitForFunction((q) => (document.querySelector(q) ? performance.now() : 0), SHOWN, {
        polling: 'raf',
        timeout: 60_000,
      })
      .then(async (h) => (await h.jsonValue()) as number);
    const { profile } = await cdp.send('Profiler.stop');
    await cdp.send('Tracing.end');
    await done;
    // The page's renderer: the one whose main thread fetched the build's assets.
    const mains = chunks.filter(
      (e) => e.ph === 'M' && e.name === 'thread_name' && e.args?.name === 'CrRendererMain',
    );
    const isPage = (m: TraceEvent) =>
      chunks.some(
        (e) =>
          e.pid === m.pid &&
          e.name === 'ResourceSendRequest' &&
          /assets/.test(JSON.stringify(e.args)),
      );
    const main = mains.find(isPage) ?? mains[0]!;
    const thread = chunks.filter((e) => e.pid === main.pid && e.tid === main.tid);
    // The page's navigation (not about:blank's, nor a document made later without an address).
    const navStart = thread.find(
      (e) => e.name === 'navigationStart' && e.args?.data?.documentLoaderURL === url,
    )!.ts;
    const to = navStart + paint * 1000;
    const self = selfTimes(thread, navStart, to);
    // The CPU profile's samples until first paint, by script file and by function (self time).
    const { byFile, byFunction } = profileSelfTimes(profile, navStart, to);
    return {
      paint,
      self,
      byFile,
      byFunction,
      timeline: timeline(thread, navStart, to, /^(embed|lab):/),
    };
  } finally {
    await context.close();
  }
}

const server = await startPreview(dist, port);
try {
  const browser = await chromium.launch({
    executablePath: findOrInstallChromium(),
    args: chromiumArgs,
  });
  const loads: Awaited<ReturnType<typeof traceOnce>>[] = [];
  try {
    for (let i = 0; i < rounds; i++) loads.push(await traceOnce(browser, `${base}?embed&${query}`));
  } finally {
    await browser.close();
  }
  const ms = (us: number) => (us / 1000).toFixed(0);
  if (process.env.TRACE_TIMELINE === '1') {
    const l = [...loads].sort((a, b) => a.paint - b.paint)[loads.length >> 1]!;
    console.log(
      `main thread's tasks ≥ 2 ms of the median load (first paint ${l.paint.toFixed(0)} ms):`,
    );
    for (const line of l.timeline) console.log(line);
  }
  const kinds = new Set<string>();
  const byKind = loads.map((l) => {
    const k = new Map<string, number>();
    for (const [name, us] of l.self) {
      const kind = kindOf(name);
      kinds.add(kind);
      k.set(kind, (k.get(kind) ?? 0) + us);
    }
    return k;
  });
  console.log(
    `?embed&${query} at 700×480, ${rounds} traced loads (load average ${loadavg()[0]!.toFixed(2)}); first paint ${loads.map((l) => l.paint.toFixed(0)).join(', ')} ms`,
  );
  const busy = byKind.map((k) => [...k.values()].reduce((a, b) => a + b, 0));
  console.log(`main thread busy until first paint (median ms of self time): ${ms(median(busy))}`);
  for (const kind of [...kinds].sort(
    (a, b) => median(byKind.map((k) => k.get(b) ?? 0)) - median(byKind.map((k) => k.get(a) ?? 0)),
  ))
    console.log(
      `  ${kind.padEnd(14)} ${ms(median(byKind.map((k) => k.get(kind) ?? 0))).padStart(5)}`,
    );
  const names = new Map<string, number[]>();
  for (const l of loads) for (const [n, us] of l.self) names.set(n, [...(names.get(n) ?? []), us]);
  const top = [...names]
    .map(([n, xs]) => [n, median([...xs, ...Array(rounds - xs.length).fill(0)])] as const)
    .sort((a, b) => b[1] - a[1])
    .slice(0, Number(process.env.TRACE_TOP ?? 20));
  console.log('costliest events (median ms of self time, kind):');
  for (const [n, us] of top) console.log(`  ${ms(us).padStart(5)}  ${n} (${kindOf(n)})`);
  for (const [what, key] of [
    ['script file', 'byFile'],
    ['function', 'byFunction'],
  ] as const) {
    const all = new Map<string, number[]>();
    for (const l of loads) for (const [n, us] of l[key]) all.set(n, [...(all.get(n) ?? []), us]);
    console.log(`CPU profile until first paint by ${what} (median ms of self time):`);
    for (const [n, us] of [...all]
      .map(([n, xs]) => [n, median([...xs, ...Array(rounds - xs.length).fill(0)])] as const)
      .sort((a, b) => b[1] - a[1])
      .slice(0, Number(process.env.TRACE_TOP ?? 20)))
      console.log(`  ${ms(us).padStart(5)}  ${n}`);
  }
} finally {
  server.kill();
}
