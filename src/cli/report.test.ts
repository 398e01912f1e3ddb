/**
 * The text and JSON reports of a run cut off with work still pending: they say so (the page says
 * "cut off at stopAtMs"), instead of presenting what had not arrived yet as plain data loss. And
 * each event's end-to-end latency in the JSON report, worked out by hand on two examples.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it, vi } from 'vitest';
import { parseScenario, parseScenarioJson, simulate, type Run } from '../engine';
import { findPreset } from '../scenarios';
import { readerCrashInput, runScenario } from '../engine/testing';
import { jsonReport, jsonReportChunks, textReport } from './report';
import { visibleControls } from './visibleControls';

// Whole runs on a loaded two-core machine: its slowest test took 2.4 s in a full CI run
// (this file 5.4 s), so each gets 15 s, ≥ 5× that, far from vitest's 5 s default.
vi.setConfig({ testTimeout: 15_000 });

function example(name: string): Run {
  const p = parseScenarioJson(readFileSync(`public/scenarios/${name}`, 'utf8'));
  if (!p.ok) throw new Error(JSON.stringify(p.issues));
  return simulate(p.scenario);
}

/**
 * 2,500 events within the first 0.25 ms; the consumer starts at 10 s, the run stops at 5 s: nothing is processed,
 * every event counts as lost, and the engine explains the first 2,000 of them.
 */
const cut = () =>
  runScenario({
    workload: { generate: { count: 2500, intervalMs: 0.0001 } },
    processor: { type: 'consumer', 'auto.offset.reset': 'earliest', startAtMs: 10_000 },
    stopAtMs: 5_000,
  });

describe('a run cut off at stopAtMs', () => {
  it('JSON carries cutOff and the stop in effect', () => {
    const r = jsonReport(cut());
    expect(r.cutOff).toBe(true);
    expect(r.stopAtMs).toBe(5_000);
    expect(r.totals.lost).toBe(2500);
  });

  it('text says the run was cut off, why the events are missing, and how many were explained', () => {
    const text = textReport(cut());
    expect(text).toContain(
      'cut off at 5000 ms (stopAtMs) with work still pending: events still on their way count as lost',
    );
    expect(text).toContain(
      'e1 is in the log but had not been processed when the run was cut off at 5000 ms',
    );
    expect(text).toContain('(explained: the first 2,000 of 2,500 events lost or duplicated)');
  });

  it('events not yet due when the run stopped are explained by the stop, not by the application', () => {
    // e1..e10 every 100 ms from 0; the run stops at 450 ms: e1..e5 are written, e6 (due at
    // 500 ms) onwards were never sent — the run ended first.
    const run = runScenario({
      workload: { generate: { count: 10, intervalMs: 100 } },
      processor: { type: 'consumer' },
      stopAtMs: 450,
    });
    const lost = run.verdict.explanations.find((x) => x.fate === 'lost')!;
    expect(lost.events).toEqual(['e6', 'e7', 'e8', 'e9', 'e10']);
    expect(lost.sentence).toBe(
      'the run was cut off at 450 ms (stopAtMs, or the default: the last event or fault + 1 h) before e6 was sent',
    );
  });

  /**
   * A crash before every commit, restarted at once, for 7 days of virtual time, cut off here at
   * 5,000 trace entries. (A newcomer's share link like it froze the page for minutes and ended on
   * "the run did not settle" — an engine error.)
   */
  const livelock = (maxPollRecords?: number) => {
    const parsed = parseScenario({
      version: 1,
      name: 'livelock',
      workload: { generate: { count: 3, intervalMs: 10 } },
      processor: {
        type: 'consumer',
        'auto.offset.reset': 'earliest',
        'enable.auto.commit': false,
        ...(maxPollRecords ? { 'max.poll.records': maxPollRecords } : {}),
      },
      faults: [
        {
          kind: 'periodic-crash',
          target: 'consumer-0',
          everyRecords: 1,
          point: 'before-commit',
          restartAfterMs: 0,
        },
      ],
      stopAtMs: 604_800_000,
    });
    if (!parsed.ok) throw new Error('invalid');
    return simulate(parsed.scenario, { maxTraceEntries: 5000 });
  };

  it('a scenario that keeps the run busy without end is cut off at the trace limit, and says so', () => {
    const run = livelock();
    // Stopped after the step that reached 5,000 entries (one step adds a few), then 'end'.
    expect(run.trace.length).toBeGreaterThan(5000);
    expect(run.trace.length).toBeLessThan(5020);
    expect(run.trace.kindOf(run.trace.length - 1)).toBe('end');
    expect(run.cutOffBy).toBe('trace-limit');
    expect(run.endTime).toBeLessThan(604_800_000);
    const r = jsonReport(run);
    expect([r.cutOff, r.cutOffBy]).toEqual([true, 'trace-limit']);
    const text = textReport(run);
    expect(text).toContain(
      'with work still pending: its trace reached the limit of 5,000 entries after every event was sent: the scenario keeps the run busy without settling',
    );
    // Each poll holds all three events, processed and never committed: as many rows as 5,000
    // entries hold (710 for 3 events).
    expect(r.totals).toMatchObject({ sinkRows: 710, duplicates: 707, lost: 0 });
  });

  it('a workload too big for the trace says how far it got and about how many events fit', () => {
    // 1,000 events 10 ms apart (0 .. 9,990 ms), each sent alone (further apart than linger.ms):
    // with a limit of 2,000 entries the run stops at 1,338 ms, when e1..e134 (at 0..1,330 ms)
    // had been sent. 2,000 / 134 ≈ 15 entries per event; 2,000 / 15 × 0.9 = 120 fit.
    const parsed = parseScenario({
      version: 1,
      name: 'too big',
      workload: { generate: { count: 1000, intervalMs: 10 } },
      processor: { type: 'consumer' },
      sink: { type: 'table' },
    });
    if (!parsed.ok) throw new Error('invalid');
    const run = simulate(parsed.scenario, { maxTraceEntries: 2000 });
    expect([run.cutOffBy, run.endTime]).toEqual(['trace-limit', 1338]);
    expect(textReport(run)).toContain(
      'cut off at 1338 ms with work still pending: its trace reached the limit of 2,000 entries when 134 of the 1,000 events had been sent — about 15 entries per event with these settings, so about 120 events fit; events not yet sent or still on their way count as lost',
    );
  });

  it('a workload still in progress when every event was sent is called too big, not a crash loop', () => {
    // 1,000 events 0.001 ms apart: all sent within the first millisecond. The consumer takes
    // 10 ms per record, so it needs 10 s for them all; the trace limit of 2,000 entries stops the
    // run at 3,358 ms, when 239 rows had reached the sink (processing from about 1 s on, one row
    // per 10 ms). 2,000 / 239 ≈ 8 entries per event; 239 × 0.9 = 215, two digits rounded down:
    // about 210 fit. Before, "every event was sent" alone read as "a crash after every record?".
    const parsed = parseScenario({
      version: 1,
      name: 'slow consumer',
      workload: { generate: { count: 1000, intervalMs: 0.001 } },
      processor: {
        type: 'consumer',
        'auto.offset.reset': 'earliest',
        processing: { perRecordMs: 10 },
      },
      sink: { type: 'table' },
    });
    if (!parsed.ok) throw new Error('invalid');
    const run = simulate(parsed.scenario, { maxTraceEntries: 2000 });
    expect([run.cutOffBy, run.endTime]).toEqual(['trace-limit', 3358]);
    expect(textReport(run)).toContain(
      'cut off at 3358 ms with work still pending: its trace reached the limit of 2,000 entries after all 1,000 events had been sent, with the pipeline still working through them (239 had reached sink) — about 8 entries per event with these settings, so about 210 events fit;',
    );
    expect(textReport(run)).not.toContain('crash after every record');
  });

  it('events a crash loop never reached are explained by the loop, not by the stop alone', () => {
    // One record per poll: the consumer writes e1 and crashes before committing it, again and
    // again; e2 and e3 are never reached.
    const run = livelock(1);
    const lost = run.verdict.explanations.find((x) => x.events.includes('e2'))!;
    expect(lost.sentence).toMatch(
      /^e2 is in the log but had not been processed when the run was cut off at \d+ ms with work still pending \(its trace reached the limit of 5,000 entries\) — meanwhile consumer-0 crashed [\d,]+ times, starting again from its last committed offset each time$/,
    );
  });

  it('a run that drains says neither', () => {
    const run = runScenario({
      workload: { generate: { count: 10, intervalMs: 1 } },
      processor: { type: 'consumer', 'auto.offset.reset': 'earliest' },
    });
    expect(jsonReport(run).cutOff).toBe(false);
    const text = textReport(run);
    expect(text).not.toContain('cut off');
    expect(text).not.toContain('explained:');
  });
});

/**
 * Per-event latency: virtual ms from the application's first send to the first row in the sink.
 * Both examples lose the ack of e1's first produce request (network 2 ms each way, no jitter); the
 * consumer starts at 5,000 ms, is assigned at 5,002, fetches 5,002 → 5,004 → 5,006 and takes
 * 1 ms per record; each INSERT reaches the sink 2 ms after processing and is answered 2 ms later,
 * so the records follow each other 5 ms apart: rows at 5,009, 5,014, 5,019 ms.
 */
describe('per-event latency (latencyMs of each event)', () => {
  it('lost-ack-duplicate: e1 sent at 0 → row at 5,009; e2 sent at 10, behind e1 and its duplicate → row at 5,019', () => {
    const r = jsonReport(example('lost-ack-duplicate.json'));
    expect(r.events.map((e) => [e.id, e.fate, e.latencyMs])).toEqual([
      ['e1', 'duplicated', 5009], // 5,009 − 0: the first of its two rows
      ['e2', 'once', 5009], // 5,019 − 10
    ]);
    expect(r.latencyMs).toEqual({ p50: 5009, p99: 5009, max: 5009, count: 2 });
  });

  it('lost-ack-idempotent: e1 waits for InitProducerId (sent at 4) → row at 5,009; e2 sent at 10 → row at 5,014', () => {
    const r = jsonReport(example('lost-ack-idempotent.json'));
    expect(r.events.map((e) => [e.id, e.fate, e.latencyMs])).toEqual([
      ['e1', 'once', 5005], // 5,009 − 4
      ['e2', 'once', 5004], // 5,014 − 10: no duplicate ahead of it
    ]);
    expect(r.latencyMs).toEqual({ p50: 5004, p99: 5005, max: 5005, count: 2 });
  });

  it('an event that never took effect has null', () => {
    const r = jsonReport(cut());
    expect(r.events.every((e) => e.latencyMs === null)).toBe(true);
    expect(r.latencyMs.count).toBe(0);
    // JSON keeps the field (null), so a reader can tell "never visible" from "no such field".
    const parsed = JSON.parse(JSON.stringify(r)) as { events: { latencyMs: unknown }[] };
    expect(parsed.events[0]).toHaveProperty('latencyMs', null);
  });
});

describe('text report: control characters from the scenario', () => {
  it('are written as \\xNN, never raw (a hostile name could clear the terminal)', () => {
    const text = visibleControls('name \u001b[31mred\u0007 e\u009b1\nnext\tline');
    expect(text).toBe('name \\x1b[31mred\\x07 e\\x9b1\nnext\tline');
    // A whole report of a scenario named with an escape sequence, with such an event id.
    const run = runScenario({
      name: 'pay\u001b[2Jments',
      workload: { events: [{ id: '\u001b[31me1', amount: 10, at: 0 }] },
      processor: { type: 'consumer', 'auto.offset.reset': 'earliest' },
      faults: [{ kind: 'drop-request', link: 'produce' }],
    });
    const report = textReport(run);
    expect(report).toContain('pay\\x1b[2Jments');
    expect(report).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/);
  });
});

describe('a fault whose condition never comes is reported, not silent', () => {
  // Hand-off mode processes one record at a time: a mid-batch crash after the 3rd record of a
  // "batch" never comes. The crash at 'before-commit' of the sync loop below does fire.
  const run = (mode: 'sync' | 'handoff', point: string) =>
    runScenario({
      workload: { generate: { count: 10, intervalMs: 1 } },
      processor: {
        type: 'consumer',
        'enable.auto.commit': false,
        'auto.offset.reset': 'earliest',
        processing: { mode },
      },
      faults: [{ id: 'c', kind: 'crash', target: 'consumer-0', point, afterRecords: 3 } as never],
    });
  it('JSON lists it with its index and description; the text report warns', () => {
    const r = run('handoff', 'mid-batch');
    expect(jsonReport(r).faultsNeverFired).toEqual([
      { index: 0, fault: 'a crash of consumer-0 mid-batch after 3 records "c"' },
    ]);
    expect(textReport(r)).toContain(
      '⚠ fault "c", a crash of consumer-0 mid-batch after 3 records, never fired: its condition never came',
    );
  });
  it('a lost acknowledgement under acks=0 says why it cannot fire (the at-most-once preset)', () => {
    // at-most-once sends with acks=0 and keeps the foundation's lost ack of p-4: no response exists.
    const p = parseScenario(findPreset('at-most-once')!.variant.scenario);
    if (!p.ok) throw new Error('the preset parses');
    const r = simulate(p.scenario);
    expect(jsonReport(r).faultsNeverFired).toEqual([
      {
        index: 0,
        fault: 'a lost acknowledgement "lost ack"',
        why: 'with acks=0 the broker sends no acknowledgement to lose',
      },
    ]);
    expect(textReport(r)).toContain(
      '⚠ fault "lost ack", a lost acknowledgement, never fired: with acks=0 the broker sends no acknowledgement to lose',
    );
  });
  it('a fault without an id is named by its number, from 1', () => {
    const p = parseScenario({
      version: 1,
      name: 'late crash',
      workload: { generate: { count: 2, intervalMs: 10 } },
      // Armed after the run's last commit: its moment never comes.
      faults: [
        { id: 'early', kind: 'crash', target: 'consumer-0', at: 0 },
        { kind: 'crash', target: 'consumer-0', point: 'before-commit', at: 600_000 },
      ],
    });
    if (!p.ok) throw new Error('the scenario parses');
    expect(textReport(simulate(p.scenario))).toContain(
      '⚠ fault 2, a crash of consumer-0 before its offset commit, never fired: its condition never came',
    );
  });
  it('a fault armed after stopAtMs says the run stops before it (a time typed past the window)', () => {
    // Two events at 0 and 10 ms; the window ends at 1,000 ms and the crash is armed at 1,800 ms.
    const p = parseScenario({
      version: 1,
      name: 'after the stop',
      stopAtMs: 1_000,
      workload: { generate: { count: 2, intervalMs: 10 } },
      faults: [{ id: 'late', kind: 'crash', target: 'consumer-0', at: 1_800 }],
    });
    if (!p.ok) throw new Error('the scenario parses');
    const r = simulate(p.scenario);
    const why = 'armed at 1,800 ms, after the run stops at 1,000 ms (stopAtMs): it never comes';
    expect(jsonReport(r).faultsNeverFired).toEqual([
      { index: 0, fault: 'a crash of consumer-0 "late"', why },
    ]);
    expect(textReport(r)).toContain(`⚠ fault "late", a crash of consumer-0, never fired: ${why}`);
  });
  it('a fault that fired is not listed', () => {
    const r = run('sync', 'before-commit');
    expect(jsonReport(r).faultsNeverFired).toEqual([]);
    expect(textReport(r)).not.toContain('never fired');
  });
});

describe("a downstream reader's own replay (issue 30, item 6)", () => {
  it('the text report names the point the verdict judges, counts each record the reader read once and names the re-read as the reader’s', () => {
    // Flink exactly-once into out; rc (read_committed) copies e1..e3 (offsets 0..2) at 1,016 ms,
    // crashes before its commit, restarts at 2,016 ms from offset 0 and copies them again: 3
    // records read, 3 rows re-read (https://kafka.apache.org/documentation/#semantics).
    const run = runScenario(readerCrashInput());
    const text = textReport(run);
    expect(text).toContain(
      'guarantee, judged at reader rc (read_committed): claimed exactly-once, observed exactly-once — held',
    );
    expect(text).toContain(
      'reader:rc: 3 rows for 3 events · 0 duplicate rows · 0 lost · sum 60 (true 60) (+ 3 rows the reader copied again itself: its own replay, not counted)',
    );
    expect(text).toContain(
      '  ↺ re-read by reader rc e1, e2, e3: reader rc crashed (fault "reader crash") after copying e1',
    );
    const json = jsonReport(run);
    expect(json.points.find((p) => p.name === 'reader:rc')?.rereads).toBe(3);
    expect(json.guarantee.explanations.map((x) => x.by)).toEqual(['rc']);
  });
});

describe('a run with a component still waiting at its end (src/engine/stuck.ts)', () => {
  // A transaction left open past the stop: T1 = {e1, e2} commits; T2 = {e3} is begun at 100 ms
  // (e3 is sent then), acknowledged at 108 ms, and the application hangs with it open
  // (hang-transaction 2): only transaction.timeout.ms (60 s) would end it; the run stops at 10 s.
  // e3's record sits at offset 3 (e1 0, e2 1, T1's marker 2), the last stable offset.
  const open = () =>
    runScenario({
      stopAtMs: 10_000,
      workload: { events: [0, 50, 100].map((at, i) => ({ id: `e${i + 1}`, amount: 10, at })) },
      producer: { 'transactional.id': 't-1', app: { eventsPerTransaction: 2 } },
      processor: {
        type: 'consumer',
        'auto.offset.reset': 'earliest',
        'isolation.level': 'read_committed',
      },
      faults: [{ kind: 'hang-transaction', transaction: 2 }],
    });

  it('cut off at the stop: text and JSON list what was still waiting, and since when', () => {
    const run = open();
    expect(run.cutOffBy).toBe('stop');
    const text = textReport(run);
    expect(text).toContain(
      'still waiting: coordinator (since 100 ms) waits for the end of transaction 2 of t-1 (Ongoing)',
    );
    expect(text).toContain('still waiting: consumer-0 (since ' /* its last entry */);
    const r = jsonReport(run);
    expect(r.cutOffBy).toBe('stop');
    expect(r.stuck?.[0]).toEqual({
      component: 'coordinator',
      what: 'the end of transaction 2 of t-1 (Ongoing)',
      sinceMs: 100,
    });
  });

  it('stuck (nothing left to happen, a component waiting): said at the top and in the verdict, never a clean one', () => {
    // The engine's Run of a drained scenario, marked as the engine marks a stuck one.
    const drained = runScenario({ workload: { events: [{ id: 'e1', amount: 10, at: 0 }] } });
    const run: Run = {
      ...drained,
      cutOff: true,
      cutOffBy: 'stuck',
      stuck: [{ component: 'flink', what: 'the answer to its EndTxn request', since: 0 }],
    };
    const text = textReport(run);
    expect(text).toContain(
      `STUCK at ${run.endTime} ms: nothing was left to happen, but a component waits forever`,
    );
    expect(text).toContain(
      '  stuck: flink (since 0 ms) waits for the answer to its EndTxn request',
    );
    expect(text).toContain('(so far: the run is stuck, not finished)');
    const r = jsonReport(run);
    expect([r.cutOff, r.cutOffBy, r.stuck]).toEqual([
      true,
      'stuck',
      [{ component: 'flink', what: 'the answer to its EndTxn request', sinceMs: 0 }],
    ]);
    expect(jsonReport(drained).stuck).toBeUndefined();
  });
});

describe('the JSON report in chunks (--format json of 2,000,000 events is more than one string holds)', () => {
  it('concatenated, the chunks are exactly the report as one string; large ones come in pieces', () => {
    // A small run and 2,500 events (~500,000 characters: one chunk); 12,000 events at ~200
    // characters each once indented (~2.4 M characters) come in more than one 1 MiB chunk.
    for (const run of [example('lost-ack-duplicate.json'), cut()]) {
      const whole = JSON.stringify(jsonReport(run), null, 2);
      expect([...jsonReportChunks(run)].join('')).toBe(whole);
    }
    const big = runScenario({ workload: { generate: { count: 12_000, intervalMs: 0.0001 } } });
    const chunks = [...jsonReportChunks(big)];
    expect(chunks.join('')).toBe(JSON.stringify(jsonReport(big), null, 2));
    expect(chunks.length).toBeGreaterThan(1);
    for (const c of chunks.slice(0, -1)) expect(c.length).toBeLessThan(1.1 * 2 ** 20);
  }, 60_000);

  it('a scenario name that spells the events key does not move where the events go', () => {
    const run = runScenario({
      name: 'x",\n  "events": [],\n',
      workload: { events: [{ id: 'e1', amount: 1, at: 0 }] },
    });
    expect([...jsonReportChunks(run)].join('')).toBe(JSON.stringify(jsonReport(run), null, 2));
  });
});

describe('a false merge is named in every report (issue 26 §2)', () => {
  // content-key-on-conflict/event-time-amount (src/scenarios/library/contentKey.ts): ON CONFLICT
  // (event_time, amount) DO NOTHING; e7 has e6's time and amount (09:15:06, 60), so its INSERT
  // conflicts with e6's row and is skipped ("simply avoids inserting a row as its alternative
  // action", https://www.postgresql.org/docs/current/sql-insert.html#SQL-ON-CONFLICT): one real
  // event lost to the key, e7 into e6; the replay of e6..e10 adds none — 9 rows, 1 lost.
  const run = () => {
    const p = parseScenario(
      findPreset('content-key-on-conflict/event-time-amount')!.variant.scenario,
    );
    if (!p.ok) throw new Error(JSON.stringify(p.issues));
    return simulate(p.scenario);
  };

  it('JSON: falseMerges lists e7 into e6, and lost counts it', () => {
    const r = jsonReport(run());
    expect(r.falseMerges).toEqual([{ id: 'e7', into: 'e6' }]);
    expect(r.totals).toMatchObject({ sinkRows: 9, lost: 1, duplicates: 0 });
  });

  it('text: the lost count says it is a false merge, and which', () => {
    const t = textReport(run());
    expect(t).toContain(
      '9 rows for 10 events · 0 duplicate rows · 1 lost (1 false merge) · sum 480',
    );
    expect(t).toContain(
      '≡ false merges (real events taken for another with the same key): e7 into e6',
    );
  });

  it('an event-id key: no false merge, an empty list and no line', () => {
    const p = parseScenario(findPreset('content-key-on-conflict/event-id')!.variant.scenario);
    if (!p.ok) throw new Error(JSON.stringify(p.issues));
    const r = simulate(p.scenario);
    expect(jsonReport(r).falseMerges).toEqual([]);
    expect(textReport(r)).not.toContain('false merge');
  });
});

// A Flink job whose restart strategy is none, crashed after it wrote every record: the counts
// say exactly-once, and the report said nothing of the job being down for good at the end
// (the page's card reads "flink × down"). The Flink workload of `from-config` with the shipped
// flink-conf.yaml (restart-strategy: none, at-least-once KafkaSink, 30 s checkpoints) is one.
describe('a Flink job that failed for good', () => {
  const failedJob = () => {
    const s = findPreset('flink-checkpoint-replay/plain-sink')!.variant.scenario;
    const p = parseScenario({
      ...s,
      processor: { ...s.processor, 'restart-strategy.type': 'none' },
    });
    if (!p.ok) throw new Error(JSON.stringify(p.issues));
    return simulate(p.scenario);
  };

  it('text and JSON say when it stopped and why it was not restarted', () => {
    const run = failedJob();
    const r = jsonReport(run);
    expect(r.jobFailedForGood).toEqual({
      component: 'flink',
      atMs: expect.any(Number) as number,
      why: 'the job failed for good (restart-strategy.type=none)',
    });
    expect(textReport(run)).toContain(
      `  ⚠ flink crashed at ${r.jobFailedForGood!.atMs.toLocaleString('en-US')} ms and the job failed for good (restart-strategy.type=none): it processes nothing after that, and what it had not committed stays so`,
    );
  });

  it('a job that restarts says nothing', () => {
    const run = runScenario(findPreset('flink-checkpoint-replay/plain-sink')!.variant.scenario);
    expect(jsonReport(run).jobFailedForGood).toBeUndefined();
    expect(textReport(run)).not.toContain('failed for good');
  });
});
