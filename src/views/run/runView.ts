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
import { preexistingRows, TRACE_COLUMNS, traceLimitWords, TXN_REASON_TIMEOUT } from '../../engine';
import { roleOf } from './actors';
import { CK, K, TX } from './kinds';
import { FloatList, IntList, StepsBuilder, buildCsr, type Csr, type Steps } from './steps';

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
const NEVER = 0x7fffffff;

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
interface PrefixCounters {
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
interface BatchView {
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

/** The consumer group a 'commit' entry belongs to: the actor that asked for it, up the cause chain. */
function commitGroup(cols: TraceColumns, actors: string[], i: number): string {
  let c = cols.cause[i]!;
  for (let hops = 0; c >= 0 && hops < 6; hops++) {
    const name = actors[cols.actor[c]!]!;
    const role = roleOf(name);
    if (role === 'processor') return name === 'flink' || name === 'spark' ? name : 'processor';
    if (role === 'reader') return name;
    c = cols.cause[c]!;
  }
  return 'processor';
}

function logsView(run: Run, cols: TraceColumns, actors: string[]): PartitionLogView[] {
  interface Builder {
    topic: number;
    partition: number;
    name: string;
    offset: IntList;
    event: IntList;
    txn: IntList;
    flags: IntList;
    addedAt: IntList;
    removedAt: IntList;
    /** offset → live version (the current log). */
    live: IntList;
    truncations: number;
    leader: StepsBuilder;
    leader0: number;
    leo: StepsBuilder;
    hw: StepsBuilder;
    lso: StepsBuilder;
    /** Open transaction → its first offset here. */
    open: Map<number, number>;
    txnEnd: Map<number, { entry: number; commit: boolean }>;
    commits: Map<string, StepsBuilder>;
    /** Versions whose event is resolved after the pass: [version, truncation k or -1]. */
    pending: number[];
  }
  const topics = [...run.state.cluster.topics.values()];
  const byKey = new Map<number, Builder>();
  const key = (topic: number, p: number) => topic * 4096 + p;
  const partitionState = new Map<number, (typeof topics)[number]['partitions'][number]>();
  for (const topic of topics)
    topic.partitions.forEach((p, i) => {
      partitionState.set(key(topic.index, i), p);
      byKey.set(key(topic.index, i), {
        topic: topic.index,
        partition: i,
        name: `${topic.name}-${i}`,
        offset: new IntList(),
        event: new IntList(),
        txn: new IntList(),
        flags: new IntList(),
        addedAt: new IntList(),
        removedAt: new IntList(),
        live: new IntList(),
        truncations: 0,
        leader: new StepsBuilder(p.replicas[0]?.broker ?? -1),
        leader0: p.replicas[0]?.broker ?? -1,
        leo: new StepsBuilder(0),
        hw: new StepsBuilder(0),
        lso: new StepsBuilder(0),
        open: new Map(),
        txnEnd: new Map(),
        commits: new Map(),
        pending: [],
      });
    });
  const lsoOf = (b: Builder): number => {
    let lso = b.hw.current;
    for (const first of b.open.values()) if (first < lso) lso = first;
    return lso;
  };
  const addVersion = (b: Builder, i: number, offset: number, txn: number, flags: number) => {
    const v = b.offset.push(offset);
    b.event.push(-1);
    b.txn.push(txn);
    b.flags.push(flags);
    b.addedAt.push(i);
    b.removedAt.push(NEVER);
    while (b.live.length <= offset) b.live.push(-1);
    b.live.set(offset, v);
    return v;
  };
  const n = cols.time.length;
  for (let i = 0; i < n; i++) {
    const k = cols.kind[i]!;
    if (
      k !== K.append &&
      k !== K.marker &&
      k !== K.truncate &&
      k !== K.hw &&
      k !== K.commit &&
      k !== K.leader
    )
      continue;
    const b = byKey.get(key(cols.topic[i]!, cols.partition[i]!));
    if (!b) continue;
    const off = cols.offset[i]!;
    if (k === K.append) {
      const txn = cols.txn[i]!;
      for (let r = 0; r < cols.count[i]!; r++) {
        const v = addVersion(b, i, off + r, txn, REC.data);
        b.pending.push(v, -1);
      }
      if (txn >= 0 && !b.open.has(txn) && !b.txnEnd.has(txn)) b.open.set(txn, off);
      b.leo.add(i, Math.max(b.leo.current, off + cols.count[i]!));
    } else if (k === K.marker) {
      const commit = cols.aux[i] === 1;
      addVersion(b, i, off, cols.txn[i]!, commit ? REC.commitMarker : REC.abortMarker);
      b.open.delete(cols.txn[i]!);
      b.txnEnd.set(cols.txn[i]!, { entry: i, commit });
      b.leo.add(i, Math.max(b.leo.current, off + 1));
    } else if (k === K.truncate) {
      const end = b.live.length;
      const seg = b.truncations++;
      for (let o = off; o < end; o++) {
        const v = b.live.get(o);
        if (v < 0) continue;
        b.removedAt.set(v, i);
        b.live.set(o, -1);
        // Re-point the pending event lookup at the truncated segment it ended up in.
        for (let q = b.pending.length - 2; q >= 0; q -= 2)
          if (b.pending[q] === v) {
            b.pending[q + 1] = seg;
            break;
          }
      }
      b.live.length = off;
      b.leo.add(i, off);
      // A new leader's high watermark never exceeds its log end (the engine clamps it too).
      if (b.hw.current > off) b.hw.add(i, off);
      // Rebuild open transactions from what remains, as the broker does.
      b.open.clear();
      for (let o = 0; o < off; o++) {
        const v = b.live.get(o);
        if (v < 0) continue;
        const tx = b.txn.get(v);
        if (tx >= 0 && b.flags.get(v) === REC.data && !b.txnEnd.has(tx) && !b.open.has(tx))
          b.open.set(tx, o);
      }
    } else if (k === K.hw) {
      b.hw.add(i, off);
    } else if (k === K.leader) {
      b.leader.add(i, cols.aux[i]!);
      continue;
    } else if (k === K.commit) {
      const g = commitGroup(cols, actors, i);
      let s = b.commits.get(g);
      if (!s) b.commits.set(g, (s = new StepsBuilder(-1)));
      s.add(i, off);
      continue;
    }
    b.lso.add(i, lsoOf(b));
  }
  const out: PartitionLogView[] = [];
  for (const [k2, b] of byKey) {
    const p = partitionState.get(k2)!;
    const event = b.event.toArray();
    const offset = b.offset.toArray();
    for (let q = 0; q < b.pending.length; q += 2) {
      const v = b.pending[q]!;
      const seg = b.pending[q + 1]!;
      const o = offset[v]!;
      if (seg < 0) event[v] = o < p.leo ? p.event.get(o) : -1;
      else {
        const s = p.truncated[seg];
        event[v] = s ? (s.events[o - s.offset] ?? -1) : -1;
      }
    }
    const maxOffset = offset.reduce((m, o) => Math.max(m, o + 1), 0);
    const headVersion = new Int32Array(maxOffset).fill(-1);
    const prevVersion = new Int32Array(offset.length).fill(-1);
    for (let v = 0; v < offset.length; v++) {
      prevVersion[v] = headVersion[offset[v]!]!;
      headVersion[offset[v]!] = v;
    }
    out.push({
      topic: b.topic,
      partition: b.partition,
      name: b.name,
      offset,
      event,
      txn: b.txn.toArray(),
      flags: Uint8Array.from(b.flags.toArray()),
      addedAt: b.addedAt.toArray(),
      removedAt: b.removedAt.toArray(),
      headVersion,
      prevVersion,
      leader: b.leader.build(),
      leader0: b.leader0,
      leo: b.leo.build(),
      hw: b.hw.build(),
      lso: b.lso.build(),
      txnEnd: b.txnEnd,
      commits: [...b.commits].map(([group, s]) => ({ group, steps: s.build() })),
    });
  }
  out.sort((a, b) => a.topic - b.topic || a.partition - b.partition);
  return out;
}

function tablesView(run: Run, cols: TraceColumns, actors: string[], ev: EventsView): TableView[] {
  const s = run.scenario;
  const specs: { point: string; label: string; actor: number }[] = [];
  const sinkActor = actors.indexOf('sink');
  if (run.state.sink && sinkActor >= 0)
    specs.push({
      point: 'sink',
      // The table's own name (a Delta table's, a file sink's too: "delta sink" hid "orders").
      label:
        s.sink.type === 'table' || s.sink.type === 'delta' || s.sink.type === 'file'
          ? s.sink.name
          : `${s.sink.type} sink`,
      actor: sinkActor,
    });
  s.readers.forEach((r, i) => {
    const a = actors.indexOf(`reader-${i}`);
    if (a >= 0)
      specs.push({
        point: `reader:${r.name}`,
        label: `${r.name} (${r['isolation.level']})`,
        actor: a,
      });
  });
  const additive =
    s.sink.type === 'table' &&
    s.sink.statement === 'on-conflict-do-update' &&
    s.sink.set === 'add-excluded';
  return specs.map((spec) => {
    const event = new IntList();
    const insertedAt = new IntList();
    const partition = new IntList();
    const offset = new IntList();
    const amount0 = new FloatList();
    const copy = new IntList();
    const reread: number[] = [];
    const initialLabels: string[] = [];
    const rowsOf = new Int32Array(ev.identities);
    const amounts: number[] = [];
    if (spec.point === 'sink' && s.sink.type === 'table') {
      for (const r of s.sink.initialRows) {
        const j = identityOfId(ev, r.id);
        initialLabels[event.length] = r.id;
        event.push(-1);
        insertedAt.push(-1);
        partition.push(-1);
        offset.push(-1);
        amount0.push(r.amount);
        amounts.push(r.amount);
        copy.push(j >= 0 ? ++rowsOf[j]! : 1);
      }
    }
    const upRow = new IntList();
    const upEntry = new IntList();
    const upAmount = new FloatList();
    const n = cols.time.length;
    for (let i = 0; i < n; i++) {
      if (cols.actor[i] !== spec.actor) continue;
      const k = cols.kind[i]!;
      if (k === K['row-insert']) {
        const e = cols.event[i]!;
        const j = ev.identity[e]!;
        event.push(e);
        insertedAt.push(i);
        partition.push(cols.partition[i]!);
        offset.push(cols.offset[i]!);
        amount0.push(ev.amount[e]!);
        amounts.push(ev.amount[e]!);
        copy.push(++rowsOf[j]!);
        if (cols.count[i] === 0) reread[event.length - 1] = 1;
      } else if (k === K['row-update']) {
        const row = cols.aux[i]!;
        const e = cols.event[i]!;
        const after = additive ? amounts[row]! + ev.amount[e]! : ev.amount[e]!;
        amounts[row] = after;
        upRow.push(row);
        upEntry.push(i);
        upAmount.push(after);
      }
    }
    const rows = event.length;
    const rowIdx = upRow.toArray();
    const csrEntry = buildCsr(rows, rowIdx, upEntry.toArray());
    // Amounts in the same CSR order: build with indices, then gather.
    const order = buildCsr(
      rows,
      rowIdx,
      Int32Array.from({ length: rowIdx.length }, (_, q) => q),
    );
    const upAm = upAmount.toArray();
    const updAmount = new Float64Array(order.items.length);
    for (let q = 0; q < order.items.length; q++) updAmount[q] = upAm[order.items[q]!]!;
    const eventArr = event.toArray();
    const identRow = new IntList();
    const identItems = new IntList();
    for (let r = 0; r < rows; r++) {
      const e = eventArr[r]!;
      const j = e >= 0 ? ev.identity[e]! : identityOfId(ev, initialLabels[r] ?? '');
      if (j < 0) continue;
      identRow.push(j);
      identItems.push(r);
    }
    return {
      ...spec,
      event: eventArr,
      insertedAt: insertedAt.toArray(),
      partition: partition.toArray(),
      offset: offset.toArray(),
      amount0: amount0.toArray(),
      copy: copy.toArray(),
      reread: Uint8Array.from({ length: rows }, (_, r) => reread[r] ?? 0),
      initialLabels,
      updStart: csrEntry.start,
      updEntry: csrEntry.items,
      updAmount,
      byIdentity: buildCsr(ev.identities, identRow.toArray(), identItems.toArray()),
    };
  });
}

function identityOfId(ev: EventsView, id: string): number {
  if (ev.ids) return ev.ids.indexOf(id);
  if (!id.startsWith(ev.idPrefix)) return -1;
  const j = Number(id.slice(ev.idPrefix.length)) - 1;
  return Number.isInteger(j) && j >= 0 && j < ev.identities ? j : -1;
}

/**
 * Counters at the primary point, replayed entry by entry — the same quantities the checker
 * computes at the end (checker.ts `totalsOf`), so at every cursor they equal the verdict of the
 * run cut off at that time (`stopAtMs`).
 */
function prefixCounters(
  run: Run,
  cols: TraceColumns,
  actors: string[],
  ev: EventsView,
  logs: PartitionLogView[],
  tables: TableView[],
  primary: string,
): PrefixCounters {
  const n = cols.time.length;
  const ids = ev.identities;
  const sent = new Int32Array(n + 1);
  const sentAmtP = new Float64Array(n + 1);
  const rowsP = new Int32Array(n + 1);
  const dupP = new Int32Array(n + 1);
  const missP = new Int32Array(n + 1);
  const dblP = new Int32Array(n + 1);
  const sumP = new Float64Array(n + 1);
  const dblAmtP = new Float64Array(n + 1);
  const missAmtP = new Float64Array(n + 1);
  const procP = new Int32Array(n + 1);

  const rows = new Int32Array(ids);
  const effects = new Int32Array(ids);
  const seen = new Uint8Array(ids);
  const amountOf = ev.identityAmount;
  const keptDelta = new Map(ev.preexisting.kept);
  const prior = new Map(ev.preexisting.prior);
  const expRowsP = new Int32Array(n + 1);
  let nSent = 0;
  // A row under an event's id is there before the event is sent; the event then replaces or keeps it.
  let sentAmount = 0;
  for (const a of prior.values()) sentAmount += a;
  let expectedRows = prior.size;
  let nRows = 0;
  let dup = 0;
  let missing = ids;
  let missingAmount = ev.trueSum;
  let dbl = 0;
  let dblAmount = 0;
  let sum = 0;
  let processed = 0;

  const bump = (j: number, dRows: number, dEffects: number, amount: number) => {
    const before = Math.max(rows[j]!, effects[j]!);
    const r0 = rows[j]!;
    const e0 = effects[j]!;
    rows[j] = r0 + dRows;
    effects[j] = e0 + dEffects;
    nRows += dRows;
    sum += amount;
    dup += Math.max(rows[j]! - 1, 0) - Math.max(r0 - 1, 0);
    const after = Math.max(rows[j]!, effects[j]!);
    if (before === 0 && after > 0) {
      missing--;
      missingAmount -= amountOf[j]!;
    } else if (before > 0 && after === 0) {
      missing++;
      missingAmount += amountOf[j]!;
    }
    if (e0 < 2 && effects[j]! >= 2) dbl++;
    else if (e0 >= 2 && effects[j]! < 2) dbl--;
    dblAmount += amountOf[j]! * (Math.max(effects[j]! - 1, 0) - Math.max(e0 - 1, 0));
  };

  const table = tables.find((x) => x.point === primary);
  const rowIdentity = (tb: TableView, r: number) =>
    tb.event[r]! >= 0 ? ev.identity[tb.event[r]!]! : identityOfId(ev, tb.initialLabels[r] ?? '');
  const additive =
    run.scenario.sink.type === 'table' &&
    run.scenario.sink.statement === 'on-conflict-do-update' &&
    run.scenario.sink.set === 'add-excluded';
  const rowAmount: number[] = [];
  let nextRow = 0;
  if (table) {
    // Initial rows exist before the first entry: rows, not effects (as the engine counts them).
    while (nextRow < table.event.length && table.insertedAt[nextRow]! < 0) {
      const j = rowIdentity(table, nextRow);
      rowAmount[nextRow] = table.amount0[nextRow]!;
      if (j >= 0) bump(j, 1, 0, table.amount0[nextRow]!);
      else {
        nRows++;
        sum += table.amount0[nextRow]!;
      }
      nextRow++;
    }
  }
  const serviceActor = actors.indexOf('service');
  const logTopic = primary.startsWith('log:') ? run.trace.topics.indexOf(primary.slice(4)) : -1;
  const logOf = new Map<number, PartitionLogView>();
  for (const l of logs) if (l.topic === logTopic) logOf.set(l.partition, l);
  const logCursor = new Map<number, number>();
  const isProcessor = actors.map((a) => roleOf(a) === 'processor');

  sumP[0] = sum;
  rowsP[0] = nRows;
  dupP[0] = dup;
  missP[0] = missing;
  missAmtP[0] = missingAmount;
  dblP[0] = dbl;
  sentAmtP[0] = sentAmount;
  expRowsP[0] = expectedRows;
  dblAmtP[0] = dblAmount;
  for (let i = 0; i < n; i++) {
    const k = cols.kind[i]!;
    const a = cols.actor[i]!;
    if (k === K['app-send']) {
      const j = ev.identity[cols.event[i]!]!;
      if (seen[j] === 0) {
        seen[j] = 1;
        nSent++;
        // A kept row (ON CONFLICT DO NOTHING, insert-only MERGE) should stay as it was.
        sentAmount += amountOf[j]! + (keptDelta.get(j) ?? 0) - (prior.get(j) ?? 0);
        if (!prior.has(j)) expectedRows++;
      }
    } else if (k === K.process && isProcessor[a]) {
      processed++;
    } else if (table && a === table.actor && k === K['row-insert']) {
      const r = nextRow++;
      const e = cols.event[i]!;
      rowAmount[r] = ev.amount[e]!;
      // A reader's re-read copy is its own replay: the checker leaves it out (RowStore.rereads).
      if (table.reread[r] === 0) bump(ev.identity[e]!, 1, 1, ev.amount[e]!);
    } else if (table && a === table.actor && k === K['row-update']) {
      const r = cols.aux[i]!;
      const e = cols.event[i]!;
      const before = rowAmount[r]!;
      const after = additive ? before + ev.amount[e]! : ev.amount[e]!;
      rowAmount[r] = after;
      bump(ev.identity[e]!, 0, additive ? 1 : 0, after - before);
    } else if (primary === 'effects' && a === serviceActor && k === K.effect) {
      const e = cols.event[i]!;
      bump(ev.identity[e]!, 1, 1, ev.amount[e]!);
    } else if (
      logTopic >= 0 &&
      cols.topic[i] === logTopic &&
      (k === K.append || k === K.truncate)
    ) {
      const l = logOf.get(cols.partition[i]!);
      if (l) {
        // Versions are in entry order: walk this partition's versions added by entry i.
        let v = logCursor.get(l.partition) ?? 0;
        if (k === K.append) {
          while (v < l.addedAt.length && l.addedAt[v]! < i) v++;
          for (; v < l.addedAt.length && l.addedAt[v] === i; v++)
            if (l.flags[v] === REC.data && l.event[v]! >= 0)
              bump(ev.identity[l.event[v]!]!, 1, 1, ev.amount[l.event[v]!]!);
          logCursor.set(l.partition, v);
        } else {
          for (let q = 0; q < l.removedAt.length; q++)
            if (l.removedAt[q] === i && l.flags[q] === REC.data && l.event[q]! >= 0)
              bump(ev.identity[l.event[q]!]!, -1, -1, -ev.amount[l.event[q]!]!);
        }
      }
    }
    sent[i + 1] = nSent;
    sentAmtP[i + 1] = sentAmount;
    expRowsP[i + 1] = expectedRows;
    rowsP[i + 1] = nRows;
    dupP[i + 1] = dup;
    missP[i + 1] = missing;
    dblP[i + 1] = dbl;
    sumP[i + 1] = sum;
    dblAmtP[i + 1] = dblAmount;
    missAmtP[i + 1] = missingAmount;
    procP[i + 1] = processed;
  }
  return {
    sent,
    sentAmount: sentAmtP,
    expectedRows: expRowsP,
    rows: rowsP,
    duplicates: dupP,
    missing: missP,
    doubleCounted: dblP,
    sum: sumP,
    doubleAmount: dblAmtP,
    missingAmount: missAmtP,
    processed: procP,
  };
}

function identityIndex(cols: TraceColumns, ev: EventsView): Csr {
  const n = cols.time.length;
  let m = 0;
  for (let i = 0; i < n; i++) if (cols.event[i]! >= 0) m++;
  const rowOfItem = new Int32Array(m);
  const items = new Int32Array(m);
  let q = 0;
  for (let i = 0; i < n; i++) {
    const e = cols.event[i]!;
    if (e < 0) continue;
    rowOfItem[q] = ev.identity[e]!;
    items[q++] = i;
  }
  return buildCsr(ev.identities, rowOfItem, items);
}

function messageIndex(cols: TraceColumns): { msgs: Int32Array; msgBlockUntil: Int32Array } {
  const list = new IntList();
  const n = cols.time.length;
  for (let i = 0; i < n; i++) {
    const k = cols.kind[i]!;
    if (k === K.msg || k === K['msg-lost']) list.push(i);
  }
  const msgs = list.toArray();
  const blocks = new Int32Array(Math.ceil(msgs.length / MSG_BLOCK));
  for (let b = 0; b < blocks.length; b++) {
    let m = -1;
    const end = Math.min(msgs.length, (b + 1) * MSG_BLOCK);
    for (let q = b * MSG_BLOCK; q < end; q++) m = Math.max(m, cols.until[msgs[q]!]!);
    blocks[b] = m;
  }
  return { msgs, msgBlockUntil: blocks };
}

function logIdentityIndex(
  logs: PartitionLogView[],
  ev: EventsView,
): { logBase: Int32Array; logVersionsByIdentity: Csr } {
  const logBase = new Int32Array(logs.length);
  const rowsList = new IntList();
  const items = new IntList();
  let base = 0;
  logs.forEach((l, li) => {
    logBase[li] = base;
    for (let ver = 0; ver < l.event.length; ver++) {
      const e = l.event[ver]!;
      if (e < 0) continue;
      rowsList.push(ev.identity[e]!);
      items.push(base + ver);
    }
    base += l.event.length;
  });
  return {
    logBase,
    logVersionsByIdentity: buildCsr(ev.identities, rowsList.toArray(), items.toArray()),
  };
}

function producerIndex(cols: TraceColumns, actors: string[]): RunView['producer'] {
  const producer = actors.indexOf('producer');
  const sends = new IntList();
  const resends = new IntList();
  /** Entries of a batch kind, with the running total of the records they carry. */
  const weighted = () => {
    const at = new IntList();
    const total = new IntList();
    let sum = 0;
    return {
      push(i: number, records: number) {
        sum += records;
        at.push(i);
        total.push(sum);
      },
      at,
      total,
    };
  };
  const retries = weighted();
  const acks = weighted();
  const failures = weighted();
  const dedupes = weighted();
  // A batch entry's `count` is its records; an entry without one stands for one record.
  const records = (i: number) => Math.max(1, cols.count[i]!);
  const n = cols.time.length;
  for (let i = 0; i < n; i++) {
    const k = cols.kind[i]!;
    if (k === K.dedupe) dedupes.push(i, records(i));
    if (cols.actor[i] !== producer) continue;
    if (k === K['app-send']) (cols.aux[i] === 0 ? sends : resends).push(i);
    else if (k === K.retry) retries.push(i, records(i));
    else if (k === K.ack) acks.push(i, records(i));
    else if (k === K['batch-failed']) failures.push(i, records(i));
    else if (k === K['app-send-failed']) {
      // The application seeing a record of a failed batch fail is the same failed record; only
      // its own give-up (a get() timeout, say) is one more.
      const c = cols.cause[i]!;
      failures.push(i, c >= 0 && cols.kind[c] === K['batch-failed'] ? 0 : 1);
    }
  }
  return {
    sends: sends.toArray(),
    resends: resends.toArray(),
    retries: retries.at.toArray(),
    retryRecords: retries.total.toArray(),
    acks: acks.at.toArray(),
    ackRecords: acks.total.toArray(),
    failures: failures.at.toArray(),
    failedRecords: failures.total.toArray(),
    dedupes: dedupes.at.toArray(),
    dedupeRecords: dedupes.total.toArray(),
  };
}

function lifeIndex(cols: TraceColumns, actors: number): Csr {
  const rowsList = new IntList();
  const items = new IntList();
  const n = cols.time.length;
  for (let i = 0; i < n; i++) {
    const k = cols.kind[i]!;
    if (k !== K.crash && k !== K.restart && k !== K.stall) continue;
    rowsList.push(cols.actor[i]!);
    items.push(i);
  }
  return buildCsr(actors, rowsList.toArray(), items.toArray());
}

function faultIndex(cols: TraceColumns, faults: number): Csr {
  const rowsList = new IntList();
  const items = new IntList();
  const n = cols.time.length;
  for (let i = 0; i < n; i++) {
    if (cols.kind[i] !== K.fault) continue;
    const f = cols.aux[i]!;
    if (f < 0 || f >= faults) continue;
    rowsList.push(f);
    items.push(i);
  }
  return buildCsr(faults, rowsList.toArray(), items.toArray());
}

/**
 * Checkpoints, micro-batches, restores, state updates, effects and per-processor entry lists, from
 * the trace columns alone (exported for tests that hand-make a trace).
 */
export function indexProcessors(
  cols: TraceColumns,
  actors: string[],
): Pick<
  RunView,
  'checkpoints' | 'restores' | 'batches' | 'stateUpdates' | 'processors' | 'effects'
> {
  const n = cols.time.length;
  const cps = new Map<number, CheckpointView>();
  const batches = new Map<number, BatchView>();
  const restores = new IntList();
  const state = new IntList();
  const effects = new IntList();
  const service = actors.indexOf('service');
  const flink = actors.indexOf('flink');
  /** Transaction → the coordinator's PrepareAbort entry, when it aborted it for its timeout. */
  const timedOut = new Map<number, number>();
  const tracks = new Map<
    number,
    {
      life: IntList;
      polls: IntList;
      processes: IntList;
      assigns: IntList;
      commits: IntList;
      leaves: IntList;
    }
  >();
  actors.forEach((name, a) => {
    if (roleOf(name) === 'processor')
      tracks.set(a, {
        life: new IntList(),
        polls: new IntList(),
        processes: new IntList(),
        assigns: new IntList(),
        commits: new IntList(),
        leaves: new IntList(),
      });
  });
  const committer = (i: number): number => {
    // 'commit' entries name their committer (peer); older traces are followed up the causes.
    if (cols.peer[i]! >= 0 && tracks.has(cols.peer[i]!)) return cols.peer[i]!;
    let c = cols.cause[i]!;
    for (let hops = 0; c >= 0 && hops < 6; hops++) {
      if (tracks.has(cols.actor[c]!)) return cols.actor[c]!;
      c = cols.cause[c]!;
    }
    return -1;
  };
  const cp = (id: number): CheckpointView => {
    let c = cps.get(id);
    if (!c) {
      c = {
        id,
        triggered: -1,
        barrier: -1,
        preCommitted: -1,
        completed: -1,
        txnEnd: -1,
        failed: -1,
        positions: [],
        txnTimeout: -1,
        idle: -1,
        firstId: id,
      };
      cps.set(id, c);
    }
    return c;
  };
  let lastId = 0;
  for (let i = 0; i < n; i++) {
    const k = cols.kind[i]!;
    const tr = tracks.get(cols.actor[i]!);
    if (tr) {
      if (k === K.crash || k === K.restart || k === K.stall) tr.life.push(i);
      else if (k === K.poll) tr.polls.push(i);
      else if (k === K.process) tr.processes.push(i);
      else if (k === K.assign || k === K.revoke) tr.assigns.push(i);
      else if (k === K['leave-group']) tr.leaves.push(i);
    }
    if (k === K.commit) {
      const a = committer(i);
      if (a >= 0) tracks.get(a)!.commits.push(i);
    }
    // A Spark query's progress is committed by its commit log, not by consumer offsets.
    if (k === K['batch-committed'] && tr) tr.commits.push(i);
    if (k === K.checkpoint) {
      const c = cp(cols.ckpt[i]!);
      const step = cols.aux[i]!;
      // Ids are handed out in order: an idle group starts after the last one triggered.
      if (step === CK.triggered) lastId = cols.ckpt[i]!;
      if (step === CK.triggered) c.triggered = i;
      else if (step === CK.barrier) c.barrier = i;
      else if (step === CK['pre-committed']) c.preCommitted = i;
      else if (step === CK.completed) c.completed = i;
      else if (step === CK['source-position']) c.positions.push(i);
      else if (step === CK.committed || step === CK.aborted) c.txnEnd = i;
      else if (step === CK.idle) {
        c.idle = i;
        c.firstId = lastId + 1;
        lastId = c.id;
      } else if (step === CK.expired) {
        // An expired sink transaction after completion; before it, the checkpoint itself failed.
        if (c.completed >= 0) c.txnEnd = i;
        else c.failed = i;
      } else c.failed = i;
    } else if (k === K.restore) restores.push(i);
    else if (k === K['batch-planned']) {
      const id = cols.ckpt[i]!;
      const b = batches.get(id);
      // A re-planned batch (after a restart) keeps its first planning entry.
      if (!b) batches.set(id, { id, planned: i, committed: -1 });
    } else if (k === K['batch-committed']) {
      const id = cols.ckpt[i]!;
      const b = batches.get(id) ?? { id, planned: -1, committed: -1 };
      b.committed = i;
      batches.set(id, b);
    } else if (k === K.process && cols.actor[i] === flink) state.push(i);
    else if (k === K.effect && cols.actor[i] === service) effects.push(i);
    else if (k === K.txn && cols.aux[i] === TX.PrepareAbort && cols.count[i] === TXN_REASON_TIMEOUT)
      timedOut.set(cols.txn[i]!, i);
  }
  const stateUpdates = state.toArray();
  // Whether the broker timed each checkpoint's sink transaction out.
  for (const c of cps.values()) {
    const txn = c.preCommitted >= 0 ? cols.txn[c.preCommitted]! : -1;
    if (txn >= 0) c.txnTimeout = timedOut.get(txn) ?? -1;
  }
  return {
    checkpoints: [...cps.values()].sort((a, b) => a.id - b.id),
    restores: restores.toArray(),
    batches: [...batches.values()].sort((a, b) => a.id - b.id),
    stateUpdates,
    effects: effects.toArray(),
    processors: [...tracks].map(([actor, tr]) => ({
      actor,
      name: actors[actor]!,
      life: tr.life.toArray(),
      polls: tr.polls.toArray(),
      processes: tr.processes.toArray(),
      assigns: tr.assigns.toArray(),
      commits: tr.commits.toArray(),
      leaves: tr.leaves.toArray(),
    })),
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
