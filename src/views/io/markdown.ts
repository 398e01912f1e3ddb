/**
 * The Markdown report of a run, for docs pipelines and postmortems (`--format markdown` in the CLI,
 * "Export → Markdown" in the page): the scenario, the verdict, the counts at every observation
 * point, the explanations, the knobs that decide the guarantee, the faults, and a diagram in a
 * ```` ```mermaid ```` block (GitHub, GitLab and most docs sites render it).
 *
 * Its title is an H2 by default (`headingLevel`), its sections one level below: the report drops
 * into a docs page under the page's own H1 (CommonMark ATX headings, levels 1–6:
 * https://spec.commonmark.org/0.31.2/#atx-headings). Its diagram is the first anomaly's, from its
 * cause (src/views/diagrams/anomalyDiagram.ts), not every produce and ack of the run.
 *
 * Scenario strings are data: {@link markdownText} escapes them so that a name or business id can
 * never become a heading, a list, a table cell boundary, a link, an image, raw HTML, an entity, a
 * code span or math — it always reads as the characters it is.
 * CommonMark: https://spec.commonmark.org/0.31.2/#backslash-escapes ; GFM tables and autolinks:
 * https://github.github.com/gfm/
 */
import {
  columnNamesWords,
  describeFault,
  failedForGoodSentence,
  flinkFailedForGood,
  groupDigits,
  stuckLine,
  type Run,
} from '../../engine';
import { getKnob } from '../../scenarios';
import { UNSET_DEFAULT_NOTE, formatKnobValue, knobsFor } from '../edit/knobs';
import { anomalyDiagram } from '../diagrams/anomalyDiagram';
import { diagramOf, type DiagramKind } from '../diagrams/mermaid';
import { truncate } from '../diagrams/mermaidText';

/** Longest scenario string kept in the report (code points); the description is longer. */
const TEXT_MAX = 300;
const DESCRIPTION_MAX = 4000;
/** Business ids listed per explanation before "and N more". */
const IDS_LISTED = 8;

/**
 * Escape untrusted text for inline Markdown: one line (line breaks and controls become spaces),
 * cut to `max` code points, every character with inline meaning backslash-escaped
 * (`` \ ` * _ { } [ ] < > | # ! ~ & $ ``; parentheses only act after `]`), URL schemes and `www.` broken so that GFM does
 * not autolink them, and — with `lineStart` — a first character that could open a block (list,
 * heading, quote, thematic break, ordered list) escaped too.
 */
export function markdownText(text: string, max = TEXT_MAX, lineStart = false): string {
  const oneLine = truncate(text, max)
    .replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]+/g, ' ')
    .replace(/ {2,}/g, ' ');
  let out = oneLine
    .replace(/[\\`*_{}[\]<>|#!~&$]/g, '\\$&')
    .replace(/:\/\//g, ':\\/\\/')
    .replace(/\bwww\./gi, (m) => `${m.slice(0, 3)}\\.`);
  if (lineStart) {
    out = out.replace(/^\s+/, '');
    if (/^[-+=>]/.test(out)) out = `\\${out}`;
    out = out.replace(/^(\d{1,9})([.)])/, '$1\\$2');
  }
  return out;
}

/** A number as the report shows it (thousands separated, two decimals when fractional). */
function num(n: number): string {
  return Number.isInteger(n) ? groupDigits(n) : n.toFixed(2);
}

/** The knobs that decide what is lost or duplicated (the rest are in the scenario file). */
const DECISIVE = new Set([
  'producer.acks',
  'producer.enable.idempotence',
  'producer.retries',
  'producer.max.in.flight.requests.per.connection',
  'producer.transactional.id',
  'producer.app.onFailure',
  'broker.replication.factor',
  'broker.min.insync.replicas',
  'broker.unclean.leader.election.enable',
  'processor.enable.auto.commit',
  'processor.auto.commit.interval.ms',
  'processor.auto.offset.reset',
  'processor.restart-strategy.type',
  'processor.restart-strategy.fixed-delay.attempts',
  'processor.commit',
  'processor.processing.mode',
  'processor.isolation.level',
  'processor.max.poll.records',
  'processor.onStatementError',
  'processor.execution.checkpointing.interval',
  'processor.execution.checkpointing.mode',
  'processor.execution.checkpointing.timeout',
  'processor.execution.checkpointing.tolerable-failed-checkpoints',
  'processor.offsetsInitializer',
  'processor.trigger.processingTime',
  'processor.startingOffsets',
  'sink.statement',
  'sink.set',
  'sink.key',
  'sink.uniqueKey',
  'sink.xa',
  'sink.retries',
  'sink.deliveryGuarantee',
  'sink.transactional.id',
  'sink.transactionalIdPrefix',
  'sink.transaction.timeout.ms',
  'broker.transaction.max.timeout.ms',
  'sink.txnAppId',
  'sink.mode',
  'sink.idempotencyKey',
]);

/** The report's title levels: its sections are one level below, the Compare's subsections two. */
export type HeadingLevel = 1 | 2 | 3 | 4;
/** An H2: the report sits under the H1 of the docs page that includes it. */
export const DEFAULT_HEADING_LEVEL: HeadingLevel = 2;

/** A `--heading-level` value, or null: one digit from 1 to 4. */
export function parseHeadingLevel(text: string): HeadingLevel | null {
  return /^[1-4]$/.test(text) ? (Number(text) as HeadingLevel) : null;
}

/** An ATX heading `depth` levels below the report's title (0: the title). */
export function heading(level: HeadingLevel, depth: number, text: string): string {
  return `${'#'.repeat(level + depth)} ${text}`;
}

/** Options of {@link markdownReport}. */
export interface MarkdownOptions {
  /**
   * Which diagram goes in the mermaid block (default `anomaly`: the first anomaly from its cause,
   * or the whole run's sequence when every event was applied once); null: no diagram.
   */
  diagram?: DiagramKind | null;
  /** The title's level (default {@link DEFAULT_HEADING_LEVEL}); sections are one below. */
  headingLevel?: HeadingLevel;
  /** The preset it came from (`preset/variant`), shown under the title. */
  preset?: string;
  /** The run's trace hash (hex), shown under the title when given. */
  traceHash?: string;
}

/**
 * The Markdown report of a run.
 * @returns Markdown text ending with a newline. Every scenario string in it is escaped with
 *   {@link markdownText}; the mermaid block holds `views/mermaid` text (entity-encoded, no
 *   backtick), so it cannot close its fence.
 */
export function markdownReport(run: Run, opts: MarkdownOptions = {}): string {
  const s = run.scenario;
  const v = run.verdict;
  const level = opts.headingLevel ?? DEFAULT_HEADING_LEVEL;
  const section = (text: string) => heading(level, 1, text);
  const out: string[] = [];
  out.push(heading(level, 0, markdownText(s.name)), '');
  if (s.description) out.push(markdownText(s.description, DESCRIPTION_MAX, true), '');
  const facts = [
    `seed ${s.seed}`,
    `${num(run.events.identities)} business events`,
    `${num(run.trace.length)} trace entries`,
    `ended at ${num(run.endTime)} ms${run.cutOffBy === 'trace-limit' ? ' (trace limit reached, work pending)' : run.cutOffBy === 'stuck' ? ' (**stuck**: a component waits forever)' : run.cutOff ? ' (stopAtMs, work pending)' : ''}`,
  ];
  if (opts.preset) facts.unshift(`preset \`${opts.preset.replace(/[^\w/.-]/g, '')}\``);
  if (opts.traceHash)
    facts.push(`trace \`${opts.traceHash.replace(/[^0-9a-f]/gi, '').slice(0, 16)}\``);
  out.push(facts.join(' · '), '');

  out.push(section('Verdict'), '');
  out.push(
    `Claimed **${v.claimed}**, observed **${v.observed}** at ${markdownText(v.points.find((p) => p.name === v.primary)?.label ?? v.primary)}: the claim ${v.held ? 'held' : 'did **not** hold'}${run.cutOffBy === 'stuck' ? ' so far — the run is stuck, not finished' : ''}.`,
    '',
  );
  // A Flink job not restarted after a failure is down at the end, which counts that lost
  // nothing would not tell (the text report says it in the same words).
  const failed = flinkFailedForGood(run);
  if (failed)
    out.push(
      `- Down for good: ${markdownText(failedForGoodSentence({ component: 'flink', ...failed }))}`,
      '',
    );
  if (run.stuck.length > 0) {
    const label = run.cutOffBy === 'stuck' ? 'Stuck' : 'Still waiting when the run was cut off';
    for (const x of run.stuck.slice(0, 5)) out.push(`- ${label}: ${markdownText(stuckLine(x))}`);
    if (run.stuck.length > 5) out.push(`- and ${run.stuck.length - 5} more`);
    out.push('');
  }

  out.push(section('Counts'), '');
  out.push('| Observation point | Rows | Duplicates | Lost | Sum | True sum |');
  out.push('|---|--:|--:|--:|--:|--:|');
  for (const p of v.points) {
    const t = p.totals;
    const label = `${markdownText(p.label)}${p.name === v.primary ? ' (end of the pipeline)' : ''}`;
    out.push(
      `| ${label} | ${num(t.rows)} | ${num(t.duplicates)} | ${num(t.lost)} | ${num(t.observedSum)} | ${num(t.expectedSum)} |`,
    );
  }
  out.push('');

  if (v.explanations.length > 0) {
    out.push(section('Why'), '');
    for (const x of v.explanations) {
      const ids = x.events.slice(0, IDS_LISTED).map((id) => markdownText(id, 60));
      const more =
        x.events.length > IDS_LISTED ? ` and ${num(x.events.length - IDS_LISTED)} more` : '';
      out.push(
        `- **${x.by ? `Re-read by reader ${markdownText(x.by, 60)}` : x.fate === 'lost' ? 'Lost' : 'Duplicated'}** ${ids.join(', ')}${more}: ${markdownText(x.sentence, 2000)}`,
      );
    }
    // Lost like the others, but to a key coarser than the event id (docs/semantics/sinks.md#content-keys).
    if (v.falseMerges.length > 0)
      out.push(
        `- **False merges** (real events taken for another with the same key): ${v.falseMerges
          .slice(0, IDS_LISTED)
          .map((m) => `${markdownText(m.id, 60)} into ${markdownText(m.into, 60)}`)
          .join(', ')}${
          v.falseMerges.length > IDS_LISTED
            ? ` and ${num(v.falseMerges.length - IDS_LISTED)} more`
            : ''
        }`,
      );
    if (v.falseFailures.length > 0)
      out.push(
        `- **Reported failed but written**: ${v.falseFailures
          .slice(0, IDS_LISTED)
          .map((id) => markdownText(id, 60))
          .join(', ')}${
          v.falseFailures.length > IDS_LISTED
            ? ` and ${num(v.falseFailures.length - IDS_LISTED)} more`
            : ''
        }`,
      );
    out.push('');
  }

  out.push(section('Knobs'), '');
  out.push('| Knob | Value |');
  out.push('|---|---|');
  // A knob an explanation names by its real name (`request.timeout.ms` for a request that timed
  // out) is listed too: the reader of a post-mortem looks up the one the "Why" blames. Only a
  // config key's shape (dotted or camelCase), not a plain word such as "partitions".
  const why = v.explanations.map((x) => x.sentence).join('\n');
  const named = (name: string) =>
    /^\S*(\.|[a-z][A-Z])\S*$/.test(name) &&
    new RegExp(
      `(^|[^\\w.])${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?=$|[^\\w.]|\\.(?:\\s|$))`,
    ).test(why);
  for (const k of knobsFor(s)) {
    if (!DECISIVE.has(k.path) && !/^readers\.\d+\.isolation\.level$/.test(k.path) && !named(k.name))
      continue;
    // The auto-commit interval only decides anything with auto-commit on.
    if (
      k.path === 'processor.auto.commit.interval.ms' &&
      getKnob(s, 'processor.enable.auto.commit') !== true
    )
      continue;
    const where = k.path.startsWith('readers.') ? `reader ${k.path.split('.')[1]}` : k.group;
    const raw = getKnob(s, k.path);
    // Unset with a default that depends on the pipeline: the value in effect, said to be that.
    const value =
      raw === undefined && k.defaultFor
        ? `${formatKnobValue(k, k.defaultFor(s))} (${UNSET_DEFAULT_NOTE})`
        : formatKnobValue(k, raw);
    out.push(`| \`${k.name}\` (${where}) | ${markdownText(value)} |`);
    // The user's names of the table's columns (their statement's), beside the key they decide.
    const names = k.path === 'sink.key' && s.sink.type === 'table' && columnNamesWords(s.sink);
    if (names) out.push(`| \`column names\` (${where}) | ${markdownText(names)} |`);
  }
  out.push('');

  if (s.faults.length > 0) {
    out.push(section('Faults'), '');
    s.faults.forEach((f, i) => {
      const when = f.at > 0 ? ` (armed at ${num(f.at)} ms)` : '';
      out.push(`${i + 1}. ${markdownText(describeFault(f))}${when}`);
    });
    out.push('');
  }

  const asked = opts.diagram === undefined ? 'anomaly' : opts.diagram;
  // A run with no anomaly has no cause to start from: its whole sequence, as before.
  const anomaly = asked === 'anomaly' ? anomalyDiagram(run) : null;
  const kind = asked === 'anomaly' && anomaly === null ? 'sequence' : asked;
  if (kind !== null) {
    const text = anomaly ?? diagramOf(run, kind);
    if (text !== null) {
      const title =
        kind === 'anomaly'
          ? 'The first anomaly, from its cause'
          : kind === 'sequence'
            ? 'Sequence diagram'
            : kind === 'flow'
              ? 'Topology'
              : `Causal chain of ${markdownText(kind.slice('event:'.length), 60)}`;
      out.push(section(title), '', '```mermaid', text.trimEnd(), '```', '');
    }
  }
  return `${out.join('\n').trimEnd()}\n`;
}

/**
 * A report with sections after its own (Compare's, the fault atlas's: those given), each
 * separated by a blank line, ending with a newline.
 */
export function withSections(report: string, ...sections: (string | null | undefined)[]): string {
  return [report, ...sections]
    .filter((s): s is string => typeof s === 'string')
    .map((s) => s.trimEnd())
    .join('\n\n')
    .concat('\n');
}
