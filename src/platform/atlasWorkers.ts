/**
 * The fault atlas in the page: one Web Worker per core (navigator.hardwareConcurrency), from the
 * same engine build as the run worker. All start at once: the first plans (the scenario's run and
 * its placements) while the others load the engine; then each takes contiguous chunks of the
 * trials as it frees up, and the results are assembled in chunk order — the atlas is identical
 * for any worker count (src/views/atlas/atlasJob.ts). Cancel terminates every worker: nothing of
 * the page changes.
 *
 * Why it is fast: a fresh worker runs the engine cold (parsed, interpreted, then compiled as it
 * warms on the scenario's code paths), about twice as slow over a whole first atlas as over the
 * next. So the workers of a finished atlas are kept, idle, for the next one, which starts warm; a
 * cancelled or failed atlas's are terminated. And before the first, idle workers are warmed up on
 * the scenario on screen ({@link warmAtlasWorkers}, src/views/atlas/atlasWarmUp.ts) while the
 * user reads: after the page's first verdict, and again when the pointer or focus reaches Explore.
 */
import type {
  Atlas,
  BatchAtlasCell,
  BatchPlacementKind,
  FaultSpec,
  PlacementKind,
  Scenario,
  ScenarioInput,
  TrialResult,
} from '../engine';
import type { AtlasPlan } from '../views/atlas/atlasJob';
import type { FixSuggestion } from '../views/atlas/fixSuggestion';
import { soFarDue } from '../views/atlas/soFarPace';
import type * as AtlasJobModule from '../views/atlas/atlasJob';

/** Messages to an atlas worker. */
export type AtlasRequest =
  | { type: 'plan'; scenario: Scenario; depth: 1 | 2; kinds: readonly PlacementKind[] }
  /** The atlas whose chunks follow (sent once per worker, not with every chunk). */
  | { type: 'job'; scenario: Scenario; plan: AtlasPlan }
  /** Run the trials `[from, to)` of the job. */
  | { type: 'slice'; from: number; to: number }
  /** A batch job's atlas (src/engine/batch/atlas.ts), whole: see {@link runBatchAtlasInWorker}. */
  | { type: 'batch'; scenario: Scenario; depth?: 1 | 2; kinds?: readonly BatchPlacementKind[] }
  /** Warm up on `scenario`'s atlas for at most `budgetMs` of real time, results thrown away. */
  | { type: 'warm'; scenario: Scenario; budgetMs: number }
  /** Stop a warm-up (a verdict is being computed: the cores are its). */
  | { type: 'rest' }
  /** What keeps the claim on these faults (src/views/atlas/fixSuggestion.ts). */
  | { type: 'fix'; scenario: ScenarioInput; faults: FaultSpec[] };

/** Messages from an atlas worker. */
export type AtlasReply =
  | { type: 'plan'; plan: AtlasPlan | { refused: string } }
  | { type: 'progress'; done: number }
  | { type: 'done'; results: TrialResult[] }
  | { type: 'error'; error: string }
  | { type: 'batch-progress'; done: number; total: number }
  | { type: 'batch-done'; cells: BatchAtlasCell[] }
  | { type: 'fix-done'; fix: FixSuggestion | null };

/** Progress of an atlas: trials run of all. */
export interface AtlasProgress {
  done: number;
  total: number;
  workers: number;
}

/**
 * A running atlas's chunks: the plan, each chunk's trials `[from, to)` and its results once it
 * finished (undefined until then), for a display of the results so far.
 */
export interface AtlasChunks {
  plan: AtlasPlan;
  chunks: readonly { from: number; to: number }[];
  results: readonly (readonly TrialResult[] | undefined)[];
}

/** The atlas, or why there is none (`cancelled`, pairs refused, a worker failed). */
type AtlasResult = { ok: true; atlas: Atlas; workers: number } | { ok: false; error: string };

/** A running atlas. */
export interface AtlasJob {
  promise: Promise<AtlasResult>;
  cancel(): void;
}

/** Options of {@link runAtlasInWorkers}. */
export interface AtlasWorkersOptions {
  depth?: 1 | 2;
  kinds?: readonly PlacementKind[];
  /** Workers to run (default: navigator.hardwareConcurrency, at least 1). */
  workers?: number;
  onProgress?: (p: AtlasProgress) => void;
  /**
   * Called as chunks finish (not per progress message; at most at the pace of
   * src/views/atlas/soFarPace.ts), with every chunk finished so far: the page redraws its map.
   */
  onChunk?: (c: AtlasChunks) => void;
  /** Makes a worker; default: the bundled atlas.worker.ts, kept warm between atlases. */
  createWorker?: () => Worker;
}

/**
 * The progress is handed on at most this often (ms of real time; the finished atlas is its last
 * news). Each redraw of the bar takes the main thread, the compositor and a paint of the page,
 * which the workers share two cores with: at every worker message (about 20 a second) that was
 * 1.0–1.7 s of CPU in a 5 s atlas (docs/benchmarks.md, "The page's atlas: the progress bar's cost").
 */
const PROGRESS_REDRAW_MS = 250;

/** Idle warm workers of the default kind, left by finished atlases for the next one. */
const warm: Worker[] = [];
const newAtlasWorker = () =>
  new Worker(new URL('./atlas.worker.ts', import.meta.url), { type: 'module' });

/** The atlas code, a lazy chunk: the page's entry script does not carry the engine. */
const loadJob = (): Promise<typeof AtlasJobModule> => import('../views/atlas/atlasJob');

/** The workers the page uses by default: one per core. */
function defaultWorkerCount(): number {
  const n = typeof navigator !== 'undefined' ? navigator.hardwareConcurrency : 1;
  return Math.max(1, Math.min(16, Number.isFinite(n) && n > 0 ? Math.floor(n) : 1));
}

/**
 * How long an idle worker warms up (real time, ms): its steps run until none is left or this
 * has passed — about the first atlas's excess over the next on a quiet machine.
 */
const WARM_UP_BUDGET_MS = 4000;
/** The scenario (as JSON) the idle workers last warmed up on: not twice on the same one. */
let warmedOn: string | null = null;

/**
 * Start the default workers ahead of an atlas, so the first atlas does not wait for them to load
 * the engine, and warm them up on `s` (the scenario on screen, validated): the user is about to
 * ask for one (the page's first verdict is on screen, or the pointer or focus reached Explore).
 * Without `s`, or on the scenario they last warmed up on, only the start.
 */
export function warmAtlasWorkers(s?: Scenario): void {
  const n = defaultWorkerCount();
  while (warm.length < n) warm.push(newAtlasWorker());
  if (!s) return;
  const key = JSON.stringify(s);
  if (key === warmedOn) return;
  warmedOn = key;
  for (const w of warm)
    w.postMessage({
      type: 'warm',
      scenario: s,
      budgetMs: WARM_UP_BUDGET_MS,
    } satisfies AtlasRequest);
}

/** Stop the idle workers' warm-up (a verdict is on its way: the cores are its). */
export function restAtlasWorkers(): void {
  if (warmedOn === null) return;
  warmedOn = null;
  for (const w of warm) w.postMessage({ type: 'rest' } satisfies AtlasRequest);
}

/** Run the atlas of `s` (validated, defaults applied) in Web Workers. */
export function runAtlasInWorkers(s: Scenario, opts: AtlasWorkersOptions = {}): AtlasJob {
  const make = opts.createWorker ?? (() => warm.pop() ?? newAtlasWorker());
  const wanted = Math.max(1, Math.floor(opts.workers ?? defaultWorkerCount()));
  const depth = opts.depth ?? 1;
  const startedAt = performance.now();
  const workers: Worker[] = [];
  let settled = false;
  let finish: (r: AtlasResult) => void = () => {};
  const promise = new Promise<AtlasResult>((resolve) => {
    finish = (r) => {
      if (settled) return;
      settled = true;
      // A finished atlas's workers wait, warm, for the next; any other's may be mid-run: stop them.
      if (r.ok && !opts.createWorker) warm.push(...workers);
      else for (const w of workers) w.terminate();
      workers.length = 0;
      resolve(r);
    };
  });
  /** One request to worker `w`, its progress to `onProgress`, its answer as a promise. */
  const ask = (w: Worker, req: AtlasRequest, onProgress?: (done: number) => void) =>
    new Promise<AtlasReply>((resolve) => {
      w.onmessage = (e: MessageEvent<AtlasReply>) => {
        if (e.data.type === 'progress') onProgress?.(e.data.done);
        else resolve(e.data);
      };
      w.onerror = (e) => {
        e.preventDefault();
        finish({ ok: false, error: e.message || 'an atlas worker failed' });
      };
      w.postMessage(req);
    });

  const go = async () => {
    const job = await loadJob();
    const kinds = opts.kinds ?? job.PLACEMENT_KINDS;
    if (settled) return;
    // Every worker starts now: the others load the engine while the first plans.
    while (workers.length < wanted) workers.push(make());
    const planned = await ask(workers[0]!, { type: 'plan', scenario: s, depth, kinds });
    if (settled) return;
    if (planned.type === 'error') return finish({ ok: false, error: planned.error });
    if (planned.type !== 'plan') return;
    if ('refused' in planned.plan) return finish({ ok: false, error: planned.plan.refused });
    const plan = planned.plan;
    const chunks = job.trialChunks(plan.trials, workers.length);
    // More workers than chunks (a tiny atlas): the spare ones go back idle.
    const spare = workers.splice(chunks.length);
    if (opts.createWorker) for (const w of spare) w.terminate();
    else warm.push(...spare);
    const results: (TrialResult[] | undefined)[] = chunks.map(() => undefined);
    let soFarAt = -Infinity;
    /** Trials done: of finished chunks, plus each worker's progress in its current chunk. */
    let finished = 0;
    const current = workers.map(() => 0);
    let reportedAt = -Infinity;
    const report = () => {
      const now = performance.now();
      if (now - reportedAt < PROGRESS_REDRAW_MS) return;
      reportedAt = now;
      opts.onProgress?.({
        done: finished + current.reduce((a, b) => a + b, 0),
        total: plan.trials,
        workers: workers.length,
      });
    };
    report();
    let next = 0;
    /** Worker `i` runs chunks until none is left; false if one failed (the atlas is over). */
    const drain = async (i: number): Promise<boolean> => {
      const w = workers[i]!;
      w.postMessage({ type: 'job', scenario: s, plan } satisfies AtlasRequest);
      while (next < chunks.length && !settled) {
        const c = next++;
        const { from, to } = chunks[c]!;
        const r = await ask(w, { type: 'slice', from, to }, (d) => {
          current[i] = d;
          report();
        });
        if (r.type === 'error') {
          finish({ ok: false, error: r.error });
          return false;
        }
        if (r.type !== 'done') return false;
        results[c] = r.results;
        current[i] = 0;
        finished += to - from;
        report();
        // The last chunk's news is the atlas itself (finish, below); the others at a pace the
        // workers' cores can spare (src/views/atlas/soFarPace.ts).
        const now = performance.now();
        if (!settled && finished < plan.trials && soFarDue(now, startedAt, soFarAt)) {
          soFarAt = now;
          opts.onChunk?.({ plan, chunks, results: [...results] });
        }
      }
      return !settled;
    };
    const ok = await Promise.all(workers.map((_, i) => drain(i)));
    if (settled || !ok.every(Boolean)) return;
    const slices = results.map((r) => r ?? []);
    finish({ ok: true, atlas: job.assembleSlices(s, plan, slices), workers: workers.length });
  };
  go().catch((e: unknown) =>
    finish({ ok: false, error: e instanceof Error ? e.message : String(e) }),
  );
  return { promise, cancel: () => finish({ ok: false, error: 'cancelled' }) };
}

/**
 * The fault atlas of a batch job (`s.batch`) in one atlas worker, warm if one waits: its single
 * faults are a few per attempt, a clear per date and a late landing per row — hundreds of runs of
 * a few steps each at most, so one worker runs them all in order (no chunks to assemble), with its
 * progress; Cancel terminates it and nothing of the page changes.
 */
export function runBatchAtlasInWorker(
  s: Scenario,
  opts: {
    onProgress?: (p: AtlasProgress) => void;
    createWorker?: () => Worker;
    /** 2: every pair of faults (the page's "Pairs too"), as `sim --explore --depth 2`. */
    depth?: 1 | 2;
    /** Only these kinds (the page's kind filter, as `--kinds`); default: every kind. */
    kinds?: readonly BatchPlacementKind[];
  } = {},
): {
  promise: Promise<{ ok: true; cells: BatchAtlasCell[] } | { ok: false; error: string }>;
  cancel(): void;
} {
  const w = opts.createWorker?.() ?? warm.pop() ?? newAtlasWorker();
  let settled = false;
  let finish: (
    r: { ok: true; cells: BatchAtlasCell[] } | { ok: false; error: string },
  ) => void = () => {};
  const promise = new Promise<{ ok: true; cells: BatchAtlasCell[] } | { ok: false; error: string }>(
    (resolve) => {
      finish = (r) => {
        if (settled) return;
        settled = true;
        if (r.ok && !opts.createWorker) warm.push(w);
        else w.terminate();
        resolve(r);
      };
    },
  );
  w.onmessage = (e: MessageEvent<AtlasReply>) => {
    const m = e.data;
    if (m.type === 'batch-progress')
      opts.onProgress?.({ done: m.done, total: m.total, workers: 1 });
    else if (m.type === 'batch-done') finish({ ok: true, cells: m.cells });
    else if (m.type === 'error') finish({ ok: false, error: m.error });
  };
  w.onerror = (e) => {
    e.preventDefault();
    finish({ ok: false, error: e.message || 'the atlas worker failed' });
  };
  w.postMessage({
    type: 'batch',
    scenario: s,
    depth: opts.depth ?? 1,
    ...(opts.kinds ? { kinds: opts.kinds } : {}),
  } satisfies AtlasRequest);
  return { promise, cancel: () => finish({ ok: false, error: 'cancelled' }) };
}

/**
 * What keeps the claim on the atlas's minimal counterexample (src/views/atlas/fixSuggestion.ts):
 * a few runs of the scenario with knobs of its recipe set, in an atlas worker (warm if one waits),
 * off the page's thread. Rejects with the worker's error.
 */
export function suggestFixInWorker(
  input: ScenarioInput,
  faults: readonly FaultSpec[],
): Promise<FixSuggestion | null> {
  const w = warm.pop() ?? newAtlasWorker();
  return new Promise((resolve, reject) => {
    const done = (ok: boolean) => {
      if (ok) warm.push(w);
      else w.terminate();
    };
    w.onmessage = (e: MessageEvent<AtlasReply>) => {
      const m = e.data;
      if (m.type === 'fix-done') {
        done(true);
        resolve(m.fix);
      } else if (m.type === 'error') {
        done(false);
        reject(new Error(m.error));
      }
    };
    w.onerror = (e) => {
      e.preventDefault();
      done(false);
      reject(new Error(e.message || 'the atlas worker failed'));
    };
    w.postMessage({ type: 'fix', scenario: input, faults: [...faults] } satisfies AtlasRequest);
  });
}
