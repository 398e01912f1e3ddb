import { describe, expect, it } from 'vitest';
import { holds, observedGuarantee } from './checker';
import { events, runScenario } from './testing';

describe('guarantee from a run (SEMANTICS §2.1)', () => {
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
