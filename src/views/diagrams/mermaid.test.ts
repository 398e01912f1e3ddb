import { describe, expect, it } from 'vitest';
import {
  eventChain,
  eventSequenceDiagram,
  diagramOf,
  runSequenceDiagram,
  topologyFlowchart,
} from './mermaid';
import { parseScenario, simulate } from '../../engine';
import { findPreset } from '../../scenarios';
import { FLINK_EXACTLY_ONCE, HOSTILE, LOST_ACK, runOf } from './mermaid.testdata';

const run = runOf;

describe('runSequenceDiagram', () => {
  it('draws every message of a small run, the lost ack as a cross, the fault as a note', () => {
    expect(runSequenceDiagram(run(LOST_ACK))).toBe(
      `sequenceDiagram
  title Lost ack, idempotence off
  participant P0 as producer
  participant P1 as broker-1
  participant P2 as coordinator
  participant P3 as consumer-0
  participant P4 as sink (table payments)
  P0->>P1: produce e1
  Note over P0,P1: ⚡ a lost acknowledgement #34;lost ack#34;
  P1--xP0: ack e1 offset 0 (lost)
  Note over P0: e1 · REQUEST_TIMED_OUT
  P0->>P1: produce e1 (retry 1)
  P1-->>P0: ack e1 offset 1
  P0->>P1: produce e2
  P1-->>P0: ack e2 offset 2
  Note over P3: consumer-0 reads its partition from offset 0
  P3->>P1: fetch from offset 0
  P1-->>P3: e1 +2 from offset 0
  P3->>P4: INSERT e1
  P4-->>P3: inserted row 1
  P3->>P4: INSERT e1
  P4-->>P3: inserted row 2
  P3->>P4: INSERT e2
  P4-->>P3: inserted row 3
  P3->>P2: commit offset 3
  P2-->>P3: committed offset 3
`,
    );
  });

  // An answer queued behind a lost one on the same connection (TCP delivers in order) is never
  // read: the timeout closes the connection and the batch is sent again. The diagram drew it as a
  // plain ack, then the retry of a record it had just shown acknowledged (a post-mortem's "why
  // retry an acked record?").
  it('marks an ack the producer never read, queued behind a lost one on its connection', () => {
    const text = runSequenceDiagram(
      run({
        ...LOST_ACK,
        producer: { ...LOST_ACK.producer, 'max.in.flight.requests.per.connection': 5 },
      }),
    );
    expect(text).toContain('P1--xP0: ack e1 offset 0 (lost)');
    expect(text).toContain(
      'P1-->>P0: ack e2 offset 1 (never read, the producer closed the connection first)',
    );
    // Once read, an ack is drawn as before.
    expect(text).toContain('P1-->>P0: ack e1 offset 2\n');
    expect(text.match(/never read/g)).toHaveLength(1);
    // An error answer is no acknowledgement: the fenced zombie's INVALID_PRODUCER_EPOCH answers,
    // on which it exits, are drawn as they were.
    const zombie = runSequenceDiagram(
      run(findPreset('zombie-consumer/transactional')!.variant.scenario),
      { maxSteps: 100_000 },
    );
    expect(zombie).toContain('INVALID_PRODUCER_EPOCH e3 out-0');
    expect(zombie).not.toContain('never read');
  });

  it('caps a long run with a "showing N of M" note over every participant shown', () => {
    const text = runSequenceDiagram(run(LOST_ACK), { maxSteps: 4 });
    expect(text).toBe(
      `sequenceDiagram
  title Lost ack, idempotence off
  participant P0 as producer
  participant P1 as broker-1
  P0->>P1: produce e1
  Note over P0,P1: ⚡ a lost acknowledgement #34;lost ack#34;
  P1--xP0: ack e1 offset 0 (lost)
  Note over P0: e1 · REQUEST_TIMED_OUT
  Note over P0,P1: showing 4 of 19 steps
`,
    );
  });

  it("starts a long run's diagram shortly before its first fault when the cap would cut it off", () => {
    // S07: 200 records, checkpoint 1, idle until 5 s (checkpoints 2–4 complete with nothing new),
    // then the TaskManager crashes once 50 of e201..e250 are processed — at 5161 ms, far beyond
    // the first 200 steps of the run; the job restores checkpoint 4.
    const p = parseScenario(findPreset('flink-checkpoint-replay/plain-sink')!.variant.scenario);
    if (!p.ok) throw new Error('preset invalid');
    const r = simulate(p.scenario);
    const lines = runSequenceDiagram(r).trimEnd().split('\n');
    const title =
      /^ {2}title Flink restores a checkpoint and replays 50 records — plain sink — from (\d+) ms, shortly before the fault at 5161 ms$/.exec(
        lines[1]!,
      );
    expect(title).not.toBeNull();
    const from = Number(title![1]);
    expect(from).toBeGreaterThan(5000);
    expect(from).toBeLessThan(5161);
    expect(lines).toContainEqual(expect.stringMatching(/^ {2}Note over P\d: ✗ crash$/));
    expect(lines).toContainEqual(
      expect.stringMatching(/^ {2}Note over P\d: restored checkpoint 4 · source from offset 200$/),
    );
    expect(lines.at(-1)).toMatch(new RegExp(`: showing 200 of \\d+ steps, from ${from} ms$`));
    // An explicit window is drawn as asked: from the beginning, without the crash.
    const fromStart = runSequenceDiagram(r, { fromMs: 0 });
    expect(fromStart).toContain(
      'title Flink restores a checkpoint and replays 50 records — plain sink between 0 ms and',
    );
    expect(fromStart).not.toContain('✗ crash');
  });

  it('names the fault it starts before, not "the first fault", when an earlier fault is drawn too', () => {
    // 100 events 100 ms apart; the leader of partition 0 fails at 3,000 ms and consumer-0
    // crashes at 7,300 ms. The first 200 steps end before the crash, so the window moves to
    // shortly before it — and still holds the failover at 3,000 ms, the run's first fault.
    const p = parseScenario({
      version: 1,
      name: 'two faults',
      seed: 7,
      workload: { topic: 'orders', generate: { count: 100, intervalMs: 100 } },
      producer: { acks: 1, 'enable.idempotence': false },
      processor: { type: 'consumer', 'enable.auto.commit': true, 'auto.commit.interval.ms': 5000 },
      sink: { type: 'table', name: 'orders' },
      faults: [
        { id: 'oom', kind: 'crash', target: 'consumer-0', at: 7300 },
        { id: 'broker dies', kind: 'leader-failover', at: 3000 },
      ],
    });
    if (!p.ok) throw new Error('invalid');
    const lines = runSequenceDiagram(simulate(p.scenario)).split('\n');
    const title =
      /^ {2}title two faults — from (\d+) ms, shortly before the fault at 7300 ms$/.exec(lines[1]!);
    expect(title).not.toBeNull();
    expect(Number(title![1])).toBeLessThan(3000);
    expect(lines).toContainEqual(expect.stringContaining('a failure of the leader of partition 0'));
    expect(lines).toContainEqual(expect.stringContaining('a crash of consumer-0'));
  });

  it("says a Spark query's restart in Spark's words: its offsets log, not a checkpoint", () => {
    const p = parseScenario(findPreset('spark-batch-replay/append')!.variant.scenario);
    if (!p.ok) throw new Error('preset invalid');
    const text = runSequenceDiagram(simulate(p.scenario), { fromMs: 0 });
    expect(text).toContain('query started with no offsets log · startingOffsets → offset 0');
    expect(text).toContain('query restarted · offsets log up to batch 2 · from offset 20');
    expect(text).not.toContain('restored checkpoint');
  });

  it('draws a time window of the run', () => {
    const text = runSequenceDiagram(run(LOST_ACK), { fromMs: 5000, untilMs: 5010 });
    expect(text).toBe(
      `sequenceDiagram
  title Lost ack, idempotence off between 5000 ms and 5010 ms
  participant P0 as broker-1
  participant P1 as consumer-0
  participant P2 as sink (table payments)
  Note over P1: consumer-0 reads its partition from offset 0
  P1->>P0: fetch from offset 0
  P0-->>P1: e1 +2 from offset 0
  P1->>P2: INSERT e1
  P2-->>P1: inserted row 1
`,
    );
  });

  it('merges identical consecutive steps into one "×N" step', () => {
    // The upstream source emits x three times; with acks=0 nothing answers, so the three produce
    // requests are consecutive and identical. Nobody reads before 1000 s: auto.offset.reset=latest
    // puts the consumer at offset 3, and auto-commit commits it.
    const text = runSequenceDiagram(
      run({
        version: 1,
        name: 'merge',
        workload: {
          events: [
            { id: 'x', amount: 1, at: 0 },
            { id: 'x', amount: 1, at: 10 },
            { id: 'x', amount: 1, at: 20 },
          ],
        },
        producer: { acks: '0', 'linger.ms': 0 },
        processor: { type: 'consumer', startAtMs: 1_000_000 },
      }),
    );
    expect(text).toBe(
      `sequenceDiagram
  title merge
  participant P0 as producer
  participant P1 as broker-1
  participant P2 as coordinator
  participant P3 as consumer-0
  P0->>P1: produce x ×3
  Note over P3: consumer-0 reads its partition from offset 3
  P3->>P2: commit offset 3
  P2-->>P3: committed offset 3
`,
    );
  });
});

describe('eventSequenceDiagram', () => {
  it("tells one event's causal chain with times: send, lost ack, timeout, retry, both writes, the commit", () => {
    expect(eventSequenceDiagram(run(LOST_ACK), 'e1')).toBe(
      `sequenceDiagram
  title e1 — duplicated (2) at sink
  participant P0 as producer
  participant P1 as broker-1
  participant P2 as coordinator
  participant P3 as consumer-0
  participant P4 as sink (table payments)
  Note over P0: 0 ms · application sends e1
  P0->>P1: 0 ms · produce e1
  Note over P1: 2 ms · appended e1 at offset 0
  Note over P0,P1: 6 ms · ⚡ a lost acknowledgement #34;lost ack#34;
  P1--xP0: 6 ms · ack e1 offset 0 (lost)
  Note over P0: 1000 ms · e1 · REQUEST_TIMED_OUT
  Note over P0: 1100 ms · retry e1 (attempt 1)
  P0->>P1: 1100 ms · produce e1 (retry 1)
  Note over P1: 1102 ms · appended e1 at offset 1
  P1-->>P0: 1106 ms · ack e1 offset 1
  Note over P0: 1108 ms · e1 acknowledged, offset 1
  P1-->>P3: 5004 ms · e1 +2 from offset 0
  Note over P3: 5006 ms · poll e1 +2 from offset 0
  Note over P3: 5007 ms · process e1 (offset 0)
  P3->>P4: 5007 ms · INSERT e1
  Note over P4: 5009 ms · e1 · new row 1
  P4-->>P3: 5009 ms · inserted row 1
  Note over P3: 5012 ms · process e1 (offset 1)
  P3->>P4: 5012 ms · INSERT e1
  Note over P4: 5014 ms · e1 · new row 2
  P4-->>P3: 5014 ms · inserted row 2
  P3->>P2: 5021 ms · commit offset 3
  Note over P2: 5023 ms · offset 3 committed
`,
    );
  });

  it('numbers rows from 1, as the row tables do: the 6th row is "row 6", inserted then updated', () => {
    // effectively-once (foundation.ts): p-1..p-8 are inserted in order, so p-6 is the table's
    // 6th row (its `#` column says 6; the engine's row id is 5); after the crash the replayed
    // p-6 is an upsert of the same value onto that row.
    const p = parseScenario(findPreset('effectively-once')!.variant.scenario);
    if (!p.ok) throw new Error('preset invalid');
    const r = simulate(p.scenario);
    const rows = eventSequenceDiagram(r, 'p-6')!
      .split('\n')
      .filter((l) => l.includes('row'))
      .map((l) => l.replace(/^.*: \d+ ms · /, ''));
    expect(rows).toEqual([
      'p-6 · new row 6',
      'inserted row 6',
      'p-6 · row 6 updated (same value)',
      'updated row 6 (same value)',
    ]);
  });

  it('keeps an untouched event short', () => {
    const r = run(LOST_ACK);
    const chain = eventChain(r, 'e2')!;
    expect(chain.map((i) => r.trace.kindOf(i))).toEqual([
      'app-send',
      'msg', // produce
      'append',
      'msg', // produce-response
      'ack',
      'msg', // fetch-response carrying offsets 0..2
      'poll',
      'process',
      'msg', // sink-write
      'row-insert',
      'msg', // sink-response
      'msg', // commit
      'commit',
    ]);
  });

  it('returns null for an unknown business id', () => {
    expect(eventSequenceDiagram(run(LOST_ACK), 'nope')).toBeNull();
    expect(eventChain(run(LOST_ACK), 'nope')).toBeNull();
  });

  it('caps a long chain', () => {
    const text = eventSequenceDiagram(run(LOST_ACK), 'e1', { maxSteps: 2 })!;
    expect(text.trimEnd().split('\n').slice(-3)).toEqual([
      '  Note over P0: 0 ms · application sends e1',
      '  P0->>P1: 0 ms · produce e1',
      '  Note over P0,P1: showing 2 of 23 steps',
    ]);
  });
});

describe('topologyFlowchart', () => {
  it('shows the knobs that decide the guarantee and the faults where they strike', () => {
    expect(topologyFlowchart(run(LOST_ACK).scenario)).toBe(
      `flowchart LR
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
`,
    );
  });

  it('names transactional, Flink and reader knobs', () => {
    const text = topologyFlowchart(run(FLINK_EXACTLY_ONCE).scenario);
    expect(text).toContain('checkpoint every 100 ms · EXACTLY_ONCE');
    expect(text).toContain('KafkaSink deliveryGuarantee=EXACTLY_ONCE');
    expect(text).toContain('transactionalIdPrefix=job');
    expect(text).toContain(
      '  reader0["reader rc<br/>topic out<br/>isolation.level=read_committed"]\n  sink -->|"read"| reader0',
    );
  });
});

describe('diagramOf', () => {
  it('picks a diagram by kind', () => {
    const r = run(LOST_ACK);
    expect(diagramOf(r, 'sequence')).toBe(runSequenceDiagram(r));
    expect(diagramOf(r, 'flow')).toBe(topologyFlowchart(r.scenario));
    expect(diagramOf(r, 'event:e2')).toBe(eventSequenceDiagram(r, 'e2'));
    expect(diagramOf(r, 'event:zzz')).toBeNull();
  });
});

describe('hostile strings', () => {
  /** One statement per line, in the forms this module writes; labels made of safe characters. */
  const LABEL = String.raw`(?:[\p{L}\p{N}\p{M} _.,()/'+*=!?@^~·→…×⚡✗≥≤—−-]|#\d+;)*`;
  const SEQUENCE_LINE = new RegExp(
    String.raw`^(sequenceDiagram|  title ${LABEL}|  participant P\d+ as ${LABEL}|  P\d+(->>|-->>|-x|--x)P\d+: ${LABEL}|  Note over P\d+(,P\d+)?: ${LABEL})$`,
    'u',
  );
  const FLOW_LINE = new RegExp(
    String.raw`^(flowchart LR|  \w+(\["|\[\("|\{\{")${LABEL}(<br/>${LABEL})*("\]|"\)\]|"\}\})|  \w+ (-->|-\.->)\|"${LABEL}"\| \w+|  fault\d+ -\.- \w+|  class fault\d+ fault|  classDef fault fill:#fff1f0,stroke:#cf222e)$`,
    'u',
  );

  it('every line of every diagram of the hostile-strings run is one well-formed statement', () => {
    const r = runOf(HOSTILE);
    const texts = [runSequenceDiagram(r)];
    for (let j = 0; j < r.events.identities; j++)
      texts.push(eventSequenceDiagram(r, r.events.identityId(j))!);
    for (const text of texts)
      for (const line of text.trimEnd().split('\n')) expect(line).toMatch(SEQUENCE_LINE);
    for (const line of topologyFlowchart(r.scenario).trimEnd().split('\n'))
      expect(line).toMatch(FLOW_LINE);
  });

  it('cuts a 100 KB business id (a scenario that skipped validation) to a short label', () => {
    const parsed = parseScenario(LOST_ACK);
    if (!parsed.ok) throw new Error('invalid');
    const huge = `<script>${'x'.repeat(100_000)}`;
    const s = structuredClone(parsed.scenario);
    s.workload.events![0]!.id = huge;
    s.faults = [];
    const r = simulate(s);
    for (const text of [runSequenceDiagram(r), eventSequenceDiagram(r, huge)!]) {
      const longest = Math.max(...text.split('\n').map((l) => l.length));
      expect(longest).toBeLessThan(400);
      expect(text).toContain('#60;script#62;xxxxxxxx');
      expect(text).toContain('…');
    }
  });
});
