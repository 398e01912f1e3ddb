/**
 * A worker thread of the fault atlas (./atlasThreads.ts): takes the atlas's chunks one after
 * another from the shared counter, runs each (src/views/atlas/atlasJob.ts, as the page's workers
 * do) and posts its results on its port, counting what is done where the waiting main thread reads it.
 */
import { workerData } from 'node:worker_threads';
import type { MessagePort } from 'node:worker_threads';
import { BufferPool, type Scenario } from '../engine';
import { runAtlasSlice, trialSession, type AtlasPlan } from '../views/atlas/atlasJob';
import { CONTROL, type ThreadReply } from './atlasThreadControl';

/** What the main thread gives each worker (structured-cloned; the port transferred). */
export interface AtlasThreadData {
  scenario: Scenario;
  plan: AtlasPlan;
  chunks: readonly { from: number; to: number }[];
  control: SharedArrayBuffer;
  port: MessagePort;
}

/** Run chunks until none is left, or one fails (said on the port, and in the control words). */
export function serveAtlasThread(): void {
  const { scenario, plan, chunks, control, port } = workerData as AtlasThreadData;
  const c = new Int32Array(control);
  const post = (r: ThreadReply) => port.postMessage(r);
  try {
    const pool = new BufferPool();
    const session = trialSession(scenario);
    for (;;) {
      const i = Atomics.add(c, CONTROL.next, 1);
      if (i >= chunks.length || Atomics.load(c, CONTROL.failed) !== 0) break;
      let counted = 0;
      const results = runAtlasSlice(scenario, plan, chunks[i]!.from, chunks[i]!.to, {
        pool,
        session,
        onProgress: (done) => {
          Atomics.add(c, CONTROL.trialsDone, done - counted);
          counted = done;
        },
      });
      post({ chunk: i, results });
      Atomics.add(c, CONTROL.chunksDone, 1);
      Atomics.notify(c, CONTROL.chunksDone);
    }
  } catch (e) {
    post({ error: e instanceof Error ? (e.stack ?? e.message) : String(e) });
    Atomics.store(c, CONTROL.failed, 1);
    Atomics.notify(c, CONTROL.chunksDone);
  } finally {
    port.close();
  }
}
