import fc from 'fast-check';
import { marked } from 'marked';
import { describe, expect, it } from 'vitest';
import { anomalyDiagram, firstAnomaly } from '../diagrams/anomalyDiagram';
import { markdownReport, markdownText, parseHeadingLevel } from './markdown';
import { topologyFlowchart } from '../diagrams/mermaid';
import { truncate } from '../diagrams/mermaidText';
import { HOSTILE, LOST_ACK, runOf } from '../diagrams/mermaid.testdata';
import { findPreset } from '../../scenarios';

// `marked` (a GFM renderer; mermaid's own dependency) stands in for the docs sites that will
// render these reports.
const html = (md: string) => marked.parse(md, { async: false, gfm: true });

function decodeHtml(s: string): string {
  return s
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&');
}

describe("markdownReport: the user's column names (sink.columns)", () => {
  it('lists them beside the key column, and only when the scenario has them', () => {
    const sink = (columns?: object) => ({
      ...LOST_ACK,
      sink: { type: 'table', name: 'payments', statement: 'on-conflict-do-nothing', columns },
    });
    const named = markdownReport(runOf(sink({ id: 'payment_id', amount: 'amt' })));
    expect(named).toContain(
      '| `key column` (sink) | business-id |\n| `column names` (sink) | payment\\_id for id, amt for amount |',
    );
    expect(markdownReport(runOf(sink()))).not.toContain('column names');
  });
});

describe('markdownReport', () => {
  // The title is an H2 by default, the sections H3: the report sits under a docs page's H1.
  it('reports scenario, verdict, counts, explanations, knobs, faults and the diagram', () => {
    const report = markdownReport(runOf(LOST_ACK), {
      diagram: 'flow',
      traceHash: 'ec6b930dce2692c5a5',
    });
    expect(report).toBe(`## Lost ack, idempotence off

seed 1 · 2 business events · 41 trace entries · ended at 5,023 ms · trace \`ec6b930dce2692c5\`

### Verdict

Claimed **at-least-once**, observed **at-least-once** at sink table payments: the claim held.

### Counts

| Observation point | Rows | Duplicates | Lost | Sum | True sum |
|---|--:|--:|--:|--:|--:|
| topic payments (every record in the log) | 3 | 1 | 0 | 40 | 30 |
| processed by the processor (attempts) | 3 | 1 | 0 | 40 | 30 |
| sink table payments (end of the pipeline) | 3 | 1 | 0 | 40 | 30 |

### Why

- **Duplicated** e1: the acknowledgement of e1 was lost (fault "lost ack") → the producer retried the same batch → with idempotence off (enable.idempotence=false) the broker appended e1 a second time → a plain INSERT has no key to collapse the copies

### Knobs

| Knob | Value |
|---|---|
| \`acks\` (producer) | all |
| \`enable.idempotence\` (producer) | false |
| \`retries\` (producer) | 2147483647 |
| \`max.in.flight.requests.per.connection\` (producer) | 1 |
| \`transactional.id\` (producer) | (unset) |
| \`on send failure\` (producer) | skip |
| \`replication.factor\` (broker) | 3 |
| \`min.insync.replicas\` (broker) | 2 |
| \`unclean.leader.election.enable\` (broker) | false |
| \`enable.auto.commit\` (processor) | false |
| \`commit (manual)\` (processor) | after-processing |
| \`processing (poll loop)\` (processor) | sync |
| \`max.poll.records\` (processor) | 500 |
| \`isolation.level\` (processor) | read\\_uncommitted |
| \`auto.offset.reset\` (processor) | earliest |
| \`on statement error\` (processor) | halt |
| \`statement\` (sink) | insert |
| \`key column\` (sink) | business-id |
| \`UNIQUE / PRIMARY KEY\` (sink) | auto |
| \`statement retries\` (sink) | 3 |

### Faults

1. a lost acknowledgement "lost ack"

### Topology

\`\`\`mermaid
${/* its text is held line by line in mermaid.test.ts */ topologyFlowchart(runOf(LOST_ACK).scenario)}\`\`\`
`);
  });

  it('puts the first anomaly by default, the whole run or an event chain on request, or none', () => {
    const run = runOf(LOST_ACK);
    // LOST_ACK duplicates e1: its diagram starts at the lost ack, after the 3 usual steps
    // (the application's send, the produce request, the append at offset 0).
    expect(markdownReport(run)).toContain(
      '### The first anomaly, from its cause\n\n```mermaid\nsequenceDiagram\n  title e1 applied twice — from the cause to the duplicate\n',
    );
    expect(markdownReport(run)).toContain(
      '  Note over P0,P4: Before the cause, 3 steps as usual<br/>(0 ms · application sends e1 … 2 ms · appended e1 at offset 0)\n',
    );
    expect(markdownReport(run, { diagram: 'sequence' })).toContain(
      '### Sequence diagram\n\n```mermaid\nsequenceDiagram\n',
    );
    expect(markdownReport(run, { diagram: 'event:e1' })).toContain(
      '### Causal chain of e1\n\n```mermaid\nsequenceDiagram\n  title e1 — duplicated (2) at sink\n',
    );
    expect(markdownReport(run, { diagram: null })).not.toContain('```');
  });

  it("an anomalous preset's report draws the anomaly, not every produce and ack: 118 → 27 lines", () => {
    const run = runOf(findPreset('at-least-once/default')!.variant.scenario);
    const block = (report: string) => {
      const start = report.indexOf('```mermaid\n') + '```mermaid\n'.length;
      return report.slice(start, report.indexOf('\n```', start));
    };
    const anomaly = block(markdownReport(run));
    // The slide diagram itself (one source: src/views/diagrams/anomalyDiagram.ts), p-4 applied twice.
    expect(anomaly).toBe(anomalyDiagram(run)!.trimEnd());
    expect(anomaly).toMatch(
      /\n {2}Note over P0,P\d: Before the cause, \d+ steps? as usual<br\/>\(/,
    );
    // Lines of the mermaid text, measured: every produce/ack of the 20 events before, the first
    // anomaly's story after (issue 31: 1,584 px tall at 700 px wide before); its repeats folded
    // (../diagrams/foldRepeats.ts: the notes that restate a message, the steps after the duplicate): 32 → 27.
    expect(block(markdownReport(run, { diagram: 'sequence' })).split('\n')).toHaveLength(118);
    expect(anomaly.split('\n')).toHaveLength(27);
  });

  it('names a false merge: which real event went into which row (issue 26 §2)', () => {
    // content-key-on-conflict/event-time-amount: ON CONFLICT (event_time, amount) DO NOTHING,
    // e7 has e6's time and amount, so it is skipped into e6's row
    // (https://www.postgresql.org/docs/current/sql-insert.html#SQL-ON-CONFLICT).
    const merged = runOf(findPreset('content-key-on-conflict/event-time-amount')!.variant.scenario);
    expect(markdownReport(merged)).toContain(
      '- **False merges** (real events taken for another with the same key): e7 into e6\n',
    );
    const byId = runOf(findPreset('content-key-on-conflict/event-id')!.variant.scenario);
    expect(markdownReport(byId)).not.toContain('False merges');
  });

  it("keeps the anomaly diagram one fenced block when the event's id is hostile", () => {
    // LOST_ACK with e1 renamed: a line break then a fence, markup and a mermaid directive.
    const id = 'x\n```\n<img src=x>%%{init: {"theme":"dark"}}%%';
    const run = runOf(JSON.parse(JSON.stringify(LOST_ACK).replaceAll('"e1"', JSON.stringify(id))));
    expect(firstAnomaly(run)).toEqual({ eventId: id, fate: 'duplicated' });
    const report = markdownReport(run);
    expect(report.match(/^```/gm)).toHaveLength(2);
    const title = report.split('\n').find((l) => l.startsWith('  title '))!;
    expect(title).toMatch(/applied twice — from the cause to the duplicate$/);
    expect(title).not.toMatch(/[<>"]|%%/);
  });

  it('keeps the whole-run sequence diagram when nothing is lost or duplicated', () => {
    // Idempotence on: the broker drops the retried batch, every event applied once.
    const run = runOf(findPreset('lost-ack-retry/idempotence-on')!.variant.scenario);
    expect(firstAnomaly(run)).toBeNull();
    expect(markdownReport(run)).toBe(markdownReport(run, { diagram: 'sequence' }));
    expect(markdownReport(run)).toContain('### Sequence diagram\n\n```mermaid\nsequenceDiagram\n');
  });

  it('shifts every heading with headingLevel: 1 for a page of its own, 2 by default', () => {
    const run = runOf(LOST_ACK);
    const headings = (report: string) => report.match(/^#+ .*$/gm);
    expect(headings(markdownReport(run, { headingLevel: 1 }))).toEqual([
      '# Lost ack, idempotence off',
      '## Verdict',
      '## Counts',
      '## Why',
      '## Knobs',
      '## Faults',
      '## The first anomaly, from its cause',
    ]);
    expect(headings(markdownReport(run))).toEqual([
      '## Lost ack, idempotence off',
      '### Verdict',
      '### Counts',
      '### Why',
      '### Knobs',
      '### Faults',
      '### The first anomaly, from its cause',
    ]);
    expect(headings(markdownReport(run, { headingLevel: 4 }))![1]).toBe('##### Verdict');
  });

  it('reads --heading-level values 1 to 4 only', () => {
    expect(['1', '2', '3', '4'].map(parseHeadingLevel)).toEqual([1, 2, 3, 4]);
    for (const bad of ['0', '5', '', 'two', '2.0', ' 2', '02', '-1'])
      expect(parseHeadingLevel(bad)).toBeNull();
  });

  it('renders hostile strings as text: no element, link, image or extra table cell', () => {
    const report = markdownReport(runOf(HOSTILE));
    const out = html(report);
    const tags = new Set(
      [...out.matchAll(/<([a-z][a-z0-9]*)\b/gi)].map((m) => m[1]!.toLowerCase()),
    );
    expect([...tags].sort()).toEqual(
      [
        'code',
        'h2',
        'h3',
        'li',
        'ol',
        'p',
        'pre',
        'strong',
        'table',
        'tbody',
        'td',
        'th',
        'thead',
        'tr',
      ].sort(),
    );
    // No tag carries anything but table alignment or the code block's language.
    const attributes = [...out.matchAll(/<[a-z][a-z0-9]*(\s[^>]*)?>/gi)]
      .map((m) => (m[1] ?? '').trim())
      .filter(
        (x) =>
          x !== '' && !/^align="(left|right|center)"$/.test(x) && x !== 'class="language-mermaid"',
      );
    expect(attributes).toEqual([]);
    // The title and the sink table's name read literally.
    expect(out).toContain(
      '<h2>&lt;script&gt;window.__pwned=1&lt;/script&gt; hostile strings %%{init: {&quot;theme&quot;:&quot;dark&quot;}}%%</h2>',
    );
    expect(out).toContain(
      'sink table &lt;img src=x onerror=&quot;window.__pwned=1&quot;&gt; (end of the pipeline)',
    );
    // Every row of the counts table has its six cells (a `|` in a name did not split one).
    const counts = out.slice(out.indexOf('<h3>Counts</h3>'), out.indexOf('<h3>Knobs</h3>'));
    for (const row of counts.split('<tr>').slice(2)) expect(row.match(/<td/g)).toHaveLength(6);
    // The mermaid block is one fenced block: nothing in it closed the fence.
    expect(report.match(/^```/gm)).toHaveLength(2);
  });
});

describe('markdownText', () => {
  it('escapes inline markup, entities, math and autolinks', () => {
    expect(markdownText('**bold** [link](javascript:alert(1)) <b>x</b> &amp; $x$ `c` a|b')).toBe(
      '\\*\\*bold\\*\\* \\[link\\](javascript:alert(1)) \\<b\\>x\\</b\\> \\&amp; \\$x\\$ \\`c\\` a\\|b',
    );
    expect(markdownText('see http://evil.example and www.evil.example')).toBe(
      'see http:\\/\\/evil.example and www\\.evil.example',
    );
  });

  it('keeps a line one line, and escapes what could open a block at its start', () => {
    expect(markdownText('a\nb\r\n# c')).toBe('a b \\# c');
    expect(markdownText('- item', 100, true)).toBe('\\- item');
    expect(markdownText('1. item', 100, true)).toBe('1\\. item');
    expect(markdownText('> quote', 100, true)).toBe('\\> quote');
    expect(markdownText('    code', 100, true)).toBe('code');
  });

  it('shows any text literally in a rendered paragraph (property)', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 80 }), (s) => {
        const out = html(`x ${markdownText(s)} y`).trim();
        expect(out.startsWith('<p>') && out.endsWith('</p>')).toBe(true);
        const inner = out.slice(3, -4);
        expect(inner).not.toMatch(/<[a-z/]/i);
        const oneLine = truncate(s, 300)
          .replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]+/g, ' ')
          .replace(/ {2,}/g, ' ');
        expect(decodeHtml(inner)).toBe(`x ${oneLine} y`);
      }),
      { seed: 9, numRuns: 300 },
    );
  });
});

describe('markdownReport: a knob left unset whose default depends on the pipeline', () => {
  it('shows the value in effect, marked as the default (KafkaSink unset: 1 h; broker cap 15 min)', () => {
    const v = findPreset('flink-commit-phase-crash/timeout-left-unset')!.variant;
    const report = markdownReport(runOf(v.scenario), { diagram: null });
    expect(report).toContain(
      '| `transaction.timeout.ms (output)` (sink) | 3600000 ms (unset: the default here) |',
    );
    expect(report).toContain('| `transaction.max.timeout.ms` (broker) | 900000 ms |');
  });
});

describe('markdownReport: times and the auto-commit interval', () => {
  it('gives the checkpoint interval in ms, and the auto-commit interval only with auto-commit on', () => {
    const flink = markdownReport(
      runOf(findPreset('flink-checkpoint-replay/plain-sink')!.variant.scenario),
      { diagram: null },
    );
    expect(flink).toContain('| `execution.checkpointing.interval` (processor) | 1000 ms |');
    const auto = markdownReport(runOf(findPreset('auto-commit-crash/handoff')!.variant.scenario), {
      diagram: null,
    });
    expect(auto).toMatch(/\| `auto\.commit\.interval\.ms` \(processor\) \| \d+ ms \|/);
    expect(auto).toContain('| `processing (poll loop)` (processor) | handoff |');
  });
});

// A post-mortem's report: its "Why" names request.timeout.ms (a produce response delayed past it,
// the batch retried), and the Knobs table left it out — the one knob the reader would look up.
describe('markdownReport: the knobs the explanations name', () => {
  it('lists request.timeout.ms when a timed-out request is the cause, not otherwise', () => {
    const delayed: typeof LOST_ACK = {
      ...LOST_ACK,
      faults: [{ kind: 'delay-response', link: 'produce', match: { event: 'e1' }, delayMs: 2_000 }],
    };
    const report = markdownReport(runOf(delayed), { diagram: null });
    expect(report).toContain('came after request.timeout.ms');
    expect(report).toContain('| `request.timeout.ms` (producer) | 1000 ms |');
    // The lost acknowledgement's sentence names no timeout: the table stays as it was.
    expect(markdownReport(runOf(LOST_ACK), { diagram: null })).not.toContain('request.timeout.ms');
  });
});

// A Flink job not restarted after its crash (restart-strategy none) that wrote every record:
// the counts read exactly-once and the report said nothing of the job being down at the end, as
// the text report now says (src/cli/report.ts) and the page's card ("flink × down").
describe('markdownReport: a Flink job that failed for good', () => {
  it('says so under the verdict, in the text report’s words', () => {
    const s = findPreset('flink-checkpoint-replay/plain-sink')!.variant.scenario;
    const run = runOf({ ...s, processor: { ...s.processor, 'restart-strategy.type': 'none' } });
    const report = markdownReport(run, { diagram: null });
    expect(report).toMatch(
      /\n- Down for good: flink crashed at [\d,]+ ms and the job failed for good \(restart-strategy\.type=none\): it processes nothing after that, and what it had not committed stays so\n/,
    );
    expect(
      markdownReport(runOf(findPreset('flink-checkpoint-replay/plain-sink')!.variant.scenario), {
        diagram: null,
      }),
    ).not.toContain('Down for good');
  });
});
