/**
 * The fault atlas on worker threads, for the command line (`--explore`, `check`'s atlas pins,
 * `from-config`'s atlas): the page's plan and chunks (src/views/atlas/atlasJob.ts) on a thread
 * per core, the same atlas for any number of them (each trial's result is its own; the chunks are
 * put back in order). Synchronous for its caller, as the runner is: the main thread sleeps on the
 * shared counter (`Atomics.wait`) and takes the workers' results from their ports
 * (`receiveMessageOnPort`, https://nodejs.org/api/worker_threads.html#workerreceivemessageonportport),
 * without its event loop.
 */
import { MessageChannel, receiveMessageOnPort, Worker } from 'node:worker_threads';
import type { MessagePort } from 'node:worker_threads';
import type { Scenario, TrialResult } from '../engine';
import { trialChunks, type AtlasPlan } from '../views/atlas/atlasJob';
import { CONTROL, CONTROL_WORDS, type ThreadReply } from './atlasThreadControl';
import type { AtlasThreadData } from './atlasThread';

/** Fewer trials than this run on the calling thread: a worker's start costs more (0.1–1 s). */
export const THREADED_FROM = 256;
/** How often the waiting main thread wakes to update the progress line (ms). */
const PROGRESS_EVERY_MS = 100;

/**
 * A worker's first code (CommonJS, `eval`): the executable's module, which serves the atlas when
 * it is not the main thread (src/cli/bin.ts) — from source through tsx's loader, registered here
 * since a worker does not inherit it. A failure to load is said on the port as a chunk's would be.
 */
const BOOT = `const { workerData } = require('node:worker_threads');
(async () => {
  if (workerData.tsx) (await import(workerData.tsx)).register();
  await import(workerData.entry);
})().catch((e) => {
  workerData.port.postMessage({ error: String((e && e.stack) || e) });
  const c = new Int32Array(workerData.control);
  Atomics.store(c, ${CONTROL.failed}, 1);
  Atomics.notify(c, ${CONTROL.chunksDone});
});`;

/**
 * The plan's trials run on `threads` worker threads loading `entry`; their results in trial order.
 * Throws if a worker fails (with its error).
 */
export function runTrialsInThreads(
  s: Scenario,
  plan: AtlasPlan,
  entry: string,
  threads: number,
  onProgress?: (done: number, total: number) => void,
): TrialResult[][] {
  const chunks = trialChunks(plan.trials, threads);
  const control = new SharedArrayBuffer(CONTROL_WORDS * Int32Array.BYTES_PER_ELEMENT);
  const c = new Int32Array(control);
  // From source (tsx), each worker registers tsx's loader before it imports the executable.
  const tsx = entry.endsWith('.ts') ? import.meta.resolve('tsx/esm/api') : null;
  const workers: Worker[] = [];
  const ports: MessagePort[] = [];
  for (let i = 0; i < Math.min(threads, chunks.length); i++) {
    const { port1, port2 } = new MessageChannel();
    const data: AtlasThreadData & { entry: string; tsx: string | null } = {
      scenario: s,
      plan,
      chunks,
      control,
      port: port2,
      entry,
      tsx,
    };
    workers.push(new Worker(BOOT, { eval: true, workerData: data, transferList: [port2] }));
    ports.push(port1);
  }
  const slices: TrialResult[][] = new Array(chunks.length);
  let received = 0;
  let error: string | null = null;
  const take = () => {
    for (const p of ports)
      for (let m = receiveMessageOnPort(p); m; m = receiveMessageOnPort(p)) {
        const r = m.message as ThreadReply;
        if ('error' in r) error ??= r.error;
        else {
          slices[r.chunk] = r.results;
          received++;
        }
      }
  };
  try {
    while (received < chunks.length && error === null) {
      // A worker posts a chunk's results before it counts them: counted, they are on the port.
      const counted = Atomics.load(c, CONTROL.chunksDone);
      if (received >= counted && Atomics.load(c, CONTROL.failed) === 0)
        Atomics.wait(c, CONTROL.chunksDone, counted, PROGRESS_EVERY_MS);
      take();
      onProgress?.(Math.min(Atomics.load(c, CONTROL.trialsDone), plan.trials), plan.trials);
    }
  } finally {
    // The others stop at their next chunk; a finished worker has nothing left to run.
    Atomics.store(c, CONTROL.failed, 1);
    for (const w of workers) void w.terminate();
    for (const p of ports) p.close();
  }
  if (error !== null) throw new Error(`a worker thread of the atlas failed: ${error}`);
  return slices;
}
