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
import { chunkName } from '../bench/transfer';
import { chromiumArgs, findOrInstallChromium } from './chromium.mjs';

const root = join(import.meta.dirname, '..');
const dist = process.env.TRACE_DIST ?? join(root, 'dist');
const port = Number(process.env.TRACE_PORT ?? 4310);
const query = process.env.TRACE_QUERY ?? 'preset=lost-ack-retry/acks-1';
const rounds = Number(process.env.TRACE_ROUNDS ?? 3);
const base = `http://127.0.0.1:${port}/`;
/** As bench/ui.bench.ts: the player shown, its run in and its height reserved. */
const SHOWN = '[data-testid="embed-player"]:not([aria-busy])';

const CATEGORIES = [
  'devtools.timeline',
  'disabled-by-default-devtools.timeline',
  'v8',
  'v8.execute',
  'disabled-by-default-v8.compile',
  'blink.user_timing',
  'loading',
];

interface TraceEvent {
  name: string;
  ph: string;
  ts: number;
  dur?: number;
  pid: number;
  tid: number;
  args?: { name?: string; data?: { url?: string; documentLoaderURL?: string } };
}

/** The kind of work an event of the main thread is (its self time counted there). */
function kindOf(name: string): string {
  // A task's time outside every traced event in it.
  if (name === 'RunTask') return 'task (untraced)';
  if (
    /^(V8\.(Compile|Parse|PreParse|ScriptCompiler|CompileCode|CompileModule|CompileLazy|CompileEval|ParseProgram|ParseFunction|StreamingCompile|Deserialize)|v8\.(compile|parse|compileModule|parseOnBackground|produceCache)|CompileCode|CompileScript|ParseFunctions)/i.test(
      name,
    )
  )
    return 'parse/compile';
  if (/GC|Sweep|Scavenge|Mark|Compact/i.test(name) && !/Mark(er)?s?$/.test(name)) return 'gc';
  if (
    /^(v8\.evaluateModule|EvaluateScript|v8\.run|V8\.Execute|FunctionCall|TimerFire|EventDispatch|FireAnimationFrame|RunMicrotasks|v8\.callFunction|ResolvePromise|V8Console|v8\.newInstance)/.test(
      name,
    )
  )
    return 'script';
  if (
    /^(UpdateLayoutTree|RecalculateStyles|ScheduleStyleRecalculation|ParseAuthorStyleSheet|StyleInvalidatorInvalidationTracking)/.test(
      name,
    )
  )
    return 'style';
  if (
    /^(Layout|UpdateLayout|LayoutShift|InvalidateLayout|IntersectionObserverController)/.test(name)
  )
    return 'layout';
  if (
    /^(Paint|PrePaint|Layerize|UpdateLayer|CompositeLayers|Commit|PaintImage|RasterTask|UpdateLayerTree|Decode)/.test(
      name,
    )
  )
    return 'paint';
  if (
    /^(ParseHTML|HTMLDocumentParser|ResourceSendRequest|ResourceReceiveResponse|ResourceFinish|ResourceReceivedData)/.test(
      name,
    )
  )
    return 'html/network';
  return 'other';
}

/** Self time by event name on one thread, within [from, to] (µs of the trace). */
function selfTimes(events: TraceEvent[], from: number, to: number): Map<string, number> {
  // Complete events, and begin/end pairs made complete.
  const spans: { name: string; start: number; end: number }[] = [];
  const open: TraceEvent[] = [];
  for (const e of events) {
    if (e.ph === 'X' && e.dur !== undefined)
      spans.push({ name: e.name, start: e.ts, end: e.ts + e.dur });
    else if (e.ph === 'B') open.push(e);
    else if (e.ph === 'E') {
      const b = open.pop();
      if (b) spans.push({ name: b.name, start: b.ts, end: e.ts });
    }
  }
  spans.sort((a, b) => a.start - b.start || b.end - a.end);
  const self = new Map<string, number>();
  const stack: { name: string; start: number; end: number; child: number }[] = [];
  const clip = (s: { start: number; end: number }) =>
    Math.max(0, Math.min(s.end, to) - Math.max(s.start, from));
  const close = (s: (typeof stack)[number]) => {
    self.set(s.name, (self.get(s.name) ?? 0) + Math.max(0, clip(s) - s.child));
    const parent = stack[stack.length - 1];
    if (parent) parent.child += clip(s);
  };
  for (const s of spans) {
    while (stack.length > 0 && stack[stack.length - 1]!.end <= s.start) close(stack.pop()!);
    stack.push({ ...s, child: 0 });
  }
  while (stack.length > 0) close(stack.pop()!);
  return self;
}

/**
 * The thread's tasks over 2 ms from `from` to `to`, each with its self time by kind, and the
 * page's marks between them: what ran in what order (TRACE_TIMELINE=1 prints it for one load).
 */
function timeline(events: TraceEvent[], from: number, to: number): string[] {
  const lines: { at: number; line: string }[] = [];
  const tasks = events.filter(
    (e) => e.ph === 'X' && e.name === 'RunTask' && e.ts >= from && e.ts <= to,
  );
  for (const t of tasks) {
    if ((t.dur ?? 0) < 2000) continue;
    const inside = events.filter((e) => e.ts >= t.ts && e.ts < t.ts + t.dur! && e !== t);
    const self = selfTimes(inside, t.ts, t.ts + t.dur!);
    const kinds = new Map<string, number>();
    for (const [n, us] of self) kinds.set(kindOf(n), (kinds.get(kindOf(n)) ?? 0) + us);
    const parts = [...kinds]
      .filter(([, us]) => us >= 500)
      .sort((a, b) => b[1] - a[1])
      .map(([k, us]) => `${k} ${(us / 1000).toFixed(0)}`);
    const layouts = inside.filter((e) => e.name === 'Layout').length;
    lines.push({
      at: t.ts,
      line: `${((t.ts - from) / 1000).toFixed(0).padStart(5)} +${(t.dur! / 1000).toFixed(0).padStart(4)} ms  ${parts.join(', ')}${layouts ? ` · ${layouts} layouts` : ''}`,
    });
  }
  for (const e of events)
    if (
      (e.ph === 'R' || e.ph === 'I' || e.ph === 'n' || e.ph === 'b') &&
      /^(embed|lab):/.test(e.name)
    )
      lines.push({
        at: e.ts,
        line: `${((e.ts - from) / 1000).toFixed(0).padStart(5)}        ● ${e.name}`,
      });
  return lines.sort((a, b) => a.at - b.at).map((l) => l.line);
}

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
      traceConfig: { includedCategories: CATEGORIES },
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
    const byFile = new Map<string, number>();
    const byFunction = new Map<string, number>();
    const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
    let t = profile.startTime;
    profile.samples!.forEach((id, i) => {
      const dt = profile.timeDeltas![i]!;
      t += dt;
      if (t < navStart || t > to) return;
      const f = nodes.get(id)!.callFrame;
      const file = f.url ? chunkName(new URL(f.url).pathname) : `(${f.functionName || 'none'})`;
      byFile.set(file, (byFile.get(file) ?? 0) + dt);
      const fn = `${f.functionName || '(anonymous)'} ${file}:${f.lineNumber + 1}`;
      byFunction.set(fn, (byFunction.get(fn) ?? 0) + dt);
    });
    return { paint, self, byFile, byFunction, timeline: timeline(thread, navStart, to) };
  } finally {
    await context.close();
  }
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};

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
