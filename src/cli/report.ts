/**
 * The CLI's reports, as pure functions of a run (so tests call them without a process).
 * `--format json` is a contract other tools depend on: fields are only ever added.
 * `--format mermaid` and `--format markdown` print the views' text (the same as the page).
 */
import {
  defaultStopAt,
  describeFault,
  faultsNeverFired,
  traceHash,
  traceLimitWords,
  stuckLine,
  flinkFailedForGood,
  failedForGoodSentence,
  type Run,
  type Trace,
  fateOf,
  groupDigits,
} from '../engine';
import { faultName, faultWhat } from '../views/edit/faultName';
import { explanationCoverage } from '../views/run/runView';
import type { DiagramKind } from '../views/diagrams/mermaid';
import { visibleControls } from './visibleControls';

/** The `--format json` object. */
export interface JsonReport {
  scenario: string;
  preset?: string;
  seed: number;
  traceHash: string;
  /**
   * Per business event: rows at the end of the pipeline, fate, counts at every other point, and
   * its end-to-end latency.
   */
  events: {
    id: string;
    sinkRows: number;
    effects: number;
    fate: 'lost' | 'once' | 'duplicated';
    points: Record<string, number>;
    /**
     * Virtual ms from the application's first send to the first effect at the end of the pipeline
     * (`primary`); null when it never took effect there.
     */
    latencyMs: number | null;
  }[];
  totals: {
    events: number;
    sinkRows: number;
    duplicates: number;
    lost: number;
    expectedSum: number;
    observedSum: number;
    doubleCounted: number;
  };
  guarantee: {
    claimed: string;
    observed: string;
    held: boolean;
    /** `by`: the downstream reader whose own replay it explains (no anomaly of the pipeline's). */
    explanations: {
      fate: string;
      events: string[];
      sentence: string;
      entries: number[];
      by?: string;
    }[];
  };
  /**
   * Every observation point with its totals; `primary` names the one `totals` describes and the
   * verdict judges. A downstream reader's point counts each record it read once; `rereads` (set
   * when not 0) are the rows it copied again itself, after a crash before its commit.
   */
  points: {
    name: string;
    label: string;
    totals: Run['verdict']['points'][number]['totals'];
    rereads?: number;
  }[];
  primary: string;
  latencyMs: Run['verdict']['latency'];
  /** Business ids the application was told failed although they were written. */
  falseFailures: string[];
  /**
   * Real events lost at the end of the pipeline because a sink keyed by content (`sink.key:
   * ["time", "amount"]`) took them for another real event with the same key: `id` went into
   * `into`'s row (docs/semantics/sinks.md#content-keys). Each is also counted in `totals.lost`.
   */
  falseMerges: { id: string; into: string }[];
  endTimeMs: number;
  /**
   * True when the run was stopped with work still pending — at its stop time (`stopAtMs`, or by
   * default the last event or fault + 1 h), or when its trace reached the engine's limit:
   * events still on their way then count as lost.
   */
  cutOff: boolean;
  /**
   * Why: `stop` (the stop time), `trace-limit`, or `stuck` (nothing was left to happen, but a
   * component waits forever: see `stuck`); absent when not cut off.
   */
  cutOffBy?: 'stop' | 'trace-limit' | 'stuck';
  /**
   * The components still waiting when the run ended — what for, and since when (virtual ms):
   * what is stuck (`cutOffBy: 'stuck'`), or what was still pending at a cut-off. Absent when
   * none (a run that drained).
   */
  stuck?: { component: string; what: string; sinceMs: number }[];
  /** The stop time in effect (ms): `stopAtMs`, or the default. */
  stopAtMs: number;
  traceEntries: number;
  /**
   * The scenario's faults that never fired (their condition never came: a crash point the
   * processor never reaches, a record that never came by), by index in `faults`: a fault
   * without effect, which the counts alone would not tell. `why`, when present: why it cannot
   * fire in this scenario at all (a lost acknowledgement with acks=0).
   */
  faultsNeverFired: { index: number; fault: string; why?: string }[];
  /**
   * A Flink job its restart strategy did not restart after a failure (`restart-strategy.type`
   * none, or fixed-delay's attempts used up): down at the end, which the counts alone do not
   * tell — a run that lost nothing says exactly-once all the same. `atMs` is that failure's
   * time, `why` names the strategy. Absent when none.
   */
  jobFailedForGood?: { component: string; atMs: number; why: string };
}

/** The faults of the scenario that never fired ({@link faultsNeverFired}), as the report gives them. */
export function neverFired(run: Run): JsonReport['faultsNeverFired'] {
  return faultsNeverFired(run).map(({ index, fault, why }) =>
    why === null
      ? { index, fault: describeFault(fault) }
      : { index, fault: describeFault(fault), why },
  );
}

/**
 * How a report digests the trace: the engine's {@link traceHash} by default; the CLI passes Node's
 * native SHA-256 over the same bytes (same string, faster).
 */
export type TraceHasher = (t: Trace) => string;

/** One business event of the JSON report (the `events` array's `j`-th item). */
function reportEvent(run: Run, j: number): JsonReport['events'][number] {
  const v = run.verdict;
  const primary = v.points.find((p) => p.name === v.primary)!;
  const points: Record<string, number> = {};
  for (const p of v.points)
    if (p.name !== v.primary) points[p.name] = Math.max(p.rows[j]!, p.effects[j]!);
  return {
    id: run.events.identityId(j),
    sinkRows: primary.rows[j]!,
    effects: primary.effects[j]!,
    fate: fateOf(Math.max(primary.rows[j]!, primary.effects[j]!)),
    points,
    latencyMs: v.latencyOf[j]! >= 0 ? v.latencyOf[j]! : null,
  };
}

/**
 * The JSON report without its `events` (what the text report reads): a few objects, whatever
 * the workload's size. `events` is an empty array in its place, so the keys keep their order.
 */
function reportSummary(run: Run, preset?: string, hash: TraceHasher = traceHash): JsonReport {
  const v = run.verdict;
  const t = v.points.find((p) => p.name === v.primary)!.totals;
  return {
    scenario: run.scenario.name,
    ...(preset ? { preset } : {}),
    seed: run.scenario.seed,
    traceHash: hash(run.trace),
    events: [],
    totals: {
      events: t.events,
      sinkRows: t.rows,
      duplicates: t.duplicates,
      lost: t.lost,
      expectedSum: t.expectedSum,
      observedSum: t.observedSum,
      doubleCounted: t.doubleCounted,
    },
    guarantee: {
      claimed: v.claimed,
      observed: v.observed,
      held: v.held,
      explanations: v.explanations.map((e) => ({ ...e })),
    },
    points: v.points.map((p) => ({
      name: p.name,
      label: p.label,
      totals: p.totals,
      ...(p.rereads ? { rereads: p.rereads } : {}),
    })),
    primary: v.primary,
    latencyMs: v.latency,
    falseFailures: v.falseFailures,
    falseMerges: v.falseMerges.map((m) => ({ ...m })),
    endTimeMs: run.endTime,
    cutOff: run.cutOff,
    ...(run.cutOffBy ? { cutOffBy: run.cutOffBy } : {}),
    ...(run.stuck.length > 0
      ? {
          stuck: run.stuck.map((x) => ({
            component: x.component,
            what: x.what,
            sinceMs: x.since,
          })),
        }
      : {}),
    stopAtMs: run.scenario.stopAtMs ?? defaultStopAt(run.scenario, run.events),
    traceEntries: run.trace.length,
    faultsNeverFired: neverFired(run),
    ...jobFailed(run),
  };
}

/** {@link JsonReport.jobFailedForGood} in the text reports (`sim`, `from-config`). */
export function jobFailedLine(f: NonNullable<JsonReport['jobFailedForGood']>): string {
  return `  ⚠ ${failedForGoodSentence(f)}`;
}

/** {@link JsonReport.jobFailedForGood}, as a part of the report to spread. */
function jobFailed(run: Run): Pick<JsonReport, 'jobFailedForGood'> {
  const failed = flinkFailedForGood(run);
  return failed
    ? { jobFailedForGood: { component: 'flink', atMs: failed.atMs, why: failed.why } }
    : {};
}

/** Build the JSON report of a run (for a large run, print it with {@link jsonReportChunks}). */
export function jsonReport(run: Run, preset?: string, hash: TraceHasher = traceHash): JsonReport {
  const r = reportSummary(run, preset, hash);
  for (let j = 0; j < run.events.identities; j++) r.events.push(reportEvent(run, j));
  return r;
}

/** Characters gathered before {@link jsonReportChunks} hands a chunk over. */
const CHUNK_CHARS = 1 << 20;

/**
 * The `--format json` text in chunks, as `traceJsonChunks` writes the trace file: concatenated,
 * exactly `JSON.stringify(jsonReport(run), null, 2)`, but neither that string (2,000,000 events
 * make more than V8's longest string) nor the events' objects are ever whole in memory.
 */
export function* jsonReportChunks(
  run: Run,
  preset?: string,
  hash: TraceHasher = traceHash,
): Generator<string> {
  const text = JSON.stringify(reportSummary(run, preset, hash), null, 2);
  // The summary's `events` is `[]`: the items go there. Inside a JSON string a line break is
  // escaped, so this line can only be the key itself.
  const EMPTY = '\n  "events": [],\n';
  const at = text.indexOf(EMPTY);
  const n = run.events.identities;
  if (n === 0) {
    yield text;
    return;
  }
  let out = `${text.slice(0, at)}\n  "events": [`;
  for (let j = 0; j < n; j++) {
    // One item as JSON.stringify indents it at depth 2: four spaces before each of its lines.
    const item = JSON.stringify(reportEvent(run, j), null, 2).replace(/\n/g, '\n    ');
    out += `${j === 0 ? '\n' : ',\n'}    ${item}`;
    if (out.length > CHUNK_CHARS) {
      yield out;
      out = '';
    }
  }
  yield `${out}\n  ],\n${text.slice(at + EMPTY.length)}`;
}

function money(n: number): string {
  return Number.isInteger(n) ? groupDigits(n) : n.toFixed(2);
}

/** The first six ids, then "and N more" (the JSON report has them all). */
function idList(ids: readonly string[]): string {
  return `${ids.slice(0, 6).join(', ')}${ids.length > 6 ? ` and ${ids.length - 6} more` : ''}`;
}

/** "1 duplicate row", "2 duplicate rows". */
function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}

/** Stuck components listed in the text report (the JSON report has them all). */
const STUCK_LINES = 5;

/** The `--format text` report: the same facts, short and readable. */
export function textReport(run: Run, preset?: string, hash: TraceHasher = traceHash): string {
  const r = reportSummary(run, preset, hash);
  const lines: string[] = [];
  lines.push(`${r.scenario}${preset ? `  [${preset}]` : ''}`);
  lines.push(
    `seed ${r.seed} · ${r.traceEntries} trace entries · ended at ${r.endTimeMs} ms · trace ${r.traceHash.slice(0, 16)}`,
  );
  if (r.cutOffBy === 'trace-limit')
    lines.push(
      `cut off at ${r.endTimeMs} ms with work still pending: ${traceLimitWords(run)}; events not yet sent or still on their way count as lost`,
    );
  else if (r.cutOffBy === 'stuck')
    lines.push(
      `STUCK at ${r.endTimeMs} ms: nothing was left to happen, but a component waits forever — the run did not finish; events it holds count as lost`,
    );
  else if (r.cutOff)
    lines.push(
      `cut off at ${r.stopAtMs} ms (${run.scenario.stopAtMs !== undefined ? 'stopAtMs' : 'the default stop: the last event or fault + 1 h; set stopAtMs to run longer'}) with work still pending: events still on their way count as lost`,
    );
  for (const x of run.stuck.slice(0, STUCK_LINES))
    lines.push(`  ${r.cutOffBy === 'stuck' ? 'stuck' : 'still waiting'}: ${stuckLine(x)}`);
  if (run.stuck.length > STUCK_LINES)
    lines.push(`  and ${run.stuck.length - STUCK_LINES} more (the JSON report has them all)`);
  lines.push('');
  const t = r.totals;
  lines.push(
    `${r.primary}: ${plural(t.sinkRows, 'row')} for ${plural(t.events, 'event')} · ${plural(t.duplicates, 'duplicate row')} · ${t.lost} lost${r.falseMerges.length > 0 ? ` (${plural(r.falseMerges.length, 'false merge')})` : ''} · sum ${money(t.observedSum)} (true ${money(t.expectedSum)}${t.observedSum !== t.expectedSum ? `, off by ${money(t.observedSum - t.expectedSum)}` : ''})`,
  );
  // A reader's own replay: in its table, not in the counts (each record it read, once).
  const rereads = (n: number | undefined) =>
    n ? ` (+ ${plural(n, 'row')} the reader copied again itself: its own replay, not counted)` : '';
  const primary = r.points.find((p) => p.name === r.primary);
  if (primary?.rereads) lines[lines.length - 1] += rereads(primary.rereads);
  for (const p of r.points) {
    if (p.name === r.primary) continue;
    lines.push(
      `  ${p.label}: ${p.totals.rows} · ${plural(p.totals.duplicates, 'duplicate')} · ${p.totals.lost} missing${rereads(p.rereads)}`,
    );
  }
  lines.push('');
  lines.push(
    `guarantee, judged at ${primary?.label ?? r.primary}: claimed ${r.guarantee.claimed}, observed ${r.guarantee.observed} — ${r.guarantee.held ? 'held' : 'NOT held'}${r.cutOffBy === 'stuck' ? ' (so far: the run is stuck, not finished)' : r.cutOff ? ' (so far: the run was cut off, unfinished events count as lost)' : ''}`,
  );
  if (r.latencyMs.count > 0)
    lines.push(`latency to ${r.primary}: p50 ${r.latencyMs.p50} ms, p99 ${r.latencyMs.p99} ms`);
  for (const e of r.guarantee.explanations) {
    const what = e.by
      ? `↺ re-read by reader ${e.by}`
      : e.fate === 'lost'
        ? '✗ lost'
        : '⧉ duplicated';
    lines.push(`  ${what} ${idList(e.events)}: ${e.sentence}`);
  }
  // The engine explains the first anomalies only (a cap per run); say so when there are more.
  const { explained, anomalous } = explanationCoverage(run.verdict);
  if (explained < anomalous)
    lines.push(
      `  (explained: the first ${groupDigits(explained)} of ${groupDigits(anomalous)} events lost or duplicated)`,
    );
  // Named as the page names it (its id, else its number from 1), then what it does.
  for (const f of r.faultsNeverFired) {
    const spec = run.scenario.faults[f.index]!;
    lines.push(
      `  ⚠ ${faultName(spec, f.index)}, ${faultWhat(spec)}, never fired: ${f.why ?? 'its condition never came'}`,
    );
  }
  if (r.jobFailedForGood) lines.push(jobFailedLine(r.jobFailedForGood));
  if (r.falseMerges.length > 0)
    lines.push(
      `  ≡ false merges (real events taken for another with the same key): ${idList(r.falseMerges.map((m) => `${m.id} into ${m.into}`))}`,
    );
  if (r.falseFailures.length > 0)
    lines.push(
      `  ! the application was told these failed, but they were written: ${idList(r.falseFailures)}`,
    );
  return visibleControls(lines.join('\n'));
}

/** A `--diagram` value: `sequence`, `flow` or `event:<business id>`; undefined = `sequence`. */
export function diagramKind(value: string | undefined): DiagramKind | null {
  if (value === undefined || value === 'sequence') return 'sequence';
  if (value === 'flow') return 'flow';
  if (value.startsWith('event:') && value.length > 'event:'.length) return value as DiagramKind;
  return null;
}
