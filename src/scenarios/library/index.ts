/**
 * The scenario library: real failures, each told as a story and pinned to its exact outcome.
 *
 * Every preset reproduces a worked scenario of docs/semantics/scenarios.md (S-number in the comment above it,
 * with every expected number derived by hand) or an incident scaled to a few hundred records.
 * Conventions shared by all of them:
 * - `claim` is what the people in the story needed: each business event to take effect once
 *   ('exactly-once'). The verdict's `held` therefore says whether this configuration met that
 *   need, and `observed` what it actually gave.
 * - `expect.rows` lists every event whose count is not 1, plus a few neighbours that are 1. With
 *   `totals.duplicates` and `totals.lost` also pinned, that fixes every other event at exactly 1.
 * - The first variant is the one a bare preset id opens; variants follow the table order.
 */
import type { Preset } from '../types';
import { brokerPresets } from './broker';
import { consumerPresets } from './consumer';
import { contentKeyPresets } from './contentKey';
import { lostAckRetryPresets } from './lostAckRetry';
import { processorPresets } from './processor';
import { producerPresets } from './producer';
import { sideEffectPresets } from './sideEffect';
import { sinkPresets } from './sink';
import { streamDedupePresets } from './streamDedupe';
import { structuredStreamingPresets } from './structuredStreaming';

export { LIBRARY_GROUPS, groupPresets, searchPresets, spelledOut } from './groups';
export type { LibraryGroup } from './groups';
export { SOURCES, sourceTitle } from './sources';

/** The library's presets in the order (ids are part of the contract). */
export const libraryPresets: readonly Preset[] = [
  lostAckRetryPresets.lostAckRetry,
  producerPresets.acks0DroppedRequest,
  producerPresets.paymentResentByApp,
  processorPresets.flinkCheckpointReplay,
  processorPresets.flinkCommitPhaseCrash,
  brokerPresets.abortedTransactionDirtyRead,
  consumerPresets.commitBeforeProcess,
  consumerPresets.commitAfterProcess,
  consumerPresets.consumeTransformProduce,
  structuredStreamingPresets.sparkBatchReplay,
  sinkPresets.pipelineGeneratedIds,
  sinkPresets.mergeDuplicateSource,
  sideEffectPresets.cardChargeIdempotency,
  producerPresets.retryStorm,
  consumerPresets.autoCommitCrash,
  consumerPresets.rebalanceMidflight,
  consumerPresets.pollTimeoutSlowBatch,
  consumerPresets.zombieConsumer,
  streamDedupePresets.sparkWatermarkDedupe,
  streamDedupePresets.flinkDedupeTtl,
  streamDedupePresets.rawCleanLayer,
  streamDedupePresets.sparkCheckpointResetTxnAppId,
  contentKeyPresets.contentKeyOnConflict,
];
