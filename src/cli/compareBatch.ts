/**
 * `--compare` on a batch job: the lanes run on the batch engine and are compared as the page's
 * batch Compare compares them (src/views/batch/batchCompare.ts, the one source of the per-event
 * diff, "what differs" and each lane's sentence); printed as text, JSON or Markdown.
 *
 * `--format json`: `{ lanes, refused, diff, knobs }` as for a stream (src/cli/compare.ts), each lane
 * the batch run's JSON report (src/cli/batchReport.ts) with its `lane` title, a fate's `count` its
 * rows in any partition; no `divergences` (a stream's trace entries: the batch trace has its own).
 */
import { type Scenario } from '../engine';
import {
  batchCompareOf,
  batchCompareViewMarkdown,
  rowsWords,
  type BatchCompareView,
  type BatchEventDiff,
  type BatchLaneInput,
} from '../views/batch/batchCompare';
import { batchMarkdownReport } from '../views/batch/batchMarkdown';
import type { HeadingLevel } from '../views/io/markdown';
import { batchJsonReport, batchText } from './batchReport';
import { visibleControls } from './visibleControls';
import { laneHeading } from './laneHeading';

/** An event's rows and fate lane by lane: `e1: 2 rows, duplicated | 1 row, once`. */
function diffWords(e: BatchEventDiff): string {
  return `${e.id}: ${e.cells.map((c) => (c ? `${rowsWords(c.rows)}, ${c.fate}` : '—')).join(' | ')}`;
}

function scenarioOf(l: BatchLaneInput): Scenario {
  if (!l.lane.ok) throw new Error(`lane "${l.title}" did not run: ${l.lane.reason}`);
  return l.lane.scenario;
}

function compareText(v: BatchCompareView, built: readonly BatchLaneInput[], preset?: string) {
  const lines: string[] = [];
  v.lanes.forEach((l, i) => {
    const r = v.results[i];
    const report = r
      ? batchText(r, scenarioOf(built[i]!).name, i === 0 ? (preset ?? null) : null)
      : null;
    lines.push(laneHeading(i + 1, l.title, report?.split('\n')[0] ?? null));
    lines.push(report ?? `cannot run: ${l.summary}`, '');
  });
  lines.push('── what differs');
  for (const k of v.knobs) lines.push(`  ${k.name} (${k.system}): ${k.values.join(' | ')}`);
  if (v.knobs.length === 0) lines.push('  no knob');
  v.lanes.forEach((l, i) => {
    if (l.sameAsFirst) lines.push(`  lane ${i + 1}: ${l.sameAsFirst}`);
  });
  lines.push('');
  const differing = v.events.filter((e) => e.differs);
  lines.push(
    `── per-event diff: ${v.differing} of ${v.events.length} events differ (lanes ${v.lanes.map((_, i) => i + 1).join(' | ')})`,
  );
  for (const e of differing) {
    lines.push(`  ${diffWords(e)}`);
    e.cells.forEach((c, i) => {
      if (c?.why) lines.push(`      lane ${i + 1}: ${c.why}`);
    });
  }
  return visibleControls(lines.join('\n'));
}

function compareJson(v: BatchCompareView, built: readonly BatchLaneInput[], preset?: string) {
  return {
    lanes: v.results.flatMap((r, i) =>
      r
        ? [
            {
              lane: v.lanes[i]!.title,
              ...batchJsonReport(r, scenarioOf(built[i]!), i === 0 ? (preset ?? null) : null),
            },
          ]
        : [],
    ),
    refused: built.flatMap((l, i) =>
      l.lane.ok ? [] : [{ lane: i + 1, title: l.title, reason: l.lane.reason }],
    ),
    diff: v.events
      .filter((e) => e.differs)
      .map((e) => ({
        id: e.id,
        fates: e.cells.map((c) => ({
          count: c?.rows ?? null,
          fate: c?.fate ?? null,
          ...(c?.why ? { why: c.why } : {}),
        })),
      })),
    knobs: v.knobs.map((k) => ({ path: k.path, name: k.name, values: k.values })),
  };
}

/** The runner's `--compare` of batch lanes (every lane a batch job; one that cannot run, refused). */
export function runBatchCompare(
  built: readonly BatchLaneInput[],
  preset: string | undefined,
  format: string,
  headingLevel: HeadingLevel | undefined,
  out: (s: string) => void,
): void {
  const v = batchCompareOf(built);
  const text =
    format === 'json'
      ? JSON.stringify(compareJson(v, built, preset), null, 2)
      : format === 'markdown'
        ? `${batchMarkdownReport(scenarioOf(built[0]!), {
            ...(preset ? { preset } : {}),
            ...(headingLevel ? { headingLevel } : {}),
          }).trimEnd()}\n\n${batchCompareViewMarkdown(v, headingLevel).trimEnd()}`
        : compareText(v, built, preset);
  out(`${text}\n`);
}
