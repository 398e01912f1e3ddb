/**
 * Compare for a batch job: the same source table, schedule and faults in every lane, each lane
 * with its own guarantee recipe or knobs (src/views/compare/lanes.ts builds the lanes, as for a
 * stream), run through the batch engine; then the per-event diff — each event's rows (in any
 * partition) and fate in every lane, the events whose fate or row count differ marked, each with
 * its lane's one-sentence why: the batch explanation (src/engine/explain/batch.ts) that names it,
 * as the stream's Compare takes its lanes' sentences from their explanations.
 */
import {
  rowsPerEvent,
  runBatch,
  type BatchExplanation,
  type BatchFate,
  type BatchResult,
  type Guarantee,
  type BatchVerdict,
  type Scenario,
  type ScenarioInput,
} from '../../engine';
import { knobDifferences } from '../compare/knobDiff';
import { laneScenarios, laneTitle, type CompareSpec, type LaneScenario } from '../compare/lanes';
import { DEFAULT_HEADING_LEVEL, heading, markdownText, type HeadingLevel } from '../io/markdown';
import { batchTotalsWords } from './observedWords';
import { formatCountOf } from '../run/format';

/**
 * The job's fields a batch Compare lane may set otherwise, by their path in the scenario format
 * (docs/format.md#batch-jobs, docs/semantics/batch.md), each with the values it takes — what
 * `sim --compare batch.dedupe.ttlMs=86400000` sets on the command line, offered in the page's lanes.
 */
export const BATCH_LANE_FIELDS: readonly { path: string; values: string }[] = [
  { path: 'batch.task.retries', values: '0–20' },
  { path: 'batch.task.retryDelayMs', values: 'ms' },
  { path: 'batch.catchup', values: 'true / false' },
  { path: 'batch.window', values: 'pinned / clock' },
  { path: 'batch.write.mode', values: 'append / overwrite-partition / merge / dbt-incremental' },
  { path: 'batch.write.as', values: 'insert-overwrite / replace-where / delete-insert' },
  { path: 'batch.write.uniqueKey', values: 'true / false' },
  { path: 'batch.write.strategy', values: 'append / merge / delete+insert / insert_overwrite' },
  { path: 'batch.write.partitionBy', values: 'logical-date / clock / event-date' },
  { path: 'batch.write.atomic', values: 'true / false' },
  { path: 'batch.dedupe.store', values: 'redis / table' },
  { path: 'batch.dedupe.ttlMs', values: 'ms' },
  { path: 'batch.dedupe.order', values: 'claim-then-write / write-then-claim / one-transaction' },
  { path: 'batch.dedupe.write', values: 'per-row / batch' },
];

interface BatchLaneView {
  title: string;
  /** "20 rows · 10 duplicates · 0 lost · observed at-least-once", or why the lane cannot run. */
  summary: string;
  held: boolean | null;
  /**
   * Lanes after the first whose rows and fates are lane 1's, event for event: what the switch
   * sets cannot change this job's outcome — said, rather than three identical lanes in silence.
   */
  sameAsFirst: string | null;
}

/**
 * What a guarantee's batch recipe sets (docs/semantics/batch.md "The guarantee switch"): a job
 * that breaks through something else (a backfill beside production, an expired dedupe claim)
 * runs the same under every guarantee.
 */
const RECIPE_SETS =
  'retries, the write mode and its atomicity, the window and the target partition';

/** One event in one lane: its rows, its fate, and why (null when it is there exactly once). */
interface BatchEventCell {
  rows: number;
  fate: BatchFate;
  why: string | null;
}

export interface BatchEventDiff {
  id: string;
  /** Per lane: rows, fate and why, null where the lane cannot run. */
  cells: (BatchEventCell | null)[];
  /** The lanes that ran disagree on its rows or its fate. */
  differs: boolean;
}

export interface BatchCompareView {
  lanes: BatchLaneView[];
  /** "What differs": the claim and the knobs set otherwise, then the job's own fields, per lane. */
  knobs: { path: string; name: string; system: string; values: string[] }[];
  events: BatchEventDiff[];
  /** How many events differ between the lanes. */
  differing: number;
  /** Each lane's batch run, null where the lane cannot run. */
  results: (BatchResult | null)[];
}

export function batchCompareView(base: ScenarioInput, spec: CompareSpec): BatchCompareView {
  return batchCompareOf(
    laneScenarios(base, spec).map((lane, i) => {
      const l = i === 0 ? null : spec.lanes[i - 1]!;
      return { title: laneTitle(base, l), lane, guarantee: l?.guarantee };
    }),
  );
}

/** One lane as built: its title, its scenario (or why none), and the guarantee it switched to. */
export interface BatchLaneInput {
  title: string;
  lane: LaneScenario;
  guarantee?: Guarantee | undefined;
}

/**
 * Compare of lanes already built — the page's from its Compare spec ({@link batchCompareView}),
 * the CLI's `--compare` from its lanes (another scenario among them: src/cli/compare.ts).
 */
export function batchCompareOf(built: readonly BatchLaneInput[]): BatchCompareView {
  const results = built.map(({ lane: l }) =>
    l.ok && l.scenario.batch ? runBatch(l.scenario) : null,
  );
  const lanes = built.map(({ title, lane: l, guarantee: g }, i): BatchLaneView => {
    const r = results[i];
    if (!r)
      return {
        title,
        summary: l.ok ? 'not a batch job' : l.reason,
        held: null,
        sameAsFirst: null,
      };
    const first = results[0];
    return {
      title,
      summary: batchTotalsWords(r.verdict),
      held: r.verdict.held,
      sameAsFirst:
        i > 0 && first && sameRun(first.verdict, r.verdict)
          ? `the same rows and fates as lane 1, event for event: ${g === undefined ? 'these settings do' : `the ${g} recipe sets ${RECIPE_SETS}${g !== 'at-most-once' && results[0]?.run.config.dedupe ? ' (and takes the dedupe store away)' : ''}, and that does`} not change what breaks this job`
          : null,
    };
  });
  const first = results.find((r) => r !== null);
  const perLane = results.map((r) =>
    r
      ? {
          rows: rowsPerEvent(r.verdict),
          fates: new Map(r.verdict.events.map((e) => [e.id, e.fate])),
          why: sentences(r.explanations),
        }
      : null,
  );
  const events = (first?.verdict.events ?? []).map((e): BatchEventDiff => {
    const cells = perLane.map((l) =>
      l
        ? { rows: l.rows[e.id] ?? 0, fate: l.fates.get(e.id)!, why: l.why.get(e.id) ?? null }
        : null,
    );
    const ran = cells.filter((c) => c !== null);
    const differs = ran.some((c) => c.rows !== ran[0]!.rows || c.fate !== ran[0]!.fate);
    return { id: e.id, cells, differs };
  });
  const ran = built.flatMap(({ lane: l }) => (l.ok ? [l.scenario] : []));
  const knobs = ran.length === built.length && ran.length > 1 ? laneDifferences(ran) : [];
  return { lanes, knobs, events, differing: events.filter((e) => e.differs).length, results };
}

/** Whether two runs wrote the same rows for each event, with the same fates. */
function sameRun(a: BatchVerdict, b: BatchVerdict): boolean {
  const ra = rowsPerEvent(a);
  const rb = rowsPerEvent(b);
  return (
    a.events.length === b.events.length &&
    a.events.every((e, i) => b.events[i]!.id === e.id && b.events[i]!.fate === e.fate) &&
    a.events.every((e) => (ra[e.id] ?? 0) === (rb[e.id] ?? 0))
  );
}

/** Each explained event's sentence: its group's template with its own id (as the stream's diff). */
function sentences(explanations: readonly BatchExplanation[]): Map<string, string> {
  const out = new Map<string, string>();
  for (const x of explanations)
    for (const id of x.events) if (!out.has(id)) out.set(id, x.template.replaceAll('{id}', id));
  return out;
}

/** `1 row` or `2 rows`. */
export function rowsWords(n: number): string {
  return formatCountOf(n, 'row');
}

/** An event's rows lane by lane, as the issue writes a diff line: `e5: 2 rows | 1 row | —`. */
export function diffLine(e: BatchEventDiff): string {
  return `${e.id}: ${e.cells.map((c) => (c ? rowsWords(c.rows) : '—')).join(' | ')}`;
}

/** The job's fields compared lane by lane (not its source rows or faults: every lane keeps those). */
const SAME_IN_EVERY_LANE = new Set(['source', 'faults']);

/**
 * What differs between the lanes' scenarios: the knobs the stream's Compare lists (the claim
 * first, src/views/compare/knobDiff.ts), then each field of the batch job set otherwise, by its
 * path in the scenario format (`batch.write`), since the guarantee's batch recipe sets those.
 */
function laneDifferences(lanes: readonly Scenario[]): BatchCompareView['knobs'] {
  const out: BatchCompareView['knobs'] = knobDifferences(lanes).map((k) => ({
    path: k.path,
    name: k.name,
    system: k.system,
    values: k.values,
  }));
  const jobs = lanes.map((s) => leaves(s.batch ?? {}, 'batch'));
  const paths = [...new Set(jobs.flatMap((j) => [...j.keys()]))].filter(
    (p) => p !== 'batch.dedupeKey' && !SAME_IN_EVERY_LANE.has(p.split('.')[1]!),
  );
  for (const p of paths) {
    const values = jobs.map((j) => j.get(p) ?? '—');
    if (values.some((v) => v !== values[0]))
      out.push({ path: p, name: p, system: 'batch job', values });
  }
  return out;
}

/** Each leaf of an object by its dotted path (`batch.task.retries`), its value as JSON text. */
function leaves(
  value: unknown,
  path: string,
  out = new Map<string, string>(),
): Map<string, string> {
  if (typeof value === 'object' && value !== null && !Array.isArray(value))
    for (const [k, v] of Object.entries(value)) leaves(v, `${path}.${k}`, out);
  else out.set(path, JSON.stringify(value));
  return out;
}

/** Compare's section of a batch job's Markdown report: each lane, then the events that differ. */
export function batchCompareMarkdown(base: ScenarioInput, spec: CompareSpec): string {
  return batchCompareViewMarkdown(batchCompareView(base, spec));
}

/** {@link batchCompareMarkdown} of a compare already run; `level`: the report's heading level. */
export function batchCompareViewMarkdown(
  v: BatchCompareView,
  level: HeadingLevel = DEFAULT_HEADING_LEVEL,
): string {
  const out = [heading(level, 1, 'Compare'), ''];
  for (const l of v.lanes) out.push(`- ${markdownText(l.title)}: ${markdownText(l.summary)}`);
  out.push('', `${v.differing} of ${v.events.length} events differ between the lanes.`);
  const differing = v.events.filter((e) => e.differs);
  if (differing.length > 0) {
    out.push('', `| Event | ${v.lanes.map((l) => markdownText(l.title)).join(' | ')} |`);
    out.push(`|---|${v.lanes.map(() => '---').join('|')}|`);
    for (const e of differing)
      out.push(
        `| ${markdownText(e.id)} | ${e.cells.map((c) => (c ? `${rowsWords(c.rows)}, ${c.fate}` : '—')).join(' | ')} |`,
      );
    // Each lane's sentence under the table, as the stream's Compare section lists them.
    for (const e of differing)
      e.cells.forEach((c, i) => {
        if (c?.why)
          out.push(`- ${markdownText(e.id)}, lane ${i + 1}: ${markdownText(c.why, 2000)}`);
      });
  }
  return `${out.join('\n')}\n`;
}
