/// <reference lib="webworker" />
/**
 * The run worker: scenario in, RunView out (transferred, not copied). One job at a time; the
 * client cancels a job by terminating the worker. A second instance serves an artifact client
 * (diagram texts, export files: `artifact` requests), keeping its last run.
 */
import { explain } from '../views/run/explainer';
import { BufferPool, computeRunViewLazily } from '../views/run/runScenario';
import { computeArtifact, runCache } from '../views/io/exportArtifact';
import { runViewTransferables } from '../views/run/runView';
import type { WorkerReply, WorkerRequest } from './runClient';

const scope = self as unknown as DedicatedWorkerGlobalScope;

/** The artifact worker's last run (an artifact client asks several things of one run). */
const cache = runCache();

/**
 * Memory one run gives back to the next (see BufferPool): a user re-running a large scenario
 * does not wait for fresh pages again. Each view is posted before the next job starts.
 */
const pool = new BufferPool();

scope.onmessage = async (e: MessageEvent<WorkerRequest>) => {
  const { id, input } = e.data;
  const post = (m: WorkerReply, transfer: Transferable[] = []) => scope.postMessage(m, transfer);
  if (e.data.artifact !== undefined) {
    const { artifact, options } = e.data;
    post({ id, type: 'artifact', result: computeArtifact(input, artifact, cache, options) });
    return;
  }
  // One run job at a time (the client terminates the worker to cancel one), so awaiting the
  // validation (zod imported on first need, or a preset's parsed module) keeps runs in order.
  // The worker runs the big scenarios, for the lab's page or an embed: always explained.
  const result = await computeRunViewLazily(
    input,
    (phase) => post({ id, type: 'progress', phase }),
    pool,
    explain,
  );
  if (result.ok) {
    post({ id, type: 'progress', phase: 'transferring' });
    post({ id, type: 'done', result }, runViewTransferables(result.view));
  } else post({ id, type: 'done', result });
};
