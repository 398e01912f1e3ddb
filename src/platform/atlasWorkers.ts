/**
 * The fault atlas in the page: one Web Worker per core (navigator.hardwareConcurrency), from the
 * same engine build as the run worker. The first plans (the scenario's run and its placements);
 * then each runs a contiguous slice of the trials, and the results are assembled in slice order —
 * the atlas is identical for any worker count (src/views/atlas/atlasJob.ts). Cancel terminates
 * every worker: nothing of the page changes.
 */
import type { Atlas, PlacementKind, Scenario, TrialResult } from '../engine';
import type { AtlasPlan } from '../views/atlas/atlasJob';
import type * as AtlasJobModule from '../views/atlas/atlasJob';

/** Messages to an atlas worker. */
export type AtlasRequest =
  | { type: 'plan'; scenario: Scenario; depth: 1 | 2; kinds: readonly PlacementKind[] }
  | { type: 'slice'; scenario: Scenario; plan: AtlasPlan; from: number; to: number };

/** Messages from an atlas worker. */
export type AtlasReply =
  | { type: 'plan'; plan: AtlasPlan | { refused: string } }
  | { type: 'progress'; done: number }
  | { type: 'done'; results: TrialResult[] }
  | { type: 'error'; error: string };

/** Progress of an atlas: trials run of all. */
export interface AtlasProgress {
  done: number;
  total: number;
  workers: number;
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
  /** Makes a worker; default: the bundled atlas.worker.ts. */
  createWorker?: () => Worker;
}

/** The atlas code, a lazy chunk: the page's entry script does not carry the engine. */
const loadJob = (): Promise<typeof AtlasJobModule> => import('../views/atlas/atlasJob');

/** The workers the page uses by default: one per core. */
function defaultWorkerCount(): number {
  const n = typeof navigator !== 'undefined' ? navigator.hardwareConcurrency : 1;
  return Math.max(1, Math.min(16, Number.isFinite(n) && n > 0 ? Math.floor(n) : 1));
}

/** Run the atlas of `s` (validated, defaults applied) in Web Workers. */
export function runAtlasInWorkers(s: Scenario, opts: AtlasWorkersOptions = {}): AtlasJob {
  const make =
    opts.createWorker ??
    (() => new Worker(new URL('./atlas.worker.ts', import.meta.url), { type: 'module' }));
  const wanted = Math.max(1, Math.floor(opts.workers ?? defaultWorkerCount()));
  const depth = opts.depth ?? 1;
  const workers: Worker[] = [];
  let settled = false;
  let finish: (r: AtlasResult) => void = () => {};
  const stop = () => {
    for (const w of workers) w.terminate();
    workers.length = 0;
  };
  const promise = new Promise<AtlasResult>((resolve) => {
    finish = (r) => {
      if (settled) return;
      settled = true;
      stop();
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
    workers.push(make());
    const planned = await ask(workers[0]!, { type: 'plan', scenario: s, depth, kinds });
    if (settled) return;
    if (planned.type === 'error') return finish({ ok: false, error: planned.error });
    if (planned.type !== 'plan') return;
    if ('refused' in planned.plan) return finish({ ok: false, error: planned.plan.refused });
    const plan = planned.plan;
    const slices = job.trialSlices(plan.trials, wanted);
    while (workers.length < slices.length) workers.push(make());
    const done = slices.map(() => 0);
    const report = () =>
      opts.onProgress?.({
        done: done.reduce((a, b) => a + b, 0),
        total: plan.trials,
        workers: slices.length,
      });
    report();
    const replies = await Promise.all(
      slices.map((sl, i) =>
        ask(workers[i]!, { type: 'slice', scenario: s, plan, ...sl }, (d) => {
          done[i] = d;
          report();
        }),
      ),
    );
    if (settled) return;
    const results: TrialResult[][] = [];
    for (const r of replies) {
      if (r.type === 'error') return finish({ ok: false, error: r.error });
      if (r.type === 'done') results.push(r.results);
    }
    finish({ ok: true, atlas: job.assembleSlices(s, plan, results), workers: slices.length });
  };
  go().catch((e: unknown) =>
    finish({ ok: false, error: e instanceof Error ? e.message : String(e) }),
  );
  return { promise, cancel: () => finish({ ok: false, error: 'cancelled' }) };
}
