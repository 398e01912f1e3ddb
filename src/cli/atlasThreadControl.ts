/**
 * What the fault atlas's main thread and its worker threads share (./atlasThreads.ts,
 * ./atlasThread.ts): the words of their control array, and what a worker posts.
 */
import type { TrialResult } from '../engine';

/** Indexes into the shared Int32Array. */
export const CONTROL = {
  /** The next chunk a worker takes. */
  next: 0,
  /** Chunks whose results are posted: the main thread waits on it. */
  chunksDone: 1,
  /** Trials run so far, over all workers (the progress line). */
  trialsDone: 2,
  /** Non-zero once a worker failed: the others stop, the main thread says why. */
  failed: 3,
} as const;

export const CONTROL_WORDS = 4;

/** A worker's message: a chunk's results, or why it stopped. */
export type ThreadReply = { chunk: number; results: TrialResult[] } | { error: string };
