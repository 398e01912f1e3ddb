/**
 * The Markdown report of a batch job ("Export → Report (Markdown)" on a batch scenario): the
 * verdict, the counts, each attempt with the window it read, the table by partition with the rows
 * under the wrong partition marked, and the stories. Scenario strings are escaped as in the
 * stream's report (./markdown.ts), whose headings and escaping it shares.
 */
import {
  attemptOutcomeWords,
  attemptWords,
  backfillSkips,
  batchFaultsNeverFired,
  neverFiredWords,
  windowWords,
  type Scenario,
} from '../../engine';
import { DEFAULT_HEADING_LEVEL, heading, markdownText, type MarkdownOptions } from '../io/markdown';
import { batchPageView } from './batchView';
import { formatCountOf } from '../run/format';
import { batchSetupView } from './batchSetup';
import { runBatch } from '../../engine';

export function batchMarkdownReport(
  scenario: Scenario,
  opts: Pick<MarkdownOptions, 'headingLevel' | 'preset'> = {},
): string {
  const r = runBatch(scenario);
  const v = r.verdict;
  const t = v.totals;
  const level = opts.headingLevel ?? DEFAULT_HEADING_LEVEL;
  const section = (text: string) => heading(level, 1, text);
  const out: string[] = [heading(level, 0, markdownText(scenario.name)), ''];
  if (scenario.description) out.push(markdownText(scenario.description, 4000, true), '');
  const facts = [`a batch job`, `${t.events} events`, `batch trace \`${r.run.hash}\``];
  if (opts.preset) facts.unshift(`preset \`${opts.preset.replace(/[^\w/.-]/g, '')}\``);
  out.push(facts.join(' · '), '');
  out.push(section('Verdict'), '');
  out.push(
    `Claimed **${v.claimed}**, observed **${v.observed}**: the claim ${v.held ? 'held' : 'did **not** hold'}.`,
    '',
    `${formatCountOf(t.rows, 'row')}, sum ${t.observedSum} of ${t.expectedSum}; ${formatCountOf(t.duplicates, 'duplicate')}, ${t.lost} lost (${formatCountOf(t.falseMerges, 'false merge')}), ${formatCountOf(t.wrongPartitionRows, 'row')} under the wrong partition.`,
    '',
  );
  // The job's setup, as the page shows it before Play and the CLI's text report opens with it.
  const setup = batchSetupView(r.run);
  out.push(section('Job'), '');
  for (const f of setup.facts) out.push(`- ${f.what}: ${markdownText(f.words)}`);
  for (const p of setup.planned) out.push(`- Planned: ${markdownText(p)}`);
  out.push('');
  out.push(section('Runs'), '');
  r.run.attempts.forEach((a, i) => {
    const how = attemptOutcomeWords(a);
    out.push(
      `- ${markdownText(attemptWords(r.run, i))}: ${how}, ${markdownText(windowWords(r.run, i))}, read ${formatCountOf(a.read.length, 'row')}`,
    );
  });
  for (const s of backfillSkips(r.run)) out.push(`- ${markdownText(s.words)}`);
  for (const f of batchFaultsNeverFired(r.run)) out.push(`- ⚠ ${markdownText(neverFiredWords(f))}`);
  out.push('', section('Table by partition'), '');
  const view = batchPageView({ ok: true, scenario });
  if (!('error' in view))
    for (const p of view.partitions)
      out.push(
        `- ${p.label}: ${p.rows.map((x) => markdownText(x.event) + (x.wrong ? ' (**wrong partition**)' : '')).join(', ')}`,
      );
  if (r.explanations.length > 0) {
    out.push('', section('Why'), '');
    for (const e of r.explanations)
      out.push(
        `- **${e.fate}** ${e.events.map((id) => markdownText(id)).join(', ')}: ${markdownText(e.sentence, 1000)}`,
      );
  }
  return `${out.join('\n')}\n`;
}
