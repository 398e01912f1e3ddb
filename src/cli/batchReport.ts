/**
 * The CLI's report of a batch scenario (docs/semantics/batch.md): the runs and attempts on the
 * calendar, the table by partition with misplaced rows marked, the verdict and its stories; as
 * text, JSON or Markdown (the page's batch report, src/views/batch/batchMarkdown.ts). `--check`
 * compares it with the scenario's `expect` block.
 */
import {
  attemptWords,
  compareBatchExpect,
  periodLabel,
  runBatch,
  windowWords,
  type BatchResult,
  type Scenario,
} from '../engine';
import type { HeadingLevel } from '../views/io/markdown';
import { optionalPart } from './optionalParts';

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

function batchText(r: BatchResult, name: string, ref: string | null): string {
  const v = r.verdict;
  const t = v.totals;
  const lines = [`${name}${ref ? ` (${ref})` : ''} — batch trace ${r.run.hash}`, '', 'Runs:'];
  r.run.attempts.forEach((a, i) => {
    lines.push(
      `  ${attemptWords(r.run, i)}: ${a.outcome}${a.crash ? ` (${a.crash.point})` : ''}, ${windowWords(r.run, i)}, read ${a.read.length} rows`,
    );
  });
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

function batchJson(r: BatchResult, ref: string | null): string {
  return JSON.stringify(
    {
      preset: ref,
      hash: r.run.hash,
      attempts: r.run.attempts.map((a, i) => ({ ...a, words: attemptWords(r.run, i) })),
      statements: r.run.statements,
      partitions: partitionsOf(r),
      verdict: {
        ...r.verdict,
        events: r.verdict.events.map((e) => ({ ...e, wrongRows: Object.fromEntries(e.wrongRows) })),
      },
      explanations: r.explanations,
    },
    null,
    2,
  );
}

/** Run a batch scenario for the CLI: exit code 0, or 3 on a `--check` mismatch. */
export function runBatchCli(
  scenario: Scenario,
  ref: string | null,
  format: string,
  check: boolean,
  out: (s: string) => void,
  err: (s: string) => void,
  headingLevel?: HeadingLevel,
): number {
  const r = runBatch(scenario);
  const report =
    format === 'json'
      ? batchJson(r, ref)
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
    return 3;
  }
  const diff = compareBatchExpect(r, scenario.expect);
  for (const d of diff) err(`expect mismatch: ${d.path}: expected ${d.expected}, got ${d.actual}`);
  if (diff.length > 0) return 3;
  err('check: the run matches the "expect" block');
  return 0;
}
