/// <reference lib="webworker" />
/**
 * An atlas worker: plans the fault atlas of a scenario, or runs one slice of its trials (see
 * src/views/atlas/atlasJob.ts). The client runs one per core and cancels by terminating them.
 */
import { BufferPool } from '../views/run/computeRun';
import { planAtlas, runAtlasSlice } from '../views/atlas/atlasJob';
import type { AtlasReply, AtlasRequest } from './atlasWorkers';

const scope = self as unknown as DedicatedWorkerGlobalScope;
/** Memory each run gives back to the next (an atlas is hundreds of small runs). */
const pool = new BufferPool();
/** Progress is posted at most this often (ms of real time): the page redraws its bar, no more. */
const PROGRESS_EVERY_MS = 50;

scope.onmessage = (e: MessageEvent<AtlasRequest>) => {
  const m = e.data;
  const post = (r: AtlasReply) => scope.postMessage(r);
  try {
    if (m.type === 'plan') {
      post({ type: 'plan', plan: planAtlas(m.scenario, m.depth, m.kinds, pool) });
      return;
    }
    let last = 0;
    const results = runAtlasSlice(m.scenario, m.plan, m.from, m.to, {
      pool,
      onProgress: (done, total) => {
        const now = performance.now();
        if (done < total && now - last < PROGRESS_EVERY_MS) return;
        last = now;
        post({ type: 'progress', done });
      },
    });
    post({ type: 'done', results });
  } catch (err) {
    post({ type: 'error', error: err instanceof Error ? err.message : String(err) });
  }
};
