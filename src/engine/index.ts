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
export type { Explanation } from './explain';
export { TraceIndex } from './explain/traceIndex';
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
  formatIssues,
  issueLines,
  normalizeAcks,
  targetsOf,
  MAX_JSON_CHARS,
} from './scenario/validate';
export type { Issue, ParseResult } from './scenario/validate';
export { migrate, CURRENT_VERSION } from './scenario/migrate';
export { clipEcho, echoValue, numberWords, ECHO_MAX } from './scenario/echo';
export { LIMITS } from './scenario/limits';
export { buildEvents } from './scenario/workload';
export type { Events } from './scenario/workload';
export { effectiveIdempotence } from './scenario/validate';
export { traceHash, hashTraceData, traceBytes, traceBytesOf, traceBytePartsOf } from './hash';
export { compareExpect } from './expect';
export type { ExpectMismatch } from './expect';
export { createRng, hashString32 } from './core/rng';
export type { Rng } from './core/rng';
export { partitionForKey, murmur2 } from './core/murmur2';
export { Opportunities } from './opportunities';
export type { PointReached } from './opportunities';
export { CRASH_POINT_WORDS } from './faultWords';
export { enumeratePlacements, PLACEMENT_KINDS } from './atlas/placements';
export type { Placement, PlacementKind } from './atlas/placements';
export {
  explore,
  firstRun,
  classify,
  runTrials,
  trialIndices,
  trialSlices,
  assembleAtlas,
  trialFaults,
  pairsOf,
  withFaults,
  OUTCOMES,
  PAIR_RUN_LIMIT,
  PAIR_EVENT_LIMIT,
} from './atlas/explore';
export type {
  Atlas,
  Outcome,
  TrialResult,
  RunTrialsOptions,
  ExploreOptions,
} from './atlas/explore';
export { minimalCounterexample, explainCounterexample, breaks } from './atlas/counterexample';
export type { Counterexample } from './atlas/counterexample';
