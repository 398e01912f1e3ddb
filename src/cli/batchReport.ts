/**
 * The CLI's report of a batch scenario (docs/semantics/batch.md): the runs and attempts on the
 * calendar, the table by partition with misplaced rows marked, the verdict and its stories; as
 * text, JSON or Markdown (the page's batch report, src/views/batch/batchMarkdown.ts). `--check`
 * compares it with the scenario's `expect` block.
 */
import { createHash } from 'node:crypto';
import {
  attemptOutcomeWords,
  attemptWords,
  backfillSkips,
  batchFaultsNeverFired,
  compareBatchExpect,
  neverFiredWords,
  periodLabel,
  rowsPerEvent,
  runBatch,
  windowWords,
  type BatchEntry,
  type BatchResult,
  type Scenario,
} from '../engine';
import type { HeadingLevel } from '../views/io/markdown';
import { formatCountOf } from '../views/run/format';
import { batchSetupView } from '../views/batch/batchSetup';
import { optionalPart } from './optionalParts';
import { pinOfRun } from './scenarioEngine';
import { acceptNow, mismatchLine, pinJson, repinned } from './repin';

/** The table grouped by partition: each row's event, and `!` when it is not its own date. */
function partitionsOf(
  r: BatchResult,
): { partition: string; rows: { event: string; wrong: boolean }[] }[] {
  const own = new Map(r.verdict.events.map((e) => [e.id, e.partition]));
  const parts = [...new Set(r.run.table.rows.map((x) => x.partition))].sort((a, b) => a - b);
  return parts.map((p) => ({
    partition: periodLabel(r.run.calendar, p),
    rows: r.run.table.rows
      .filter((x) => x.partition === p)
      .map((x) => ({ event: x.eventId, wrong: own.get(x.eventId) !== p })),
  }));
}

export function batchText(r: BatchResult, name: string, ref: string | null): string {
  const v = r.verdict;
  const t = v.totals;
  const lines = [`${name}${ref ? ` (${ref})` : ''} — batch trace ${r.run.hash}`, '', 'Job:'];
  // The job's setup, as the page shows it before Play: the dedupe store and what is planned to
  // fail are read off the report, not the file.
  const setup = batchSetupView(r.run);
  for (const f of setup.facts) lines.push(`  ${f.what}: ${f.words}`);
  for (const p of setup.planned) lines.push(`  Planned: ${p}`);
  lines.push('', 'Runs:');
  r.run.attempts.forEach((a, i) => {
    lines.push(
      `  ${attemptWords(r.run, i)}: ${attemptOutcomeWords(a)}, ${windowWords(r.run, i)}, read ${formatCountOf(a.read.length, 'row')}`,
    );
  });
  // A date a backfill gave no run (its latest run queued or running): else the backfill's
  // missing run is said nowhere.
  for (const s of backfillSkips(r.run)) lines.push(`  ${s.words}`);
  for (const f of batchFaultsNeverFired(r.run)) lines.push(`  ⚠ ${neverFiredWords(f)}`);
  lines.push('', 'Table by partition (! = under the wrong partition):');
  for (const p of partitionsOf(r))
    lines.push(
      `  ${p.partition}: ${p.rows.map((x) => (x.wrong ? `${x.event}!` : x.event)).join(' ')}`,
    );
  lines.push(
    '',
    `Rows ${t.rows}, sum ${t.observedSum} of ${t.expectedSum}; duplicates ${t.duplicates}, lost ${t.lost} (false merges ${t.falseMerges}), rows under the wrong partition ${t.wrongPartitionRows}.`,
    `Claimed ${v.claimed}, observed ${v.observed}: ${v.held ? 'held' : 'broken'}.`,
  );
  for (const e of r.explanations) lines.push(`  ${e.fate} ${e.events.join(', ')}: ${e.sentence}`);
  return lines.join('\n');
}

/**
 * The batch trace's SHA-256, hex: over the same bytes as its short `hash` (each entry's JSON, one
 * a line, src/engine/batch/trace.ts), so `traceHash` means what the stream's report says: the
 * trace, hashed with SHA-256.
 */
function batchTraceSha256(entries: readonly BatchEntry[]): string {
  const hash = createHash('sha256');
  entries.forEach((e, i) => hash.update(`${i === 0 ? '' : '\n'}${JSON.stringify(e)}`));
  return hash.digest('hex');
}

/**
 * The `--format json` object of a batch run: the contract's common fields (docs/cli.md: `scenario`,
 * `preset`, `seed`, `traceHash`, `totals`, `guarantee`, with the stream report's meaning: `totals`
 * of the target table, `sinkRows` its rows), then the batch job's own.
 */
export function batchJsonReport(r: BatchResult, scenario: Scenario, ref: string | null) {
  const v = r.verdict;
  const t = v.totals;
  const rows = rowsPerEvent(v);
  return {
    scenario: scenario.name,
    preset: ref,
    seed: scenario.seed,
    traceHash: batchTraceSha256(r.run.trace),
    totals: {
      events: t.events,
      sinkRows: t.rows,
      duplicates: t.duplicates,
      lost: t.lost,
      expectedSum: t.expectedSum,
      observedSum: t.observedSum,
      // Events whose amount the table counts twice or more: two rows or more, in any partition.
      doubleCounted: v.events.filter((e) => (rows[e.id] ?? 0) >= 2).length,
    },
    guarantee: {
      claimed: v.claimed,
      observed: v.observed,
      held: v.held,
      explanations: r.explanations.map(({ fate, events, sentence, entries }) => ({
        fate,
        events,
        sentence,
        entries,
      })),
    },
    hash: r.run.hash,
    attempts: r.run.attempts.map((a, i) => ({ ...a, words: attemptWords(r.run, i) })),
    statements: r.run.statements,
    backfillSkips: backfillSkips(r.run),
    faultsNeverFired: batchFaultsNeverFired(r.run),
    partitions: partitionsOf(r),
    verdict: {
      ...v,
      events: v.events.map((e) => ({ ...e, wrongRows: Object.fromEntries(e.wrongRows) })),
    },
    explanations: r.explanations,
  };
}

/** What a batch job cannot give: a message sequence to draw (src/views/batch/batchExport.ts). */
export const BATCH_NO_DIAGRAM =
  'is not available for batch jobs: a batch job has no message sequence to draw (its report lists the attempts and the table by partition)';

/** Run a batch scenario for the CLI: exit code 0, or 3 on a `--check` mismatch. */
export function runBatchCli(
  scenario: Scenario,
  ref: string | null,
  format: string,
  check: boolean,
  out: (s: string) => void,
  err: (s: string) => void,
  /** `fromFile`: the scenario is a file, whose pin can be edited (say how to accept the run). */
  { headingLevel, fromFile = false }: { headingLevel?: HeadingLevel; fromFile?: boolean } = {},
): number {
  const r = runBatch(scenario);
  const report =
    format === 'json'
      ? JSON.stringify(batchJsonReport(r, scenario, ref), null, 2)
      : format === 'markdown'
        ? optionalPart('diagrams')
            .batchMarkdownReport(scenario, {
              ...(ref ? { preset: ref } : {}),
              ...(headingLevel ? { headingLevel } : {}),
            })
            .trimEnd()
        : batchText(r, scenario.name, ref);
  out(`${report}\n`);
  if (!check) return 0;
  if (!scenario.expect) {
    err('--check: the scenario has no "expect" block');
    if (fromFile) err(acceptNow(`add "expect": ${pinJson(pinOfRun(scenario))}`));
    return 3;
  }
  const diff = [
    ...compareBatchExpect(r, scenario.expect),
    ...(scenario.expect.atlas
      ? optionalPart('atlasPin').atlasMismatches(scenario, scenario.expect.atlas)
      : []),
  ];
  for (const d of diff) err(mismatchLine(d));
  if (diff.length > 0 && fromFile)
    err(acceptNow(`set its "expect" block to ${pinJson(repinned(scenario.expect, diff))}`));
  if (diff.length > 0) return 3;
  err('check: the run matches the "expect" block');
  return 0;
}
