/**
 * What the calls of `runTrials` over one atlas's trials share (./explore.ts): the page's workers
 * run an atlas chunk by chunk (src/views/atlas/atlasJob.ts, about eight chunks each), and what a
 * call would otherwise build anew is built once per worker — the workload's event columns, and
 * the rejoin test's record (./rejoin.ts), so that the test is given up once for the atlas where
 * hardly any trial rejoins (a Flink job's) instead of costing its 32 tested trials in every chunk.
 * Only the time changes: each trial's result is its own, whatever the chunks.
 */
import type { Scenario } from '../scenario/schema';
import { buildEvents, type Events } from '../scenario/workload';
import { newRejoinRecord, type RejoinRecord } from './rejoin';

/** The shared part of the trials of scenario `scenario`'s atlas. */
export interface TrialSession {
  readonly scenario: Scenario;
  /** `buildEvents(scenario.workload, scenario.seed)`, outside any pool. */
  readonly events: Events;
  readonly rejoin: RejoinRecord;
}

/** A session for the trials of `s`'s atlas (build it outside the trials' buffer pool). */
export function trialSession(s: Scenario): TrialSession {
  return { scenario: s, events: buildEvents(s.workload, s.seed), rejoin: newRejoinRecord() };
}
