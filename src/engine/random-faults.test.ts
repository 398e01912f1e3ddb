/**
 * Seeded random faults beyond lost messages: `random` with `what` crash, rebalance, app-resend,
 * source-duplicate and leader-failover. Each draws from its own stream (`fault:<index>`, or
 * `fault:id:<label>` for a labelled fault), once per
 * opportunity: per record its target processes, per event taken from upstream, per produce
 * request a leader appends. Counts are pinned from fixed seeds and checked against the trace:
 * every firing is a 'fault' entry, and the rows follow from where each one fell.
 */
import { describe, expect, it, vi } from 'vitest';
import { traceHash } from './hash';
import { anomalies, entriesOf, events, runScenario, totals } from './testing';
import { firedOn, ordinals, consumer, randomCrash, upstream } from './randomFaultsTesting';
import type { Run } from './simulate';

// Whole runs on a loaded two-core machine: its slowest test took 3.9 s in a full CI run
// (this file 2.2 s), so each gets 20 s, ≥ 5× that, far from vitest's 5 s default.
vi.setConfig({ testTimeout: 20_000 });

describe('random crash of a consumer (seed 1, probability 0.1 per record processed)', () => {
  /** At each crash of consumer-0: the records it had processed beyond the committed offset. */
  const sinceCommit = (run: Run) => {
    const t = run.trace;
    const c0 = t.actors.indexOf('consumer-0');
    let committed = 0;
    let last = -1;
    const out: number[] = [];
    for (let i = 0; i < t.length; i++) {
      const k = t.kindOf(i);
      if (k === 'commit') committed = t.offset[i]!;
      if (k === 'process' && t.actor[i] === c0) last = t.offset[i]!;
      if (k === 'crash' && t.actor[i] === c0) out.push(last + 1 - committed);
    }
    return out;
  };

  it('fires 7 times, after the 3rd, 8th, 17th, 25th, 29th, 31st and 32nd record processed; each firing is one crash and one restart', () => {
    const run = consumer([randomCrash]);
    expect(entriesOf(run, 'fault')).toHaveLength(7);
    expect(ordinals(run, 'consumer-0')).toEqual([3, 8, 17, 25, 29, 31, 32]);
    expect(entriesOf(run, 'crash')).toHaveLength(7);
    expect(entriesOf(run, 'restart')).toHaveLength(7);
    // Every crash cites its firing.
    for (const c of entriesOf(run, 'crash'))
      expect(run.trace.kindOf(run.trace.cause[c]!)).toBe('fault');
  });

  it('plain INSERT, commit after processing: each crash replays what it processed since the last commit → 1+5+4+3+4+2+1 = 20 duplicates, 60 rows', () => {
    // By hand, the first two: e1 and e2 are processed and committed one by one (one record per
    // poll, 10 ms apart); the 3rd record, e3, fires: 1 record beyond the committed offset 2.
    // consumer-0 is back 1 s later, when every event has arrived: it polls e3..e7 from offset 2,
    // and the 8th draw (after e7) fires before the commit: 5 records, e3 now three times.
    const run = consumer([randomCrash]);
    const k = sinceCommit(run);
    expect(k).toEqual([1, 5, 4, 3, 4, 2, 1]);
    const extra = k.reduce((a, b) => a + b, 0);
    expect(extra).toBe(20);
    expect(entriesOf(run, 'process')).toHaveLength(40 + extra);
    expect(totals(run)).toEqual({ rows: 40 + extra, sum: 10_260, duplicates: extra, lost: 0 });
    expect(anomalies(run)).toEqual([
      'e3:3',
      ...['e4', 'e5', 'e6', 'e7', 'e8', 'e9', 'e10', 'e11'].map((id) => `${id}:2`),
      'e13:5',
      'e14:4',
      'e15:3',
      'e16:2',
    ]);
    expect(run.verdict.explanations[0]!.sentence).toBe(
      'consumer-0 crashed (a random crash of consumer-0) after processing e3 and before its offset was committed → it restarted from the last committed offset 2 → e3 was processed again → a plain INSERT has no key to collapse the copies',
    );
  });

  it('ON CONFLICT (event_id) DO NOTHING: the same 7 crashes, every replayed row collapses → 40 rows', () => {
    const run = consumer([randomCrash], { sink: { statement: 'on-conflict-do-nothing' } });
    expect(entriesOf(run, 'fault')).toHaveLength(7);
    expect(totals(run)).toEqual({ rows: 40, sum: 8200, duplicates: 0, lost: 0 });
  });

  it('commit before processing (at-most-once): each crash loses the rest of its batch → 0+0+1+2+1+3+1 = 8 lost, never a duplicate', () => {
    const run = consumer([randomCrash], { commit: 'before-processing' });
    const t = run.trace;
    const c0 = t.actors.indexOf('consumer-0');
    let batch = 0;
    let done = 0;
    const rest: number[] = [];
    for (let i = 0; i < t.length; i++) {
      const k = t.kindOf(i);
      if (k === 'poll' && t.actor[i] === c0) [batch, done] = [t.count[i]!, 0];
      if (k === 'process' && t.actor[i] === c0) done++;
      if (k === 'crash' && t.actor[i] === c0) rest.push(batch - done);
    }
    expect(rest).toEqual([0, 0, 1, 2, 1, 3, 1]);
    expect(totals(run)).toEqual({ rows: 32, sum: 5630, duplicates: 0, lost: 8 });
    expect(anomalies(run)).toEqual(
      ['e18', 'e27', 'e28', 'e33', 'e36', 'e37', 'e38', 'e40'].map((id) => `${id}:0`),
    );
  });

  it('untilMs closes the window: with untilMs 100 only the first firing (at 46 ms) remains', () => {
    const run = consumer([{ ...randomCrash, untilMs: 100 }]);
    const fired = entriesOf(run, 'fault');
    expect(fired.map((i) => run.trace.time[i])).toEqual([46]);
    expect(totals(run)).toEqual({ rows: 41, sum: 8230, duplicates: 1, lost: 0 });
  });
});

describe('random rebalance of a group member (seed 1, probability 0.1 per record processed)', () => {
  it('fires 7 times (the same draws as the crash above); each moves the partition: 7 revokes, 8 assignments', () => {
    const run = consumer([
      { kind: 'random', what: 'rebalance', target: 'consumer-0', probability: 0.1 },
    ]);
    expect(ordinals(run, 'consumer-0')).toEqual([3, 8, 17, 25, 29, 31, 32]);
    expect(entriesOf(run, 'revoke')).toHaveLength(7);
    expect(entriesOf(run, 'assign')).toHaveLength(8);
    // The k-th revoke comes after the k-th firing (the member first finishes its batch).
    const fired = entriesOf(run, 'fault');
    entriesOf(run, 'revoke').forEach((r, k) => expect(r).toBeGreaterThan(fired[k]!));
  });

  it('a sync member finishes its batch and commits before it gives the partition up: no record is redone → 40 rows', () => {
    const run = consumer([
      { kind: 'random', what: 'rebalance', target: 'consumer-0', probability: 0.1 },
    ]);
    expect(entriesOf(run, 'process')).toHaveLength(40);
    expect(totals(run)).toEqual({ rows: 40, sum: 8200, duplicates: 0, lost: 0 });
  });
});

// e1..e20 (sum 2,100) one every 100 ms; producer defaults (idempotent); a consumer that commits
// after writing with a plain INSERT.

describe('the draws depend on the seed and the fault only', () => {
  const all = (seed: number) =>
    runScenario({
      seed,
      workload: { events: events(30, (i) => (i - 1) * 50) },
      broker: { partitions: 2, 'broker.session.timeout.ms': 1000 },
      processor: {
        type: 'consumer',
        instances: 2,
        'enable.auto.commit': false,
        'auto.offset.reset': 'earliest',
      },
      faults: [
        { kind: 'random', what: 'crash', target: 'consumer-0', probability: 0.1 },
        { kind: 'random', what: 'rebalance', target: 'consumer-1', probability: 0.1 },
        { kind: 'random', what: 'app-resend', probability: 0.1 },
        { kind: 'random', what: 'source-duplicate', probability: 0.1 },
        { kind: 'random', what: 'leader-failover', probability: 0.05, restartAfterMs: 2000 },
      ],
    });

  it('the same seed gives the same trace; another seed another one', () => {
    const a = all(3);
    // Firings per fault, in schedule order: each of the five fires.
    const per = [0, 0, 0, 0, 0];
    for (const i of entriesOf(a, 'fault')) per[a.trace.aux[i]!]!++;
    expect(per).toEqual([1, 2, 4, 6, 1]);
    expect(traceHash(all(3).trace)).toBe(traceHash(a.trace));
    expect(traceHash(all(4).trace)).not.toBe(traceHash(a.trace));
  });

  it('adding a random consumer crash leaves a random app-resend firing on the same events', () => {
    const alone = upstream('app-resend');
    const withCrash = upstream('app-resend', { extra: [randomCrash] });
    expect(entriesOf(withCrash, 'fault').filter((i) => withCrash.trace.aux[i] === 1).length).toBe(
      17,
    );
    expect(firedOn(withCrash)).toEqual(firedOn(alone));
  });

  it('adding a random app-resend leaves the crash drawing the same numbers: it fires after the same records processed (3rd … 32nd), then on the extra records', () => {
    const alone = consumer([randomCrash]);
    const withCopies = consumer([
      randomCrash,
      { kind: 'random', what: 'app-resend', probability: 0.2 },
    ]);
    expect(ordinals(withCopies, 'consumer-0')).toEqual([...ordinals(alone, 'consumer-0'), 64, 65]);
  });

  it('deleting an earlier fault leaves a labelled random crash drawing the same numbers (its stream is its label); an unlabelled one moves to another stream', () => {
    // A scheduled lost request on the fetch link of partition 5 (there is none: it never fires)
    // sits before the random crash; deleting it shifts the crash from index 1 to index 0.
    const placeholder = { kind: 'drop-request', link: 'fetch', match: { partition: 5 } };
    const labelled = { ...randomCrash, id: 'flaky host' };
    const before = consumer([placeholder, labelled]);
    const after = consumer([labelled]);
    expect(ordinals(after, 'consumer-0', 0)).toEqual(ordinals(before, 'consumer-0', 1));
    expect(ordinals(after, 'consumer-0', 0).length).toBeGreaterThan(0);
    // Unlabelled, the crash draws from `fault:1`, then from `fault:0` (the first test's stream).
    const shifted = consumer([placeholder, randomCrash]);
    expect(ordinals(shifted, 'consumer-0', 1)).not.toEqual(
      ordinals(consumer([randomCrash]), 'consumer-0', 0),
    );
  });
});
