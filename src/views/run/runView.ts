/**
 * `toRunView(run)`: everything the dashboard needs from a run, as plain, structured-cloneable data
 * (typed arrays, arrays, plain objects) — so a Web Worker can compute it and transfer it to the
 * page without copying (see {@link runViewTransferables}).
 *
 * Besides the trace columns it holds what makes scrubbing cheap: counters as prefix arrays indexed
 * by trace entry, partition logs as record versions with the entry that added and removed each,
 * step functions for HW/LSO/committed offsets, the sink tables' rows with their insert entries, and
 * per-event entry lists. Every per-time derivation (src/views/run/at.ts) is then a binary search and a
 * few array reads. Cursor convention: `idx` = number of trace entries applied.
 */
import type {
  Explanation,
  Guarantee,
  ObservedGuarantee,
  Run,
  Scenario,
  Stuck,
  Totals,
  TraceColumns,
} from '../../engine';
import { preexistingRows, TRACE_COLUMNS, traceLimitWords } from '../../engine';
import { type Csr, type Steps } from './steps';
import { logsView } from './partitionLogs';
import { tablesView } from './tablesView';
import { prefixCounters } from './prefixCounters';
import {
  faultIndex,
  identityIndex,
  indexProcessors,
  lifeIndex,
  logIdentityIndex,
  messageIndex,
  producerIndex,
} from './runIndexes';

/** The trace, as the engine's columns trimmed to the run's length (each its own buffer). */
export type { TraceColumns };

/** The workload's business events. Index `e` is an event (a listing), `j` an identity (a business id). */
export interface EventsView {
  count: number;
  identities: number;
  /** Time each event is handed to the producer (ms). */
  at: Int32Array;
  amount: Float64Array;
  /** Identity of each event (events listed twice with one id share it). */
  identity: Int32Array;
  /** Business id per identity, or null for a generated workload (id = prefix + (j + 1)). */
  ids: string[] | null;
  idPrefix: string;
  /** Record key names by key index, or null where key index k is named `k<k>` (round-robin generated keys). */
  keys: string[] | null;
  /** Amount per identity (the last listed wins, as in the true sum). */
  identityAmount: Float64Array;
  trueSum: number;
  /**
   * The sink table's rows from before the run (engine `preexistingRows`): `rows` and
   * `untouchedSum`, those under ids no event has (part of what the table should hold); `kept`,
   * [identity, old amount − the event's amount] for each row a keep-existing statement should
   * leave as it was; `prior`, [identity, amount] of each row under an event's id; `sum`, all of
   * it (what the true sum adds).
   */
  preexisting: {
    rows: number;
    sum: number;
    untouchedSum: number;
    prior: [number, number][];
    kept: [number, number][];
  };
}

/** Record flags in a {@link PartitionLogView}. */
export const REC = { data: 0, commitMarker: 1, abortMarker: 2 } as const;

/** Entry id used as "never removed". */
export const NEVER = 0x7fffffff;

/** One partition's log over the whole run, as record versions (a truncated offset may be reused). */
export interface PartitionLogView {
  topic: number;
  partition: number;
  /** `payments-0`. */
  name: string;
  /** Record versions in the order they were appended. */
  offset: Int32Array;
  /** Workload event of each record, -1 for a transaction marker. */
  event: Int32Array;
  /** Transaction number, or -1. */
  txn: Int32Array;
  /** {@link REC}. */
  flags: Uint8Array;
  /** The trace entry that appended the record. */
  addedAt: Int32Array;
  /** The trace entry that truncated it away, or {@link NEVER}. */
  removedAt: Int32Array;
  /** Per offset, the last version appended there (-1: none); older versions via `prevVersion`. */
  headVersion: Int32Array;
  prevVersion: Int32Array;
  /** Leader broker number over the cursor (initial `leader0`; -1 = offline). */
  leader: Steps;
  leader0: number;
  /** Log end offset, high watermark and last stable offset over the cursor (initial 0). */
  leo: Steps;
  hw: Steps;
  lso: Steps;
  /** Transaction number → the entry of its marker here and whether it committed. */
  txnEnd: Map<number, { entry: number; commit: boolean }>;
  /** Committed offsets of each consumer group reading this partition, by group label. */
  commits: { group: string; steps: Steps }[];
}

/** A table of rows: the sink table, or a downstream reader's copy. */
export interface TableView {
  /** Observation point name: `sink` or `reader:<name>`. */
  point: string;
  /** `payments`, `reader rc (read_committed)`. */
  label: string;
  /** Actor index that inserts its rows. */
  actor: number;
  /** Workload event of each row (-1 for an initial row). */
  event: Int32Array;
  /** The 'row-insert' entry of each row (-1 for an initial row: present from the start). */
  insertedAt: Int32Array;
  partition: Int32Array;
  offset: Int32Array;
  /** Amount when inserted. */
  amount0: Float64Array;
  /** Which copy of its business id this row is (1 = the first; 2+ = a duplicate row). */
  copy: Int32Array;
  /**
   * 1 for a downstream reader's row copied again from a record it had copied before (its own
   * replay after a crash before its commit: `row-insert` with count 0). The counters and the
   * verdict leave such a row out: they judge what the pipeline delivered, once per record read.
   */
  reread: Uint8Array;
  /** Labels of the initial rows (`initialRows`), by row index. */
  initialLabels: string[];
  /** Updates per row (CSR): `updEntry`/`updAmount` in entry order, amount after the update. */
  updStart: Int32Array;
  updEntry: Int32Array;
  updAmount: Float64Array;
  /** Rows per identity, as CSR (for the ledger and highlighting). */
  byIdentity: Csr;
}

/** Counters at one observation point, as prefix arrays of length `trace length + 1`. */
export interface PrefixCounters {
  /** Identities sent (first 'app-send') so far. */
  sent: Int32Array;
  /**
   * Σ amount the point should hold with the identities sent so far: each sent one at its amount
   * in the true sum (or its kept old row's), each unsent one with a row from before at that row's.
   */
  sentAmount: Float64Array;
  /** Rows the point should hold: the identities sent so far and the unsent ones with a row from before. */
  expectedRows: Int32Array;
  /** Rows (records, effects) at the primary point. */
  rows: Int32Array;
  /** Σ max(rows − 1, 0) per identity. */
  duplicates: Int32Array;
  /** Identities with no row and no effect yet (lost, once the run is over). */
  missing: Int32Array;
  /** Identities whose amount took effect twice or more. */
  doubleCounted: Int32Array;
  /** Σ amount over the rows. */
  sum: Float64Array;
  /** Σ amount × (effects − 1) over identities applied more than once. */
  doubleAmount: Float64Array;
  /** Σ amount over identities with no effect yet. */
  missingAmount: Float64Array;
  /** 'process' entries of the processor (attempts). */
  processed: Int32Array;
}

/** The checker's verdict, serialisable. */
export interface VerdictView {
  /** The point the verdict judges (see checker.ts `primaryPoint`), and its label. */
  primary: string;
  primaryLabel: string;
  /**
   * A reader at the primary point: the rows it copied again itself (its own replay after a crash
   * before its commit), left out of the verdict, which counts each record it read once.
   */
  primaryRereads: number;
  claimed: Guarantee;
  observed: ObservedGuarantee;
  held: boolean;
  points: { name: string; label: string; totals: Totals; rows: Int32Array; effects: Int32Array }[];
  /** Fate per identity at the primary point: 0 lost, 1 once, 2 duplicated. */
  fate: Uint8Array;
  explanations: Explanation[];
  /**
   * Set when the run was not explained (`explanations` empty whatever happened): the embed's
   * first run (src/views/run/runScenario.ts); the store runs it again explained when a "why"
   * is shown or a jump needs one (issue 31).
   */
  unexplained?: true;
  falseFailures: string[];
  latency: { p50: number; p99: number; max: number; count: number };
  /**
   * End-to-end latency per identity, in virtual ms (first send → first effect at the primary
   * point), or -1 when it never took effect there.
   */
  latencyOf: Float64Array;
  /** Per identity, the trace entry of that first effect, or -1: the latency shows once it applied. */
  visibleAt: Int32Array;
}

/**
 * How many of the events lost or duplicated at the primary point the explanations cover: the
 * engine explains the first 2,000 of a run only, and a big run's reader must be told so.
 */
export function explanationCoverage(v: Pick<VerdictView, 'explanations' | 'primary' | 'fate'>): {
  explained: number;
  anomalous: number;
} {
  const explained = v.explanations
    // A reader's own replay is explained too, but is no anomaly of the pipeline's.
    .filter((x) => x.point === v.primary && x.by === undefined)
    .reduce((n, x) => n + x.events.length, 0);
  let anomalous = 0;
  for (const f of v.fate) if (f !== 1) anomalous++;
  return { explained, anomalous };
}

/** One Flink checkpoint as its history row needs it. */
export interface CheckpointView {
  id: number;
  triggered: number;
  barrier: number;
  preCommitted: number;
  completed: number;
  /** 'committed', 'aborted' (an XA rollback) or 'expired' entry of its sink transaction, or -1. */
  txnEnd: number;
  /** 'declined' / 'expired' step entry, or -1. */
  failed: number;
  /** 'source-position' entries: the snapshot's offset of each input partition (sorted ids). */
  positions: number[];
  /** The coordinator's PrepareAbort of its sink transaction after `transaction.timeout.ms`, or -1. */
  txnTimeout: number;
  /**
   * The 'idle' entry when this view stands for checkpoints `firstId`..`id`, completed while the
   * job was idle (triggered every `execution.checkpointing.interval` from its `until`), else -1.
   */
  idle: number;
  /** The first id of an idle group; `id` otherwise. */
  firstId: number;
}

/** One Spark micro-batch. */
export interface BatchView {
  id: number;
  planned: number;
  committed: number;
}

/** Entries of one processor actor, by purpose (sorted entry ids). */
export interface ProcessorTrack {
  actor: number;
  name: string;
  /** crash / restart / stall entries. */
  life: Int32Array;
  polls: Int32Array;
  processes: Int32Array;
  assigns: Int32Array;
  /** 'commit' entries this actor asked for (found up the cause chain). */
  commits: Int32Array;
  /** 'leave-group' entries: a consumer that left its group at its poll timeout. */
  leaves: Int32Array;
}

/** Everything the dashboard shows about one run. Structured-cloneable. */
export interface RunView {
  /** The scenario as run, every default applied. */
  scenario: Scenario;
  /** Trace length. */
  n: number;
  cols: TraceColumns;
  actors: string[];
  topics: string[];
  endTime: number;
  cutOff: boolean;
  /** Why it was cut off (see the engine's `Run.cutOffBy`). */
  cutOffBy: 'stop' | 'trace-limit' | 'stuck' | null;
  /** At the trace limit: how far the workload got and how many events fit (the engine's `traceLimitWords`). */
  cutOffWords: string;
  /** The components still waiting when the run ended, what for and since when (the engine's `Run.stuck`). */
  stuck: Stuck[];
  events: EventsView;
  logs: PartitionLogView[];
  /** Global record-version id of each log's first version (version g of log l = logBase[l] + v). */
  logBase: Int32Array;
  /** Global record-version ids carrying each identity (CSR by identity). */
  logVersionsByIdentity: Csr;
  tables: TableView[];
  /** Index into `tables` of the primary point's table, or -1 (effects or a log). */
  primaryTable: number;
  prefix: PrefixCounters;
  verdict: VerdictView;
  /** Entry ids that carry each identity (CSR by identity). */
  byIdentity: Csr;
  /** 'msg' and 'msg-lost' entry ids in order, and the max `until` of each block of 64. */
  msgs: Int32Array;
  msgBlockUntil: Int32Array;
  /** Per scenario fault, the 'fault' entries that fired it (CSR by fault index). */
  faultFired: Csr;
  checkpoints: CheckpointView[];
  /** 'restore' entries. */
  restores: Int32Array;
  batches: BatchView[];
  /** Flink 'process' entries: operator state updates (aux = key, count = the key's count). */
  stateUpdates: Int32Array;
  processors: ProcessorTrack[];
  /** 'effect' entries of the external service. */
  effects: Int32Array;
  /** crash / restart / stall entries of every actor (CSR by actor index). */
  life: Csr;
  /**
   * The source application's and producer's notable entries (sorted entry ids). A batch entry
   * (ack, retry, batch-failed, dedupe) carries several records: `*Records[j]` is the number of
   * records in the first j + 1 of them, so the panel counts records, as `sends` does.
   */
  producer: {
    sends: Int32Array;
    resends: Int32Array;
    retries: Int32Array;
    retryRecords: Int32Array;
    acks: Int32Array;
    ackRecords: Int32Array;
    failures: Int32Array;
    failedRecords: Int32Array;
    dedupes: Int32Array;
    dedupeRecords: Int32Array;
  };
}

/** Block size of {@link RunView.msgBlockUntil}. */
export const MSG_BLOCK = 64;

/** The business id of identity `j`. */
export function eventIdOf(ev: EventsView, j: number): string {
  return ev.ids ? ev.ids[j]! : `${ev.idPrefix}${j + 1}`;
}

/** The record key named by key index `k` (Flink's keyed state is per key). */
export function keyNameOf(ev: EventsView, k: number): string {
  return ev.keys ? (ev.keys[k] ?? `#${k}`) : `k${k}`;
}

/**
 * Derive the {@link RunView} of a run. One pass over the trace per concern; O(trace length).
 * @param run - a finished run (from `simulate`).
 */
export function toRunView(run: Run): RunView {
  const t = run.trace;
  const n = t.length;
  const cols = traceColumns(t);
  const events = eventsView(run);
  const actors = [...t.actors];
  const logs = logsView(run, cols, actors);
  const verdict = verdictView(run);
  const tables = tablesView(run, cols, actors, events);
  const primaryTable = tables.findIndex((x) => x.point === verdict.primary);
  const prefix = prefixCounters(run, cols, actors, events, logs, tables, verdict.primary);
  const view: RunView = {
    scenario: run.scenario,
    n,
    cols,
    actors,
    topics: [...t.topics],
    endTime: run.endTime,
    cutOff: run.cutOff,
    cutOffBy: run.cutOffBy,
    cutOffWords: traceLimitWords(run),
    stuck: run.stuck.map((x) => ({ ...x })),
    events,
    logs,
    ...logIdentityIndex(logs, events),
    tables,
    primaryTable,
    prefix,
    verdict,
    byIdentity: identityIndex(cols, events),
    ...messageIndex(cols),
    faultFired: faultIndex(cols, run.scenario.faults.length),
    ...indexProcessors(cols, actors),
    life: lifeIndex(cols, actors.length),
    producer: producerIndex(cols, actors),
  };
  return view;
}

/** The trace's columns trimmed to its length, each in its own buffer (transferable). */
export function traceColumns(t: Run['trace']): TraceColumns {
  // Copies (slice, not subarray), so the buffers can be transferred without the trace's spare capacity.
  const out = {} as Record<keyof TraceColumns, ArrayBufferView>;
  const trimmed = t.trimmed();
  for (const c of TRACE_COLUMNS) out[c] = trimmed[c].slice();
  return out as unknown as TraceColumns;
}

/** The buffers of a view, for `postMessage(view, transferables)` (each is owned by the view). */
export function runViewTransferables(v: RunView): ArrayBuffer[] {
  const out = new Set<ArrayBuffer>();
  const walk = (x: unknown, depth: number): void => {
    if (depth > 6 || x === null || typeof x !== 'object') return;
    if (ArrayBuffer.isView(x)) {
      if (x.buffer instanceof ArrayBuffer) out.add(x.buffer);
      return;
    }
    if (x instanceof Map) {
      for (const y of x.values()) walk(y, depth + 1);
      return;
    }
    for (const y of Object.values(x)) walk(y, depth + 1);
  };
  // The scenario is plain JSON; skip it.
  const { scenario: _s, ...rest } = v;
  walk(rest, 0);
  return [...out];
}

function eventsView(run: Run): EventsView {
  const ev = run.events;
  const w = run.scenario.workload;
  return {
    count: ev.count,
    identities: ev.identities,
    at: ev.at.slice(),
    amount: ev.amount.slice(),
    identity: ev.identity.slice(),
    ids: w.events ? Array.from({ length: ev.identities }, (_, j) => ev.identityId(j)) : null,
    idPrefix: w.generate?.idPrefix ?? '',
    // Round-robin generated keys are k<index>; listed and randomly drawn ones are named in a table.
    keys: w.events || w.generate?.keyChoice === 'random' ? [...ev.keys] : null,
    identityAmount: ev.identityAmount.slice(),
    trueSum: ev.trueSum,
    preexisting: preexistingOf(run),
  };
}

function verdictView(run: Run): VerdictView {
  const v = run.verdict;
  const primary = v.points.find((p) => p.name === v.primary);
  return {
    primary: v.primary,
    primaryLabel: primary?.label ?? v.primary,
    primaryRereads: primary?.rereads ?? 0,
    claimed: v.claimed,
    observed: v.observed,
    held: v.held,
    points: v.points.map((p) => ({
      name: p.name,
      label: p.label,
      totals: { ...p.totals },
      rows: p.rows.slice(),
      effects: p.effects === p.rows ? p.rows.slice() : p.effects.slice(),
    })),
    fate: v.fate.slice(),
    explanations: v.explanations.map((x) => ({
      ...x,
      events: [...x.events],
      entries: [...x.entries],
    })),
    falseFailures: [...v.falseFailures],
    latency: { ...v.latency },
    latencyOf: v.latencyOf.slice(),
    visibleAt: v.visibleAt.slice(),
  };
}

/** The sink's pre-existing rows as plain data (a RunView crosses from the worker by structured clone). */
function preexistingOf(run: Run): RunView['events']['preexisting'] {
  const p = preexistingRows(run.scenario, run.events);
  return {
    rows: p.rows,
    sum: p.sum,
    untouchedSum: p.untouchedSum,
    prior: [...p.prior],
    kept: [...p.kept],
  };
}
