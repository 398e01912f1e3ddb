/**
 * Reading a Chromium performance trace of the page's main thread, for scripts/embed-trace.ts and
 * scripts/page-trace.ts: the categories they record, each event's kind of work, self times, the
 * tasks in order with the page's marks, and a V8 CPU profile's samples by script file and function.
 */
import { chunkName } from '../bench/transfer';

export const TRACE_CATEGORIES = [
  'devtools.timeline',
  'disabled-by-default-devtools.timeline',
  'disabled-by-default-devtools.timeline.stack',
  'v8',
  'v8.execute',
  'disabled-by-default-v8.compile',
  'blink.user_timing',
  'loading',
];

export interface TraceEvent {
  name: string;
  ph: string;
  ts: number;
  dur?: number;
  /** Thread time (µs): not counting time the thread waited for a core. */
  tdur?: number;
  pid: number;
  tid: number;
  args?: { name?: string; data?: { url?: string; documentLoaderURL?: string } };
}

/** The kind of work an event of the main thread is (its self time counted there). */
export function kindOf(name: string): string {
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
export function selfTimes(events: TraceEvent[], from: number, to: number): Map<string, number> {
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
 * The thread's tasks over 2 ms from `from` to `to`, each with its self time by kind and its
 * style recalculations and layouts, and the page's marks (names matching `marks`) between them:
 * what ran in what order (TRACE_TIMELINE=1 prints it for one load).
 */
export function timeline(events: TraceEvent[], from: number, to: number, marks: RegExp): string[] {
  const lines: { at: number; line: string }[] = [];
  for (const t of events) {
    if (t.ph !== 'X' || t.name !== 'RunTask' || t.ts < from || t.ts > to) continue;
    if ((t.dur ?? 0) < 2000) continue;
    const inside = events.filter((e) => e.ts >= t.ts && e.ts < t.ts + t.dur! && e !== t);
    const kinds = new Map<string, number>();
    for (const [n, us] of selfTimes(inside, t.ts, t.ts + t.dur!))
      kinds.set(kindOf(n), (kinds.get(kindOf(n)) ?? 0) + us);
    const parts = [...kinds]
      .filter(([, us]) => us >= 500)
      .sort((a, b) => b[1] - a[1])
      .map(([k, us]) => `${k} ${(us / 1000).toFixed(0)}`);
    const styles = inside.filter((e) => e.name === 'UpdateLayoutTree').length;
    const layouts = inside.filter((e) => e.name === 'Layout').length;
    lines.push({
      at: t.ts,
      line: `${((t.ts - from) / 1000).toFixed(0).padStart(5)} +${(t.dur! / 1000).toFixed(0).padStart(4)} ms  ${parts.join(', ')} · ${styles} style, ${layouts} layout`,
    });
  }
  for (const e of events)
    if (['R', 'I', 'n', 'b'].includes(e.ph) && marks.test(e.name))
      lines.push({
        at: e.ts,
        line: `${((e.ts - from) / 1000).toFixed(0).padStart(5)}        ● ${e.name}`,
      });
  return lines.sort((a, b) => a.at - b.at).map((l) => l.line);
}

/** A V8 CPU profile as CDP's `Profiler.stop` returns it (the fields read here). */
export interface CpuProfile {
  startTime: number;
  nodes: {
    id: number;
    children?: number[];
    callFrame: { functionName: string; url: string; lineNumber: number };
  }[];
  samples?: number[];
  timeDeltas?: number[];
}

/** A sampled call frame's place: `name file:line`, the build's hash left out of the file. */
export function frameName(f: CpuProfile['nodes'][number]['callFrame']): string {
  const file = f.url ? chunkName(new URL(f.url).pathname) : `(${f.functionName || 'none'})`;
  return `${f.functionName || '(anonymous)'} ${file}:${f.lineNumber + 1}`;
}

/**
 * The profile's samples from `from` to `to` (µs of the trace's clock), each sample's time given to
 * the node sampled: self time by script file and by function; `each` sees every sample kept.
 */
export function profileSelfTimes(
  profile: CpuProfile,
  from: number,
  to: number,
  each?: (node: number, dt: number) => void,
): { byFile: Map<string, number>; byFunction: Map<string, number> } {
  const byFile = new Map<string, number>();
  const byFunction = new Map<string, number>();
  const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
  let t = profile.startTime;
  profile.samples!.forEach((id, i) => {
    const dt = profile.timeDeltas![i]!;
    t += dt;
    if (t < from || t > to) return;
    const f = nodes.get(id)!.callFrame;
    const file = f.url ? chunkName(new URL(f.url).pathname) : `(${f.functionName || 'none'})`;
    byFile.set(file, (byFile.get(file) ?? 0) + dt);
    const fn = frameName(f);
    byFunction.set(fn, (byFunction.get(fn) ?? 0) + dt);
    each?.(id, dt);
  });
  return { byFile, byFunction };
}

export const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};
