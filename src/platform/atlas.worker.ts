/// <reference lib="webworker" />
/**
 * An atlas worker: plans the fault atlas of a scenario, or takes an atlas job (the scenario and
 * its plan, sent once) and runs chunks of its trials (see src/views/atlas/atlasJob.ts). The
 * client keeps its workers warm from one atlas to the next and cancels by terminating them.
 */
import type { Scenario, TrialSession } from '../engine';
import { batchAtlasOf } from '../views/batch/batchAtlas';
import { BufferPool } from '../views/run/computeRun';
import { planAtlas, runAtlasSlice, trialSession, type AtlasPlan } from '../views/atlas/atlasJob';
import { atlasWarmUp } from '../views/atlas/atlasWarmUp';
import type { AtlasReply, AtlasRequest } from './atlasWorkers';

const scope = self as unknown as DedicatedWorkerGlobalScope;
/** Memory each run gives back to the next (an atlas is hundreds of small runs). */
const pool = new BufferPool();
/**
 * Progress is posted at most this often (ms of real time): the page redraws its bar at most every
 * 250 ms (src/platform/atlasWorkers.ts), from the news of every worker, so no worker posts more.
 */
const PROGRESS_EVERY_MS = 250;
/**
 * The atlas whose chunks this worker runs: sent once, not with every chunk; its chunks share a
 * trial session (src/engine/atlas/session.ts).
 */
let job: { scenario: Scenario; plan: AtlasPlan; session: TrialSession } | null = null;
/**
 * The warm-up under way (src/views/atlas/atlasWarmUp.ts): one step per task, so that any other
 * request — an atlas's, or 'rest' — is read between two steps and ends it.
 */
let warming: { step(): boolean; until: number } | null = null;

function warmStep(w: NonNullable<typeof warming>): void {
  if (warming !== w) return;
  try {
    if (w.step() && performance.now() < w.until) setTimeout(() => warmStep(w), 0);
    else warming = null;
  } catch {
    // A warm-up's failure changes nothing: the atlas, if asked, reports its own.
    warming = null;
  }
}

scope.onmessage = (e: MessageEvent<AtlasRequest>) => {
  const m = e.data;
  const post = (r: AtlasReply) => scope.postMessage(r);
  warming = null;
  try {
    if (m.type === 'warm') {
      warming = { ...atlasWarmUp(m.scenario, pool), until: performance.now() + m.budgetMs };
      const w = warming;
      setTimeout(() => warmStep(w), 0);
      return;
    }
    if (m.type === 'rest') return;
    if (m.type === 'fix') {
      // Loaded on the first question: the recipes and their schema are no atlas's load.
      void import('../views/atlas/fixSuggestion')
        .then(({ suggestFix }) => post({ type: 'fix-done', fix: suggestFix(m.scenario, m.faults) }))
        .catch((err: unknown) =>
          post({ type: 'error', error: err instanceof Error ? err.message : String(err) }),
        );
      return;
    }
    if (m.type === 'plan') {
      post({ type: 'plan', plan: planAtlas(m.scenario, m.depth, m.kinds, pool) });
      return;
    }
    if (m.type === 'batch') {
      // A batch job's atlas, whole (src/platform/atlasWorkers.ts runBatchAtlasInWorker).
      let last = 0;
      const cells = batchAtlasOf(
        m.scenario,
        (done, total) => {
          const now = performance.now();
          if (done < total && now - last < PROGRESS_EVERY_MS) return;
          last = now;
          post({ type: 'batch-progress', done, total });
        },
        m.depth,
        m.kinds,
      );
      post({ type: 'batch-done', cells });
      return;
    }
    if (m.type === 'job') {
      job = { scenario: m.scenario, plan: m.plan, session: trialSession(m.scenario) };
      return;
    }
    if (!job) throw new Error('an atlas chunk came before its job');
    let last = 0;
    const results = runAtlasSlice(job.scenario, job.plan, m.from, m.to, {
      pool,
      session: job.session,
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
