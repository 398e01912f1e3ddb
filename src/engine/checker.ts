/**
 * The checker: for every business event and every observation point (the input log, what the
 * processor processed, the sink, each downstream reader, the external service), how many times the
 * event took effect and its fate — lost (0), once (1), duplicated (≥2); the totals; the guarantee
 * the run actually showed against the one claimed; and, for each anomaly, its causal chain.
 *
 * Guarantee from a run (docs/semantics/guarantees.md#guarantee-from-a-run): no loss and no duplicate → exactly-once; duplicates only →
 * at-least-once; losses only → at-most-once; both → none.
 */
import type { Run } from './simulate';
import { REC_CONTROL } from './broker/partition';
import type { Guarantee, ObservedGuarantee } from './scenario/schema';
import { explain, type Explanation } from './explain';
import { preexistingRows } from './scenario/initialRows';
import { alloc } from './core/pool';
import { cleanTable } from './sinks/cleanLayer';
import { scanTrace, type Scan } from './checkerScan';
import { latency } from './checkerLatency';

/** Fate of one business event at one observation point. */
export type Fate = 'lost' | 'once' | 'duplicated';

/** Totals at one observation point. */
export interface Totals {
  /** Distinct business events in the workload. */
  events: number;
  /** Rows (records, effects) at this point, including rows that belong to no event. */
  rows: number;
  /** Σ max(count(e) − 1, 0), counting rows. */
  duplicates: number;
  /** Events with no row at this point. */
  lost: number;
  /** Σ amount over distinct business events (the true total). */
  expectedSum: number;
  /** Σ amount over the rows at this point. */
  observedSum: number;
  /** Events whose amount took effect twice or more (a duplicate row, or an additive update applied again). */
  doubleCounted: number;
}

/** One observation point of a run. */
export interface Point {
  /** `log:<topic>`, `processed`, `sink`, `reader:<name>`, `effects`, `state`. */
  name: string;
  /** Human label ("sink table", "reader rc (read_committed)"). */
  label: string;
  /** Rows per business identity. */
  rows: Int32Array;
  /** Effects per identity (rows + additive re-applications), used for the fate. */
  effects: Int32Array;
  totals: Totals;
  /**
   * A downstream reader only: rows it copied again from records it had copied before — its own
   * replay after a crash before its commit, not the pipeline's. Its rows and totals count each
   * record it read once, so the verdict judges what the pipeline delivered to it.
   */
  rereads?: number;
}

/** The checker's result. */
export interface Verdict {
  points: Point[];
  /** Name of the point the verdict is about (the end of the pipeline). */
  primary: string;
  /** Fate per business identity at the primary point: 0 lost, 1 once, 2 duplicated. */
  fate: Uint8Array;
  claimed: Guarantee;
  /** What the run showed: the end of the pipeline and, if the processor makes side effects, those too. */
  observed: ObservedGuarantee;
  /** The guarantee the processor's side effects showed on their own (null without side effects). */
  sideEffects: { point: 'effects'; observed: ObservedGuarantee } | null;
  /** Whether the observed guarantee is within the claimed one. */
  held: boolean;
  explanations: Explanation[];
  /**
   * Business ids the application was told had failed although they were written (e.g. retries=0),
   * in workload order.
   */
  falseFailures: string[];
  /**
   * False merges at the primary point: events lost because a sink keyed by content (`sink.key:
   * ["time", "amount"]`) took them for another real event with the same key — `id` went into
   * `into`'s row. A loss of a real event, not a duplicate (docs/semantics/sinks.md#content-keys).
   */
  falseMerges: { id: string; into: string }[];
  /**
   * End-to-end latency (virtual ms) from the first send to the first effect at the primary point,
   * over the identities that have both.
   */
  latency: { p50: number; p99: number; max: number; count: number };
  /**
   * End-to-end latency per business identity, in virtual ms: from the application's first send of
   * the event to its first effect at the primary point (the first row, effect or record there,
   * whichever copy it was). -1 when the event never took effect there (or was never sent).
   */
  latencyOf: Float64Array;
  /**
   * Per business identity, the trace entry of its first effect at the primary point (the entry
   * `latencyOf` ends at), or -1: from which cursor on the latency is known.
   */
  visibleAt: Int32Array;
}

/** Fate from an effect count. */
export function fateOf(n: number): Fate {
  return n === 0 ? 'lost' : n === 1 ? 'once' : 'duplicated';
}

function totalsOf(
  run: Run,
  rows: Int32Array,
  effects: Int32Array,
  totalRows: number,
  observedSum: number,
  /** Σ amount the point holds rightly on top of the events (the sink's pre-existing rows). */
  expectedExtra = 0,
): Totals {
  let duplicates = 0;
  let lost = 0;
  let doubleCounted = 0;
  for (let j = 0; j < rows.length; j++) {
    const r = rows[j]!;
    if (r > 1) duplicates += r - 1;
    if (Math.max(r, effects[j]!) === 0) lost++;
    if (effects[j]! >= 2) doubleCounted++;
  }
  return {
    events: rows.length,
    rows: totalRows,
    duplicates,
    lost,
    expectedSum: run.events.trueSum + expectedExtra,
    observedSum,
    doubleCounted,
  };
}

/** The observed guarantee from loss / duplication. */
export function observedGuarantee(anyLost: boolean, anyDup: boolean): ObservedGuarantee {
  if (!anyLost && !anyDup) return 'exactly-once';
  if (anyLost && anyDup) return 'none';
  return anyLost ? 'at-most-once' : 'at-least-once';
}

/** Whether an observed guarantee keeps the claimed one. */
export function holds(claimed: Guarantee, observed: ObservedGuarantee): boolean {
  if (observed === 'exactly-once') return true;
  if (claimed === 'at-least-once') return observed === 'at-least-once';
  if (claimed === 'at-most-once') return observed === 'at-most-once';
  return false;
}

/**
 * Compute every observation point and the verdict of a finished run.
 * @param withExplanations - false leaves `explanations` empty (a caller that needs only the
 *   counts, as the fault atlas's thousands of runs: explaining is a good part of a small run).
 */
export function check(run: Run, withExplanations = true): Verdict {
  const verdict = verdictOf(run);
  if (withExplanations) verdict.explanations = explain(run, verdict);
  return verdict;
}

/**
 * {@link check} without the explanations (`explanations` empty): a bundle that uses this alone
 * holds none of ./explain (./simulateUnexplained.ts, the embed's first run, issue 31).
 */
export function verdictOf(run: Run): Verdict {
  const { events, state, scenario } = run;
  const n = events.identities;
  const ident = events.identity;
  const amount = events.amount;
  const points: Point[] = [];

  // Logs: every record of the topic (aborted ones included; markers excluded) — what a
  // read_uncommitted reader sees — and, for a topic written with transactions, what a
  // read_committed reader sees: committed transactions, below the last stable offset.
  for (const topic of state.cluster.topics.values()) {
    const all = alloc(Int32Array, n);
    const committed = alloc(Int32Array, n);
    // [records, Σ amount, read_committed records, their Σ amount], over the partitions.
    const acc = new Float64Array(4);
    let transactional = false;
    for (const p of topic.partitions) {
      // What read_committed sees: Partition.visible, with the end (the LSO) read once.
      const end = p.readableEnd(true);
      const { flags, event, txn, leo, txnOutcome } = p;
      if (
        countLog(
          flags.data,
          event.data,
          txn.data,
          leo,
          end,
          txnOutcome,
          ident,
          amount,
          all,
          committed,
          acc,
        )
      )
        transactional = true;
    }
    const [total, sum, rcTotal, rcSum] = acc as unknown as [number, number, number, number];
    points.push({
      name: `log:${topic.name}`,
      label: `topic ${topic.name} (every record in the log)`,
      rows: all,
      effects: all,
      totals: totalsOf(run, all, all, total, sum),
    });
    if (transactional)
      points.push({
        name: `log:${topic.name}:read_committed`,
        label: `topic ${topic.name} as read_committed sees it`,
        rows: committed,
        effects: committed,
        totals: totalsOf(run, committed, committed, rcTotal, rcSum),
      });
  }

  // One pass over the trace for everything the checker reads from it.
  const primary = primaryPoint(run);
  const scan = scanTrace(run, primary);
  points.push({
    name: 'processed',
    label: 'processed by the processor (attempts)',
    rows: scan.processed,
    effects: scan.processed,
    totals: totalsOf(run, scan.processed, scan.processed, scan.processedTotal, scan.processedSum),
  });

  if (state.state) {
    const c = state.state.contributions;
    const totals = new Float64Array(2);
    stateTotals(n, c, events.amount, events.firstIndexOf, totals);
    const [total, sum] = totals as unknown as [number, number];
    points.push({
      name: 'state',
      label:
        scenario.processor.type === 'flink' &&
        scenario.processor['execution.checkpointing.interval'] === null
          ? 'operator state (running sum, no checkpoints)'
          : 'operator state (checkpointed running sum)',
      rows: c,
      effects: c,
      totals: totalsOf(run, c, c, total, sum),
    });
  }

  if (state.sink) {
    const s = state.sink.rows;
    // Named as the sink names itself: "sink delta" hid a Delta table's name ("orders").
    const sink = scenario.sink;
    const label =
      sink.type === 'table'
        ? `sink table ${sink.name}`
        : sink.type === 'delta'
          ? `Delta table ${sink.name}`
          : sink.type === 'file'
            ? `file sink ${sink.name}`
            : `sink ${sink.type}`;
    points.push({
      name: 'sink',
      label,
      rows: s.rowsOf,
      effects: s.effectsOf,
      totals: totalsOf(
        run,
        s.rowsOf,
        s.effectsOf,
        s.liveRows,
        s.sum,
        preexistingRows(scenario, events).sum,
      ),
    });
  }

  const clean = sinkClean(scenario);
  if (state.sink && clean) {
    const c = cleanTable(state.sink.rows, ident, n);
    points.push({
      name: 'clean',
      label: `clean table ${clean.name} (ROW_NUMBER() = 1 per event id, merged from the raw table)`,
      rows: c.rowsOf,
      effects: c.rowsOf,
      totals: totalsOf(run, c.rowsOf, c.rowsOf, c.liveRows, c.sum),
    });
  }

  for (const r of scenario.readers) {
    const s = state.readers.get(r.name)!;
    points.push({
      name: `reader:${r.name}`,
      label: `reader ${r.name} (${r['isolation.level']})`,
      rows: s.rowsOf,
      effects: s.effectsOf,
      totals: totalsOf(run, s.rowsOf, s.effectsOf, s.liveRows, s.sum),
      rereads: s.rereads,
    });
  }

  if (state.service) {
    const sv = state.service;
    points.push({
      name: 'effects',
      label: sv.service === 'email' ? 'emails sent' : 'cards charged',
      rows: sv.effectsOf,
      effects: sv.effectsOf,
      totals: totalsOf(run, sv.effectsOf, sv.effectsOf, sv.effects, sv.sum),
    });
  }

  const p = points.find((x) => x.name === primary)!;
  const fate = alloc(Uint8Array, n);
  // Side effects made inside the processor (an email per record) are outputs too.
  const fx =
    scenario.processor.sideEffect && primary !== 'effects' && state.service
      ? points.find((x) => x.name === 'effects')!.rows
      : null;
  const { observed, sideEffects, held } = judge(scenario.claim, p.rows, p.effects, fx, fate);
  const verdict: Verdict = {
    points,
    primary,
    fate,
    claimed: scenario.claim,
    observed,
    sideEffects,
    held,
    explanations: [],
    falseFailures: falseFailures(run, points, scan),
    falseMerges: falseMerges(run, primary, fate),
    ...latency(run, scan),
  };
  return verdict;
}

/**
 * The verdict's judgement: each business identity's fate into `fate` from the end of the
 * pipeline's `rows` and `effects`, the guarantee observed — the weaker of that and, where the
 * processor makes side effects (`sideEffectRows`, else null), theirs — and whether it keeps
 * `claimed`. One rule for a finished run ({@link verdictOf}) and for a fault atlas trial that
 * rejoined the scenario's own run with other settled counts (src/engine/atlas/rejoin.ts).
 */
export function judge(
  claimed: Guarantee,
  rows: Int32Array,
  effects: Int32Array,
  sideEffectRows: Int32Array | null,
  fate: Uint8Array,
): Pick<Verdict, 'observed' | 'sideEffects' | 'held'> {
  const fates = fatesOf(rows, effects, fate);
  let anyLost = (fates & 1) !== 0;
  let anyDup = (fates & 2) !== 0;
  let sideEffects: Verdict['sideEffects'] = null;
  if (sideEffectRows !== null) {
    let lost = false;
    let dup = false;
    for (let j = 0; j < fate.length; j++) {
      if (sideEffectRows[j] === 0) lost = true;
      if (sideEffectRows[j]! >= 2) dup = true;
    }
    sideEffects = { point: 'effects', observed: observedGuarantee(lost, dup) };
    anyLost ||= lost;
    anyDup ||= dup;
  }
  const observed = observedGuarantee(anyLost, anyDup);
  return { observed, sideEffects, held: holds(claimed, observed) };
}

/**
 * Count one partition's records per identity: every record into `all`, what a read_committed
 * reader sees into `committed` (below `end`, the LSO; outside transactions or in committed
 * ones); adds to `acc` [records, Σ amount, read_committed records, their Σ amount]; returns
 * whether the partition holds transactional records.
 *
 * Apart from {@link check}, with the partition's columns as arguments and the totals summed in a
 * typed array, so that V8 keeps it optimized from run to run and never boxes a sum: inside the
 * long, once-per-run `check` (or reading the partition's fields, or with a local float
 * accumulator in on-stack-replaced code) it allocated a number per record.
 */
function countLog(
  flags: Int32Array,
  evs: Int32Array,
  txns: Int32Array,
  leo: number,
  end: number,
  outcome: ReadonlyMap<number, string>,
  ident: Int32Array,
  amount: Float64Array,
  all: Int32Array,
  committed: Int32Array,
  acc: Float64Array,
): boolean {
  // A transaction's records sit together: its outcome is looked up once per run of them.
  let lastTxn = -1;
  let lastCommitted = false;
  let transactional = false;
  for (let o = 0; o < leo; o++) {
    if ((flags[o]! & REC_CONTROL) !== 0) continue;
    const e = evs[o]!;
    const j = ident[e]!;
    all[j]!++;
    acc[0]!++;
    acc[1]! += amount[e]!;
    const t = txns[o]!;
    if (t >= 0) {
      transactional = true;
      if (t !== lastTxn) {
        lastTxn = t;
        lastCommitted = outcome.get(t) === 'committed';
      }
    }
    if (o < end && (t < 0 || lastCommitted)) {
      committed[j]!++;
      acc[2]!++;
      acc[3]! += amount[e]!;
    }
  }
  return transactional;
}

/**
 * The 'state' point's totals over the `n` identities into `totals`: records counted
 * (Σ contributions) and their Σ amount.
 *
 * This loop, and those of {@link fatesOf}, {@link countLog}, `scanEntries` (checkerScan.ts) and
 * `latencies` (checkerLatency.ts), are small functions of their own summing floats into typed arrays, so that
 * V8 keeps them optimized: inside the long, once-per-run `check` they ran deoptimized or
 * on-stack-replaced, boxing each float summed. Nothing but typed-array stores (or a plain return)
 * follows a loop: run once per run, such a function may have lost its type feedback since the
 * last run (bytecode flushing), and code after the loop without feedback made V8 throw the
 * optimized loop away at its exit, every run.
 */
function stateTotals(
  n: number,
  c: Int32Array,
  amount: Float64Array,
  firstIndexOf: (j: number) => number,
  totals: Float64Array,
): void {
  for (let j = 0; j < n; j++) {
    totals[0]! += c[j]!;
    totals[1]! += c[j]! * amount[firstIndexOf(j)]!;
  }
}

/**
 * Each identity's fate (0 lost, 1 once, 2 duplicated) from its rows and effects into `fate`;
 * returns bit 1 if any was lost, bit 2 if any was duplicated.
 */
function fatesOf(rows: Int32Array, effects: Int32Array, fate: Uint8Array): number {
  let any = 0;
  for (let j = 0; j < fate.length; j++) {
    const c = Math.max(rows[j]!, effects[j]!);
    fate[j] = c === 0 ? 0 : c === 1 ? 1 : 2;
    if (c === 0) any |= 1;
    if (c >= 2) any |= 2;
  }
  return any;
}

/**
 * The end of the pipeline: the first downstream reader if the pipeline writes a topic, else the
 * sink table, else the external service, else the output topic.
 */
export function primaryPoint(run: Pick<Run, 'scenario'>): string {
  const s = run.scenario;
  if (s.sink.type === 'kafka')
    return s.readers.length > 0 ? `reader:${s.readers[0]!.name}` : `log:${s.sink.topic}`;
  if (s.sink.type === 'effect') return 'effects';
  return sinkClean(s) ? 'clean' : 'sink';
}

/** The sink's clean layer, when it has one (the end of the pipeline then). */
function sinkClean(s: Run['scenario']): { name: string } | undefined {
  return s.sink.type === 'table' || s.sink.type === 'delta' ? s.sink.clean : undefined;
}

function falseMerges(run: Run, primary: string, fate: Uint8Array): Verdict['falseMerges'] {
  const merged = run.state.sink?.falseMerges;
  if (!merged?.size || (primary !== 'sink' && primary !== 'clean')) return [];
  const ev = run.events;
  return [...merged]
    .filter(([j]) => fate[j] === 0)
    .sort((a, b) => a[0] - b[0])
    .map(([j, into]) => ({ id: ev.identityId(j), into: ev.identityId(into) }));
}

function falseFailures(run: Run, points: Point[], scan: Scan): string[] {
  const log = points.find((p) => p.name === `log:${run.scenario.workload.topic}`)!;
  // In workload order (e2 before e10), not string order.
  const js = [...scan.failed].filter((j) => log.rows[j]! > 0 && !scan.resent.has(j));
  return js.sort((a, b) => a - b).map((j) => run.events.identityId(j));
}
