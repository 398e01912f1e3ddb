/**
 * The page's side of "Run on a real PostgreSQL": one Web Worker per request (pglite.worker.ts, a
 * chunk of its own: nothing of PGlite is in the entry bundle), its progress, its result, and
 * Cancel (the worker is terminated). A worker that fails to load gives a clear error.
 */
import type { DatabaseCheck } from '../views/io/sqlOnDatabase';

/** To the worker: the view's scenario. */
export interface PgliteRequest {
  scenario: unknown;
}

/** Where the job is: downloading PGlite (bytes so far, of `total` when known), starting it, running the script. */
export type PgliteProgress =
  | { phase: 'download'; loaded: number; total: number | null }
  | { phase: 'start' }
  | { phase: 'run' };

/** From the worker. `ms`: the time the script and its comparison took in PGlite. */
export type PgliteReply =
  ({ type: 'progress' } & PgliteProgress) | { type: 'done'; result: DatabaseCheck; ms: number };

/** A running check. */
export interface DatabaseJob {
  promise: Promise<DatabaseCheck & { ms?: number }>;
  cancel(): void;
}

/** Run `scenario`'s sink script on PGlite in a new worker. */
export function runOnRealDatabase(
  scenario: unknown,
  onProgress: (p: PgliteProgress) => void,
  createWorker: () => Worker = () =>
    new Worker(new URL('./pglite.worker.ts', import.meta.url), { type: 'module' }),
): DatabaseJob {
  let worker: Worker | null = null;
  let finish: (r: DatabaseCheck & { ms?: number }) => void = () => {};
  const promise = new Promise<DatabaseCheck & { ms?: number }>((resolve) => {
    finish = (r) => {
      worker?.terminate();
      worker = null;
      resolve(r);
    };
  });
  try {
    worker = createWorker();
    worker.onmessage = (e: MessageEvent<PgliteReply>) => {
      const m = e.data;
      if (m.type === 'progress') onProgress(m);
      else finish({ ...m.result, ms: m.ms });
    };
    worker.onerror = (e) => {
      e.preventDefault();
      finish({
        ok: false,
        error: `the PostgreSQL worker failed to load${e.message ? `: ${e.message}` : ''} (its chunk and PGlite's assets are fetched from this site)`,
      });
    };
    worker.postMessage({ scenario } satisfies PgliteRequest);
  } catch (e) {
    finish({
      ok: false,
      error: `the PostgreSQL worker could not start: ${e instanceof Error ? e.message : String(e)}`,
    });
  }
  return { promise, cancel: () => finish({ ok: false, error: 'cancelled' }) };
}
