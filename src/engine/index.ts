/**
 * Delivery Lab's engine: a deterministic, in-memory simulation of a data pipeline.
 *
 * `simulate(scenario) → run` is a pure function: the same scenario (and seed) gives the same trace,
 * byte for byte, in Node, a Web Worker or the page. Everything above the engine — the dashboard,
 * the CLI, share links, tests — replays scenarios through this entry point.
 *
 * @packageDocumentation
 */
export { simulate, defaultStopAt } from './simulate';
export { BufferPool } from './core/pool';
export { traceLimitWords } from './cutoff';
export { stuckLine, stuckWords } from './stuck';
export type { Stuck } from './stuck';
export type { Run, RunState, SimulateOptions } from './simulate';
export { check, fateOf, observedGuarantee, holds, primaryPoint } from './checker';
export { preexistingRows } from './scenario/initialRows';
export type { Verdict, Point, Totals, Fate } from './checker';
export { explain } from './explain';
export { describeFault, whyNeverFires, ordinal } from './faultWords';
export { faultsNeverFired, type UnfiredFault } from './neverFired';
export { groupDigits } from './groupDigits';
export type { Explanation } from './explain';
export { TraceIndex } from './explain/traceIndex';
export { flinkFailedForGood, failedForGoodSentence } from './explain/flink';
export {
  Trace,
  TRACE_COLUMNS,
  ENTRY_KINDS,
  MESSAGE_TYPES,
  KIND_CODE,
  ERROR_CODES,
  SEND_CAUSES,
  SKIP_REASONS,
  TXN_STATES,
  CHECKPOINT_STEPS,
  TXN_API,
  failoverCause,
  fencedExit,
  firstIdleCheckpoint,
  TXN_REASON_REQUESTED,
  TXN_REASON_TIMEOUT,
  TXN_REASON_FENCED,
  STATE_BYTES_PER_KEY,
  END_SETTLED,
  END_STOP,
  END_TRACE_LIMIT,
} from './trace';
export type {
  TraceEntry,
  TraceColumns,
  EntryKind,
  MessageType,
  ErrorCode,
  SendCause,
  SkipReason,
  TxnState,
  CheckpointStep,
} from './trace';
export {
  ScenarioSchema,
  FaultSchema,
  ProducerSchema,
  BrokerSchema,
  ProcessorSchema,
  SinkSchema,
  ReaderSchema,
  ExpectSchema,
  GuaranteeSchema,
  outputTransactionTimeoutMs,
  seedDraws,
  flinkRestartStrategy,
  FLINK_KAFKA_SINK_TRANSACTION_TIMEOUT_MS,
  KAFKA_TRANSACTION_MAX_TIMEOUT_MS,
  PACE_MAX,
  PACE_MIN,
} from './scenario/schema';
export type * from './scenario/schema';
export {
  parseScenario,
  parseScenarioJson,
  readJsonText,
  schemaIssues,
  REPORT_INPUT,
  formatIssues,
  issueLines,
  normalizeAcks,
  targetsOf,
  MAX_JSON_CHARS,
  withBatchWorkload,
} from './scenario/validate';
export type { Issue, ParseResult } from './scenario/validate';
export { keysAt } from './scenario/schemaKeys';
export { migrate, migrateFormat, CURRENT_VERSION } from './scenario/migrate';
export type { Step as MigrationStep, VersionedFormat } from './scenario/migrate';
export { clipEcho, echoValue, notOneOf, numberWords, ECHO_MAX } from './scenario/echo';
export { LIMITS } from './scenario/limits';
export { buildEvents } from './scenario/workload';
export type { Events } from './scenario/workload';
export { effectiveIdempotence } from './scenario/validate';
export { atlasKindIssues } from './scenario/semanticIssues';
export { traceHash, hashTraceData, traceBytes, traceBytesOf, traceBytePartsOf } from './hash';
export { compareExpect } from './expect';
export type { ExpectMismatch } from './expect';
export { createRng, hashString32 } from './core/rng';
export type { Rng } from './core/rng';
export { partitionForKey, murmur2 } from './core/murmur2';
export { Opportunities } from './opportunities';
export { sinkWriteLabel, sqlShape } from './sinks/statementWords';
export { columnNamesWords } from './sinks/keyColumns';
export { MESSAGE_LINK, faultActsOn, messageFaultKinds, messageMatchCount } from './faultLink';
export type { MessageMatch } from './faultLink';
export type { PointReached } from './opportunities';
export { CRASH_POINT_WORDS } from './faultWords';
export { enumeratePlacements, PLACEMENT_KINDS } from './atlas/placements';
export type { Placement, PlacementKind } from './atlas/placements';
export {
  explore,
  firstRun,
  classify,
  runTrials,
  runTrial,
  trialIndices,
  trialSlices,
  assembleAtlas,
  trialFaults,
  pairsOf,
  withFaults,
  forkMoment,
  outcomeOf,
  DEFAULT_TRIAL_PATH,
  OUTCOMES,
  breaksOf,
  PAIR_RUN_LIMIT,
  PAIR_EVENT_LIMIT,
} from './atlas/explore';
export type {
  Atlas,
  Outcome,
  TrialResult,
  RunTrialsOptions,
  ExploreOptions,
  TrialPath,
} from './atlas/explore';
export {
  minimalCounterexample,
  explainCounterexample,
  breaks,
  counterexampleKey,
  compareCounterexampleKeys,
} from './atlas/counterexample';
export type { Counterexample } from './atlas/counterexample';
export { noRejoinStats, type RejoinStats } from './atlas/rejoin';
export { trialSession, type TrialSession } from './atlas/session';
// The batch half: scheduled jobs over partitioned tables, and dedupe stores (docs/semantics/batch.md).
export { simulateBatch, landsAt } from './batch/simulateBatch';
export type { BatchRun, DagRun, Attempt, RunKind } from './batch/simulateBatch';
export { checkBatch, rowsPerEvent } from './batch/checker';
export type { BatchVerdict, BatchFate, EventLedger } from './batch/checker';
export { runBatch, compareBatchExpect } from './batch/run';
export type { BatchResult } from './batch/run';
export {
  BatchSchema,
  DedupeKeySchema,
  CONTENT_COLUMNS,
  EVENT_CONTENT_COLUMNS,
} from './batch/schema';
export type { BatchConfig, BatchInput, SourceRow, BatchFault, DedupeKey } from './batch/schema';
export { applyBatchGuarantee } from './batch/guarantee';
export { batchAtlas, withPlacement } from './batch/atlas';
export type { BatchPlacement, BatchAtlasCell } from './batch/atlas';
export {
  BATCH_PLACEMENT_KINDS,
  batchPairAtlas,
  exploreBatch,
  explainBatchTrial,
  minimalBatchCounterexample,
  batchCounterexample,
  batchCellsCounterexample,
} from './batch/explore';
export type { BatchExploration, BatchPlacementKind, BatchTrial } from './batch/explore';
export { periodLabel, periodOfRow, dateOf, dayNumber } from './batch/calendar';
export { batchTraceHash } from './batch/trace';
export type { BatchEntry } from './batch/trace';
export type { Statement, StatementKind, TableRow } from './batch/table';
export { dedupeKeyOf, DedupeStore, storeKeyName } from './dedupe/dedupeStore';
export {
  explainBatch,
  attemptOutcomeWords,
  attemptWords,
  backfillSkips,
  batchFaultsNeverFired,
  neverFiredWords,
  windowWords,
  batchTimeLabel,
} from './explain/batch';
export type { BackfillSkip, BatchFaultNeverFired } from './explain/batch';
export type { BatchExplanation } from './explain/batch';
export {
  ChallengeSchema,
  GoalSchema,
  AllowSchema,
  CHALLENGE_VERSION,
  CHALLENGE_LIMITS,
  CHALLENGE_AREAS,
  FAULT_KINDS,
} from './challenge/schema';
export type {
  Challenge,
  ChallengeInput,
  ChallengeKnob,
  ChallengeStart,
  Goal,
  FaultKind,
} from './challenge/schema';
export { parseChallenge } from './challenge/validate';
export type { ChallengeParse } from './challenge/validate';
export { attemptChanges, ruleIssues, lockedBy } from './challenge/rules';
export type { AttemptChanges } from './challenge/rules';
export { goalMet, judgeAttempt } from './challenge/goal';
export type { Judgement } from './challenge/goal';
export { sinkSqlScript } from './sql/script';
export { CONTENT_COLUMN_SQL } from './batch/contentColumns';
export type { SqlScript, ScriptStep, StepExpect } from './sql/script';
