import fc from 'fast-check';
import { marked } from 'marked';
import { describe, expect, it } from 'vitest';
import { markdownReport, markdownText } from './markdown';
import { truncate } from './mermaidText';
import { HOSTILE, LOST_ACK, runOf } from './mermaid.testdata';
import { findPreset } from '../scenarios';

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

describe('markdownReport', () => {
  it('reports scenario, verdict, counts, explanations, knobs, faults and the diagram', () => {
    const report = markdownReport(runOf(LOST_ACK), {
      diagram: 'flow',
      traceHash: 'ec6b930dce2692c5a5',
    });
    expect(report).toBe(`# Lost ack, idempotence off

seed 1 · 2 business events · 41 trace entries · ended at 5,023 ms · trace \`ec6b930dce2692c5\`

## Verdict

Claimed **at-least-once**, observed **at-least-once** at sink table payments: the claim held.

## Counts

| Observation point | Rows | Duplicates | Lost | Sum | True sum |
|---|--:|--:|--:|--:|--:|
| topic payments (every record in the log) | 3 | 1 | 0 | 40 | 30 |
| processed by the processor (attempts) | 3 | 1 | 0 | 40 | 30 |
| sink table payments (end of the pipeline) | 3 | 1 | 0 | 40 | 30 |

## Why

- **Duplicated** e1: the acknowledgement of e1 was lost (fault "lost ack") → the producer retried the same batch → with idempotence off (enable.idempotence=false) the broker appended e1 a second time → a plain INSERT has no key to collapse the copies

## Knobs

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

## Faults

1. a lost acknowledgement "lost ack"

## Topology

\`\`\`mermaid
flowchart LR
  producer["producer<br/>acks=all · enable.idempotence=false<br/>retries=2147483647 · max.in.flight=1<br/>request.timeout.ms=1000 · delivery.timeout.ms=120000<br/>application async send · on failure skip"]
  topic[("topic payments<br/>1 partition · 3 brokers<br/>replication.factor=3 · min.insync.replicas=2<br/>unclean.leader.election.enable=false")]
  processor["consumer group group-1 (1 instance)<br/>enable.auto.commit=false · commit after-processing<br/>max.poll.records=500 · isolation.level=read_uncommitted<br/>processing sync · on statement error halt"]
  sink[("table payments<br/>INSERT per record<br/>key business-id<br/>statement.timeout.ms=5000 (client socketTimeout) · retries=3")]
  producer -->|"produce"| topic
  topic -->|"poll"| processor
  processor -.->|"commit offsets (after-processing)"| topic
  processor -->|"INSERT"| sink
  fault0{{"⚡ a lost acknowledgement #34;lost ack#34;"}}
  fault0 -.- producer
  class fault0 fault
  classDef fault fill:#fff1f0,stroke:#cf222e
\`\`\`
`);
  });

  it('puts the whole-run sequence diagram by default, an event chain on request, or none', () => {
    const run = runOf(LOST_ACK);
    expect(markdownReport(run)).toContain('## Sequence diagram\n\n```mermaid\nsequenceDiagram\n');
    expect(markdownReport(run, { diagram: 'event:e1' })).toContain(
      '## Causal chain of e1\n\n```mermaid\nsequenceDiagram\n  title e1 — duplicated (2) at sink\n',
    );
    expect(markdownReport(run, { diagram: null })).not.toContain('```');
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
        'h1',
        'h2',
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
      '<h1>&lt;script&gt;window.__pwned=1&lt;/script&gt; hostile strings %%{init: {&quot;theme&quot;:&quot;dark&quot;}}%%</h1>',
    );
    expect(out).toContain(
      'sink table &lt;img src=x onerror=&quot;window.__pwned=1&quot;&gt; (end of the pipeline)',
    );
    // Every row of the counts table has its six cells (a `|` in a name did not split one).
    const counts = out.slice(out.indexOf('<h2>Counts</h2>'), out.indexOf('<h2>Knobs</h2>'));
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
