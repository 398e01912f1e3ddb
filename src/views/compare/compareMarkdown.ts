/**
 * The "Compare" section of the Markdown report: the lanes with their verdicts and trace hashes,
 * what differs (knobs under their real names, where the runs part), and the per-event diff, the
 * events whose fate differs listed with each lane's sentence. Every scenario string is escaped
 * with `markdownText`, as in the rest of the report (src/views/io/markdown.ts).
 */
import { traceHash, type Run } from '../../engine';
import { formatMs } from '../run/format';
import { DEFAULT_HEADING_LEVEL, heading, markdownText, type HeadingLevel } from '../io/markdown';
import type { ComparedRuns } from './compareRuns';
import { fateWords } from './diff';

/** Differing events listed in full; more are counted. */
const EVENTS_LISTED = 50;

/** The section, ending with a newline; `level` is the report's title level (it is one below). */
export function compareMarkdown(
  c: ComparedRuns,
  hash: (r: Run) => string = (r) => traceHash(r.trace),
  level: HeadingLevel = DEFAULT_HEADING_LEVEL,
): string {
  const out: string[] = [heading(level, 1, 'Compare'), ''];
  out.push('| Lane | Verdict | Rows | Duplicates | Lost | Trace |');
  out.push('|---|---|--:|--:|--:|---|');
  c.lanes.forEach((l, i) => {
    const name = `${i + 1}. ${markdownText(l.title)}`;
    if (!l.ok) {
      out.push(`| ${name} | ${markdownText(l.reason, 600)} | | | | |`);
      return;
    }
    const v = l.run.verdict;
    const t = v.points.find((p) => p.name === v.primary)!.totals;
    out.push(
      `| ${name} | claimed ${v.claimed}, observed ${v.observed}: ${v.held ? 'held' : '**not held**'} | ${t.rows} | ${t.duplicates} | ${t.lost} | \`${hash(l.run).slice(0, 16)}\` |`,
    );
  });
  out.push('');
  const m = c.model;
  if (!m) return `${out.join('\n').trimEnd()}\n`;
  // The model is of the lanes that ran: their numbers among all lanes.
  const no = c.lanes.flatMap((l, i) => (l.ok ? [i + 1] : []));
  for (const [i, u] of m.unfired.entries())
    for (const f of u) out.push(`- Lane ${no[i]}: ${markdownText(f.text, 600)}`);
  if (m.unfired.some((u) => u.length > 0)) out.push('');

  out.push(heading(level, 2, 'What differs'), '');
  if (m.knobs.length > 0) {
    out.push(`| Knob | ${no.map((n) => `Lane ${n}`).join(' | ')} |`);
    out.push(`|---|${no.map(() => '---').join('|')}|`);
    for (const k of m.knobs)
      out.push(
        `| \`${k.name}\` (${markdownText(k.system)}) | ${k.values.map((v) => markdownText(v)).join(' | ')} |`,
      );
    out.push('');
  } else out.push('No knob differs.', '');
  m.divergences.forEach((d, i) => {
    out.push(
      d === null
        ? `- Lane ${no[i + 1]} runs exactly as lane ${no[0]} (identical traces).`
        : `- Lane ${no[i + 1]} departs from lane ${no[0]} at ${formatMs(d.time)} (entry ${d.entry + 1}): lane ${no[0]} — ${markdownText(d.base ?? 'its run has ended')}; lane ${no[i + 1]} — ${markdownText(d.other ?? 'its run has ended')}.`,
    );
  });
  out.push('');

  out.push(heading(level, 2, 'Events whose fate differs'), '');
  const differing = m.diff.filter((r) => r.differs);
  if (differing.length === 0) out.push('Every event has the same fate in every lane.');
  for (const r of differing.slice(0, EVENTS_LISTED)) {
    out.push(
      `- **${markdownText(r.id, 60)}**: ${r.fates.map((f, i) => fateWords(f, m.outcomes[i]!.unit)).join(' | ')}`,
    );
    r.fates.forEach((f, i) => {
      if (f.why) out.push(`  - lane ${no[i]}: ${markdownText(f.why, 2000)}`);
    });
  }
  if (differing.length > EVENTS_LISTED) out.push(`- and ${differing.length - EVENTS_LISTED} more`);
  out.push('', `${m.diff.length - differing.length} other events: the same in every lane.`);
  return `${out.join('\n').trimEnd()}\n`;
}
