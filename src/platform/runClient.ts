/**
 * The run client: turns a scenario into a RunView, off the main thread when the run is big.
 *
 * - Small scenarios (≤ `inlineMaxEvents` events) run inline: a few milliseconds, and the first
 *   verdict is on screen without waiting for a worker to boot. The simulation is a lazy chunk
 *   (views/run/runScenario.ts, an untouched preset validated without zod, see ./simulationChunk.ts), fetched as the page starts, so the page's entry script does not
 *   carry the engine's actors twice (the worker has its own copy).
 * - Bigger ones run in a Web Worker (src/platform/run.worker.ts); the result's buffers are
 *   transferred, not copied. Progress is reported by phase (the engine runs synchronously, so
 *   within the simulation there is no percentage — see the report's engine request) and the job
 *   can be cancelled: the worker is terminated and a fresh one starts with the next job.
 * - Results are cached per scenario key (its canonical JSON), bounded by total trace entries.
 */
import type { ScenarioInput } from '../engine';
import { scenarioKey, scenarioSize, type ComputeResult } from '../views/run/compute';
import type {
  ArtifactKind,
  ArtifactOptions,
  ArtifactResult,
  RunCache,
} from '../views/io/exportArtifact';
import type { RunView } from '../views/run/runView';
import { loadSimulation as loadCompute } from './simulationChunk';

/** The cache key of a view without its explanations (beside the scenario key of an explained one). */
const UNEXPLAINED = '/unexplained';

/** The engine's explanations (src/views/run/explainer.ts), a chunk of their own. */
function loadExplain() {
  return import('../views/run/explainer').then((m) => m.explain);
}

/** Progress of a run job. */
export interface RunProgress {
  phase: 'queued' | 'simulating' | 'deriving' | 'transferring';
  /** Events in the workload (the size that sent it to the worker). */
  events: number;
  inWorker: boolean;
}

/** A job: its result, and a way to stop it. */
export interface RunJob {
  /** Resolves with the result; a cancelled job resolves with `{ ok: false, error: 'cancelled' }`. */
  promise: Promise<ComputeResult & { cached?: boolean; key: string }>;
  cancel(): void;
}

/** What the store needs from the run client (injected, so tests pass a synchronous one). */
export interface RunClient {
  /**
   * @param options.explain - false: the verdict without its explanations (`unexplained`), the
   *   explaining code not loaded for it (an embed until it shows a "why", issue 31). Default true.
   */
  run(
    input: ScenarioInput,
    onProgress?: (p: RunProgress) => void,
    options?: { explain?: boolean },
  ): RunJob;
  dispose(): void;
}

/** Messages to the worker: a run, or (to the artifact worker) an artifact of a run. */
export type WorkerRequest =
  | { id: number; input: unknown; artifact?: undefined }
  | { id: number; input: unknown; artifact: ArtifactKind; options?: ArtifactOptions };

/** Messages from the worker. */
export type WorkerReply =
  | { id: number; type: 'progress'; phase: 'simulating' | 'deriving' | 'transferring' }
  | { id: number; type: 'done'; result: ComputeResult }
  | { id: number; type: 'artifact'; result: ArtifactResult };

/** Options of {@link createRunClient}. */
export interface RunClientOptions {
  /** Scenarios with at most this many events run on the main thread. Default 3,000. */
  inlineMaxEvents?: number;
  /** Total trace entries kept in the cache. Default 3 million (≈ 150 MB of views). */
  cacheMaxEntries?: number;
  /** Makes the worker; default: the bundled run.worker.ts. Null: no worker (everything inline). */
  createWorker?: (() => Worker) | null;
}

/**
 * Create a run client.
 * @returns a {@link RunClient}; call `dispose()` to terminate its worker.
 */
export function createRunClient(opts: RunClientOptions = {}): RunClient {
  const inlineMax = opts.inlineMaxEvents ?? 3000;
  const cacheMax = opts.cacheMaxEntries ?? 3_000_000;
  const makeWorker =
    opts.createWorker === undefined
      ? () => new Worker(new URL('./run.worker.ts', import.meta.url), { type: 'module' })
      : opts.createWorker;
  const cache = new Map<string, RunView>();
  let worker: Worker | null = null;
  let nextId = 1;
  let current: { id: number; finish: (r: ComputeResult) => void } | null = null;

  const remember = (key: string, view: RunView) => {
    cache.delete(key);
    cache.set(key, view);
    let total = 0;
    for (const v of cache.values()) total += v.n;
    // Evict least recently used views until the cache fits (the newest always stays).
    for (const [k, v] of cache) {
      if (total <= cacheMax || cache.size <= 1) break;
      cache.delete(k);
      total -= v.n;
    }
  };

  const ensureWorker = (): Worker => {
    if (worker) return worker;
    const w = makeWorker!();
    w.onmessage = (e: MessageEvent<WorkerReply>) => {
      const m = e.data;
      if (!current || m.id !== current.id) return;
      if (m.type === 'done') current.finish(m.result);
      else if (m.type === 'progress') progressOf.get(m.id)?.(m.phase);
    };
    w.onerror = (e) => {
      e.preventDefault();
      current?.finish({ ok: false, error: e.message || 'the run worker failed' });
      w.terminate();
      if (worker === w) worker = null;
    };
    worker = w;
    return w;
  };
  const progressOf = new Map<number, (phase: RunProgress['phase']) => void>();

  return {
    run(input, onProgress = () => {}, { explain = true } = {}) {
      const key = scenarioKey(input);
      // An explained view serves a run that does without; an unexplained one is kept apart.
      const hit = cache.get(key) ?? (explain ? undefined : cache.get(key + UNEXPLAINED));
      if (hit) {
        remember(key, hit);
        return {
          promise: Promise.resolve({ ok: true as const, view: hit, cached: true, key }),
          cancel() {},
        };
      }
      const events = scenarioSize(input);
      if (events <= inlineMax || makeWorker === null) {
        let cancelled = false;
        // The explanations' chunk downloads beside the simulation's, not after it.
        const promise = Promise.all([loadCompute(), explain ? loadExplain() : null])
          .then(async ([{ computeRunViewLazily }, explainer]) => {
            if (cancelled) return { ok: false as const, error: 'cancelled', key };
            const r = await computeRunViewLazily(
              input,
              (phase) => onProgress({ phase, events, inWorker: false }),
              undefined,
              explainer,
            );
            if (r.ok) remember(explain ? key : key + UNEXPLAINED, r.view);
            return { ...r, key };
          })
          // The simulation's chunk, or the validation it imports (zod, a preset's parsed module).
          .catch((e: unknown) => ({
            ok: false as const,
            error: `could not load the simulation: ${e instanceof Error ? e.message : String(e)}`,
            key,
          }));
        return { promise, cancel: () => void (cancelled = true) };
      }
      // One worker job at a time: a new job supersedes (and cancels) the running one.
      if (current) {
        worker?.terminate();
        worker = null;
        current.finish({ ok: false, error: 'cancelled' });
      }
      const id = nextId++;
      onProgress({ phase: 'queued', events, inWorker: true });
      progressOf.set(id, (phase) => onProgress({ phase, events, inWorker: true }));
      const promise = new Promise<ComputeResult & { key: string }>((resolve) => {
        current = {
          id,
          finish: (r) => {
            if (current?.id === id) current = null;
            progressOf.delete(id);
            if (r.ok) remember(key, r.view);
            resolve({ ...r, key });
          },
        };
        ensureWorker().postMessage({ id, input } satisfies WorkerRequest);
      });
      return {
        promise,
        cancel() {
          if (current?.id !== id) return;
          worker?.terminate();
          worker = null;
          current.finish({ ok: false, error: 'cancelled' });
        },
      };
    },
    dispose() {
      worker?.terminate();
      worker = null;
      cache.clear();
    },
  };
}

// ─────────────────────────────────────────────────────────────────────────── artifacts

/** Diagrams and export files of runs (see src/views/io/exportArtifact.ts). */
export interface ArtifactClient {
  /**
   * One artifact of the run of `input` (pass the view's scenario: the run on screen). Never
   * rejects. Requests are answered in order, one at a time.
   */
  get(input: unknown, kind: ArtifactKind, options?: ArtifactOptions): Promise<ArtifactResult>;
  dispose(): void;
}

/**
 * Create an artifact client. Small scenarios are simulated again inline (milliseconds); bigger
 * ones in a worker of their own — not the run worker: cancelling a run terminates that one, and an
 * export must neither die with it nor hold up the next run. Each side keeps its last run, so the
 * several artifacts of one run cost one simulation.
 */
export function createArtifactClient(
  opts: Pick<RunClientOptions, 'inlineMaxEvents' | 'createWorker'> = {},
): ArtifactClient {
  const inlineMax = opts.inlineMaxEvents ?? 3000;
  const makeWorker =
    opts.createWorker === undefined
      ? () => new Worker(new URL('./run.worker.ts', import.meta.url), { type: 'module' })
      : opts.createWorker;
  // The text generators (diagrams, CSV, Markdown) are a lazy chunk: the first diagram or export
  // fetches them, the page's first paint does not wait for them.
  const cache: RunCache = { key: null, run: null };
  let worker: Worker | null = null;
  let nextId = 1;
  const waiting = new Map<number, (r: ArtifactResult) => void>();
  // One at a time, in order: the worker handles messages in order anyway; inline jobs join the
  // same queue so a quick request never overtakes a slow one it depends on.
  let queue: Promise<unknown> = Promise.resolve();

  const failAll = (error: string) => {
    for (const finish of waiting.values()) finish({ ok: false, error });
    waiting.clear();
  };
  const ensureWorker = (): Worker => {
    if (worker) return worker;
    const w = makeWorker!();
    w.onmessage = (e: MessageEvent<WorkerReply>) => {
      const m = e.data;
      if (m.type !== 'artifact') return;
      const finish = waiting.get(m.id);
      waiting.delete(m.id);
      finish?.(m.result);
    };
    w.onerror = (e) => {
      e.preventDefault();
      w.terminate();
      if (worker === w) worker = null;
      failAll(e.message || 'the artifact worker failed');
    };
    worker = w;
    return w;
  };

  return {
    get(input, kind, options) {
      const job = queue.then((): Promise<ArtifactResult> | ArtifactResult => {
        if (scenarioSize(input) <= inlineMax || makeWorker === null)
          return import('../views/io/exportArtifact').then(
            (m) => m.computeArtifact(input, kind, cache, options),
            (e: unknown) => ({ ok: false as const, error: `could not load: ${String(e)}` }),
          );
        const id = nextId++;
        return new Promise<ArtifactResult>((resolve) => {
          waiting.set(id, resolve);
          try {
            ensureWorker().postMessage({
              id,
              input,
              artifact: kind,
              ...(options ? { options } : {}),
            } satisfies WorkerRequest);
          } catch (e) {
            waiting.delete(id);
            resolve({ ok: false, error: e instanceof Error ? e.message : String(e) });
          }
        });
      });
      queue = job.catch(() => undefined);
      return job;
    },
    dispose() {
      worker?.terminate();
      worker = null;
      failAll('disposed');
      cache.key = null;
      cache.run = null;
    },
  };
}
