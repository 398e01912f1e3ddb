/// <reference lib="webworker" />
/**
 * The run worker: scenario in, RunView out (transferred, not copied). One job at a time; the
 * client cancels a job by terminating the worker.
 */
import { computeRunView } from '../views/compute';
import { runViewTransferables } from '../views/runView';
import type { WorkerReply, WorkerRequest } from './runClient';

const scope = self as unknown as DedicatedWorkerGlobalScope;

scope.onmessage = (e: MessageEvent<WorkerRequest>) => {
  const { id, input } = e.data;
  const post = (m: WorkerReply, transfer: Transferable[] = []) => scope.postMessage(m, transfer);
  const result = computeRunView(input, (phase) => post({ id, type: 'progress', phase }));
  if (result.ok) {
    post({ id, type: 'progress', phase: 'transferring' });
    post({ id, type: 'done', result }, runViewTransferables(result.view));
  } else post({ id, type: 'done', result });
};
