import { describe, expect, it } from 'vitest';
import { holds, observedGuarantee } from './checker';
import { preexistingRows } from './scenario/initialRows';
import { events, runScenario } from './testing';

describe('guarantee from a run (docs/semantics/guarantees.md#guarantee-from-a-run)', () => {
  it('maps loss and duplication to a guarantee', () => {
    expect(observedGuarantee(false, false)).toBe('exactly-once');
    expect(observedGuarantee(true, false)).toBe('at-most-once');
    expect(observedGuarantee(false, true)).toBe('at-least-once');
    expect(observedGuarantee(true, true)).toBe('none');
  });

  it('a claim holds when the observed guarantee is within it', () => {
    expect(holds('exactly-once', 'exactly-once')).toBe(true);
    expect(holds('exactly-once', 'at-least-once')).toBe(false);
    expect(holds('at-least-once', 'at-least-once')).toBe(true);
    expect(holds('at-least-once', 'at-most-once')).toBe(false);
    expect(holds('at-most-once', 'at-most-once')).toBe(true);
    expect(holds('at-most-once', 'none')).toBe(false);
  });
});

describe('end-to-end latency', () => {
  it('p50 / p99 / max are the ranks of (first effect − first send) over the events that arrived', () => {
    // 200 events with random jitter; compare with a plain sort of the same differences.
    const run = runScenario({
      seed: 3,
      network: { latencyMs: 2, jitterMs: 9 },
      workload: { events: events(200, (i) => i * 3) },
      processor: { type: 'consumer', 'auto.offset.reset': 'earliest' },
    });
    const t = run.trace;
    const sent = new Map<number, number>();
    const seen = new Map<number, number>();
    const sink = t.actors.indexOf('sink');
    for (let i = 0; i < t.length; i++) {
      const e = t.event[i]!;
      if (e < 0) continue;
      if (t.kindOf(i) === 'app-send' && !sent.has(e)) sent.set(e, t.time[i]!);
      if (t.kindOf(i) === 'row-insert' && t.actor[i] === sink && !seen.has(e))
        seen.set(e, t.time[i]!);
    }
    const ds = [...seen.entries()].map(([e, at]) => at - sent.get(e)!).sort((a, b) => a - b);
    const rank = (f: number) => ds[Math.min(ds.length - 1, Math.ceil(f * ds.length) - 1)];
    expect(run.verdict.latency).toEqual({
      p50: rank(0.5),
      p99: rank(0.99),
      max: ds[ds.length - 1],
      count: 200,
    });
  });

  it('latencyOf holds each event’s own difference, and visibleAt the entry it ends at', () => {
    // Events 1..6 every 10 ms; the consumer starts at 45 ms and the run stops at 60 ms, so the
    // first ones reach the sink and the last do not (-1).
    const run = runScenario({
      workload: { events: events(6, (i) => i * 10) },
      processor: { type: 'consumer', 'auto.offset.reset': 'earliest', startAtMs: 45 },
      stopAtMs: 60,
    });
    const t = run.trace;
    const v = run.verdict;
    const sink = t.actors.indexOf('sink');
    const expected = Array.from({ length: 6 }, () => -1);
    const entry = Array.from({ length: 6 }, () => -1);
    const sent = Array.from({ length: 6 }, () => -1);
    for (let i = 0; i < t.length; i++) {
      const e = t.event[i]!;
      if (e < 0) continue;
      if (t.kindOf(i) === 'app-send' && sent[e]! < 0) sent[e] = t.time[i]!;
      if (t.kindOf(i) === 'row-insert' && t.actor[i] === sink && entry[e]! < 0) {
        entry[e] = i;
        expected[e] = t.time[i]! - sent[e]!;
      }
    }
    expect(expected.filter((d) => d >= 0).length).toBeGreaterThan(0);
    expect(expected).toContain(-1);
    expect(Array.from(v.latencyOf)).toEqual(expected);
    expect(Array.from(v.visibleAt)).toEqual(entry);
    expect(v.latency.count).toBe(expected.filter((d) => d >= 0).length);
  });
});

describe("a sink table's rows from before the run", () => {
  // The table starts as {o1: 100, x9: 5}; the workload sends o1 (120) and o3 (70) once each,
  // and ON CONFLICT DO UPDATE writes them. x9 is no event's id: the table is right to keep it,
  // so it belongs to the expected sum. o1's initial row is o1's prior effect: replaced.
  const run = (statement = 'on-conflict-do-update') =>
    runScenario({
      workload: {
        events: [
          { id: 'o1', amount: 120, at: 10 },
          { id: 'o3', amount: 70, at: 20 },
        ],
      },
      processor: {
        type: 'consumer',
        'enable.auto.commit': false,
        'auto.offset.reset': 'earliest',
        startAtMs: 1000,
      },
      sink: {
        type: 'table',
        statement,
        initialRows: [
          { id: 'o1', amount: 100 },
          { id: 'x9', amount: 5 },
        ],
      } as never,
    });
  it('count toward the expected sum when no event has their id: 195 of 195, exactly once', () => {
    const r = run();
    const sink = r.verdict.points.find((p) => p.name === 'sink')!;
    // Rows o1 (120, updated), x9 (5), o3 (70): 195; expected 120 + 70 + x9's 5.
    expect(sink.totals).toMatchObject({ rows: 3, observedSum: 195, expectedSum: 195 });
    expect(r.verdict.observed).toBe('exactly-once');
    // Upsert: o1's old row is replaced, so only x9 adds to what the table should hold.
    expect(preexistingRows(r.scenario, r.events)).toMatchObject({
      rows: 1,
      sum: 5,
      untouchedSum: 5,
    });
    expect(preexistingRows(r.scenario, r.events).kept.size).toBe(0);
  });
  it('a row ON CONFLICT DO NOTHING keeps is what the table should hold: 175 of 175, exactly once', () => {
    // DO NOTHING leaves o1 at 100 (PostgreSQL INSERT … ON CONFLICT): rows o1 (100), x9 (5),
    // o3 (70) = 175, and that is right — o1's 120 was never meant to replace the row.
    const r = run('on-conflict-do-nothing');
    const sink = r.verdict.points.find((p) => p.name === 'sink')!;
    expect(sink.totals).toMatchObject({ rows: 3, observedSum: 175, expectedSum: 175, lost: 0 });
    expect(r.verdict.observed).toBe('exactly-once');
    const p = preexistingRows(r.scenario, r.events);
    expect(p).toMatchObject({ rows: 1, sum: 5 - 20, untouchedSum: 5 });
    expect([...p.kept]).toEqual([[r.events.identityOf('o1'), -20]]);
  });
});
