/**
 * Seeded random faults beyond lost messages: `random` with `what` crash, rebalance, app-resend,
 * source-duplicate and leader-failover. Each draws from its own stream (`fault:<index>`, or
 * `fault:id:<label>` for a labelled fault), once per
 * opportunity: per record its target processes, per event taken from upstream, per produce
 * request a leader appends. Counts are pinned from fixed seeds and checked against the trace:
 * every firing is a 'fault' entry, and the rows follow from where each one fell.
 */
import { describe, expect, it, vi } from 'vitest';
import { describeFault } from './faultWords';
import { traceHash } from './hash';
import { parseScenario } from './scenario/validate';
import type { Run } from './simulate';
import { anomalies, entriesOf, events, runScenario, totals } from './testing';

// Whole runs on a loaded two-core machine: its slowest test took 3.9 s in a full CI run
// (this file 2.2 s), so each gets 20 s, ≥ 5× that, far from vitest's 5 s default.
vi.setConfig({ testTimeout: 20_000 });

const idOf = (run: Run, event: number) => run.events.identityId(run.events.identity[event]!);
/** The business ids of the 'fault' entries of fault `index`, in order. */
const firedOn = (run: Run, index = 0) =>
  entriesOf(run, 'fault')
    .filter((i) => run.trace.aux[i] === index)
    .map((i) => idOf(run, run.trace.event[i]!));
/** For each firing of fault `index`: how many records `actor` had processed by then (its draws). */
const ordinals = (run: Run, actor: string, index = 0) => {
  const t = run.trace;
  const a = t.actors.indexOf(actor);
  const out: number[] = [];
  let n = 0;
  for (let i = 0; i < t.length; i++) {
    if (t.kindOf(i) === 'process' && t.actor[i] === a) n++;
    if (t.kindOf(i) === 'fault' && t.aux[i] === index) out.push(n);
  }
  return out;
};

// e1..e40 (10..400, sum 8,200), one every 10 ms, one partition; a consumer that commits by hand,
// polls at most 5 records and writes each record with its own plain INSERT (statementPer record),
// so a record's row is in the table as soon as it is processed.
const consumer = (
  faults: unknown[],
  opts: { commit?: string; sink?: Record<string, unknown>; seed?: number } = {},
) =>
  runScenario({
    seed: opts.seed ?? 1,
    workload: { events: events(40, (i) => (i - 1) * 10) },
    processor: {
      type: 'consumer',
      'enable.auto.commit': false,
      commit: (opts.commit ?? 'after-processing') as 'after-processing',
      'auto.offset.reset': 'earliest',
      'max.poll.records': 5,
    },
    sink: { type: 'table', statementPer: 'record', ...opts.sink } as never,
    faults: faults as never,
  });
const randomCrash = { kind: 'random', what: 'crash', target: 'consumer-0', probability: 0.1 };

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
const upstream = (what: string, opts: { sink?: Record<string, unknown>; extra?: unknown[] } = {}) =>
  runScenario({
    seed: 7,
    workload: { events: events(20, (i) => (i - 1) * 100) },
    processor: { type: 'consumer', 'enable.auto.commit': false, 'auto.offset.reset': 'earliest' },
    sink: { type: 'table', ...opts.sink } as never,
    faults: [{ kind: 'random', what, probability: 0.2 }, ...(opts.extra ?? [])] as never,
  });
const FIRED_SEED_7 = ['e2', 'e3', 'e9', 'e13', 'e17', 'e19', 'e20'];

describe.each([
  [
    'app-resend',
    'the application sent e2 again (a random application re-send) → it is a new record',
  ],
  ['source-duplicate', 'the upstream source emitted e2 twice → two separate records in the log'],
] as const)(
  'random %s (seed 7, probability 0.2 per event taken from upstream)',
  (what, sentence) => {
    it('fires on 7 of the 20 events; each copy is the record right after its original in the log', () => {
      const run = upstream(what);
      expect(firedOn(run)).toEqual(FIRED_SEED_7);
      const p = run.state.input.partitions[0]!;
      const log: string[] = [];
      for (let o = 0; o < p.leo; o++) log.push(idOf(run, p.event.data[o]!));
      const expected: string[] = [];
      for (let i = 1; i <= 20; i++) {
        expected.push(`e${i}`);
        if (FIRED_SEED_7.includes(`e${i}`)) expected.push(`e${i}`);
      }
      expect(log).toEqual(expected);
    });

    it('plain INSERT: rows = 20 + firings = 27, each fired event twice; the sentence names the cause', () => {
      const run = upstream(what);
      // 2,100 + 20 + 30 + 90 + 130 + 170 + 190 + 200 = 2,930.
      expect(totals(run)).toEqual({ rows: 27, sum: 2930, duplicates: 7, lost: 0 });
      expect(anomalies(run)).toEqual(FIRED_SEED_7.map((id) => `${id}:2`));
      expect(run.verdict.explanations[0]!.sentence).toContain(sentence);
    });

    it('ON CONFLICT (event_id) DO NOTHING collapses the copies: 20 rows, 2,100', () => {
      expect(totals(upstream(what, { sink: { statement: 'on-conflict-do-nothing' } }))).toEqual({
        rows: 20,
        sum: 2100,
        duplicates: 0,
        lost: 0,
      });
    });
  },
);

it('random app-resend with a transactional producer (2 events per transaction): the copy goes into a later transaction, both commit → 27 rows', () => {
  const run = runScenario({
    seed: 7,
    workload: { events: events(20, (i) => (i - 1) * 100) },
    producer: { 'transactional.id': 't-1', app: { eventsPerTransaction: 2 } } as never,
    processor: {
      type: 'consumer',
      'enable.auto.commit': false,
      'auto.offset.reset': 'earliest',
      'isolation.level': 'read_committed',
    },
    faults: [{ kind: 'random', what: 'app-resend', probability: 0.2 }],
  });
  expect(firedOn(run)).toEqual(FIRED_SEED_7);
  expect(totals(run)).toEqual({ rows: 27, sum: 2930, duplicates: 7, lost: 0 });
});

describe('random leader failover (probability 0.2 per produce request appended by a leader)', () => {
  // e1..e30 one every 3 s, one record per request (linger.ms 0), idempotence off; the controller
  // notices a dead broker after 1 s and the old leader is back 1.5 s after it failed: every
  // failover has settled before the next event. The leader fails right after appending, before
  // either follower has copied the record.
  const failover = (acks: '1' | 'all') =>
    runScenario({
      seed: 7,
      workload: { events: events(30, (i) => (i - 1) * 3000) },
      producer: { acks, 'linger.ms': 0, 'request.timeout.ms': 1000, 'enable.idempotence': false },
      broker: { 'broker.session.timeout.ms': 1000 },
      processor: { type: 'consumer', 'enable.auto.commit': false, 'auto.offset.reset': 'earliest' },
      faults: [{ kind: 'random', what: 'leader-failover', probability: 0.2, restartAfterMs: 1500 }],
    });

  it('acks=1: each firing loses exactly the record it struck (acknowledged, never replicated): 10 firings, 10 lost, 20 rows', () => {
    // K-PCFG acks=1: "should the leader fail immediately after acknowledging the record but
    // before the followers have replicated it then the record will be lost".
    const run = failover('1');
    const fired = firedOn(run);
    expect(fired).toEqual(['e2', 'e3', 'e9', 'e13', 'e17', 'e19', 'e20', 'e26', 'e28', 'e30']);
    // Each firing crashes the leader that appended, and the controller elects another.
    expect(entriesOf(run, 'crash')).toHaveLength(10);
    expect(entriesOf(run, 'leader')).toHaveLength(10);
    expect(entriesOf(run, 'truncate')).toHaveLength(10);
    expect(anomalies(run)).toEqual(fired.map((id) => `${id}:0`));
    expect(totals(run)).toEqual({ rows: 20, sum: 2980, duplicates: 0, lost: 10 });
  });

  it('acks=all: the struck record was never acknowledged, so the producer retries it to the new leader → 11 firings (e2 and e14 twice), 30 rows, nothing lost or doubled', () => {
    const run = failover('all');
    expect(firedOn(run)).toEqual([
      'e2',
      'e2',
      'e7',
      'e10',
      'e13',
      'e14',
      'e14',
      'e19',
      'e20',
      'e21',
      'e29',
    ]);
    expect(entriesOf(run, 'truncate')).toHaveLength(11);
    expect(totals(run)).toEqual({ rows: 30, sum: 4650, duplicates: 0, lost: 0 });
  });
});

describe('random crash of Flink and Spark (a chance per record processed)', () => {
  it('Flink (seed 7, 0.03): 4 firings; KafkaSink AT_LEAST_ONCE replays since the restored checkpoint, 1+6+8+2 = 17 duplicates; EXACTLY_ONCE with read_committed: 60 once', () => {
    // e1..e60 one every 20 ms from 20 ms, 5 ms per record, a checkpoint every 200 ms on a fixed
    // schedule from the job's start (0 ms), latency 2 ms: each barrier arrives 2 ms after its
    // trigger.
    const flink = (sink: Record<string, unknown>) =>
      runScenario({
        seed: 7,
        workload: { events: events(60, (i) => i * 20) },
        processor: {
          type: 'flink',
          'execution.checkpointing.interval': 200,
          startAtMs: 0,
          processing: { perRecordMs: 5 },
        },
        sink: { type: 'kafka', topic: 'out', ...sink } as never,
        readers: [{ name: 'r', topic: 'out', 'isolation.level': 'read_committed' }],
        faults: [{ kind: 'random', what: 'crash', target: 'flink', probability: 0.03 }],
      });
    const alo = flink({ deliveryGuarantee: 'AT_LEAST_ONCE' });
    expect(ordinals(alo, 'flink')).toEqual([20, 26, 42, 63]);
    // At each crash: the records processed after the position the job restores.
    const t = alo.trace;
    const f = t.actors.indexOf('flink');
    let last = -1;
    let crashed = false;
    const replays: number[] = [];
    for (let i = 0; i < t.length; i++) {
      const k = t.kindOf(i);
      if (k === 'process' && t.actor[i] === f) last = t.offset[i]!;
      if (k === 'crash' && t.actor[i] === f) crashed = true;
      if (k === 'restore' && crashed) {
        crashed = false;
        replays.push(last + 1 - t.offset[i]!);
      }
    }
    // The crashes come after offsets 19 (420 ms), 24, 34 and 47. The checkpoint triggered at 400 ms
    // holds offset 19 (e1..e19), and is restored twice: 20 − 19 = 1, then 25 − 19 = 6 replayed.
    // The restarts wait 1, 1.5, 2.25 and 3.375 s (exponential-delay, Flink's default with
    // checkpoints), the schedule goes on meanwhile: the checkpoint at 5,000 ms holds offset 27
    // (35 − 27 = 8), the one at 8,400 ms offset 46 (48 − 46 = 2).
    expect(replays).toEqual([1, 6, 8, 2]);
    // 60 rows + 1 + 6 + 8 + 2 replayed = 77; 18,300 + 10·(20 + (20+…+25) + (28+…+35) + 47 + 48).
    expect(totals(alo)).toEqual({ rows: 77, sum: 23_320, duplicates: 17, lost: 0 });
    const eo = flink({
      deliveryGuarantee: 'EXACTLY_ONCE',
      transactionalIdPrefix: 'job',
      'transaction.timeout.ms': 60_000,
    });
    expect(entriesOf(eo, 'fault').length).toBeGreaterThan(0);
    expect(entriesOf(eo, 'crash')).toHaveLength(entriesOf(eo, 'fault').length);
    expect(totals(eo)).toEqual({ rows: 60, sum: 18_300, duplicates: 0, lost: 0 });
  });

  it('Spark (seed 1, 0.05, point after-sink-write): 4 firings, each re-runs the next batch once → plain append 100 rows; Delta with txnAppId 60', () => {
    // e1..e60 at 0 ms, 10 per micro-batch. A firing (drawn per record of a committed batch) arms a
    // crash after the next batch's sink write and before its commit-log entry (docs/semantics/scenarios.md#s16-spark-batch-re-execution).
    const spark = (sink: Record<string, unknown>) =>
      runScenario({
        seed: 1,
        workload: { events: events(60, () => 0) },
        processor: {
          type: 'spark',
          maxOffsetsPerTrigger: 10,
          startingOffsets: 'earliest',
          startAtMs: 1000,
        },
        sink: sink as never,
        faults: [
          {
            kind: 'random',
            what: 'crash',
            target: 'spark',
            point: 'after-sink-write',
            probability: 0.05,
          },
        ],
      });
    const plain = spark({ type: 'table', statementPer: 'batch' });
    expect(entriesOf(plain, 'fault')).toHaveLength(4);
    const planned = entriesOf(plain, 'batch-planned').map((i) => plain.trace.ckpt[i]);
    expect(planned).toEqual([0, 1, 1, 2, 2, 3, 3, 4, 4, 5]);
    expect(totals(plain)).toEqual({ rows: 100, sum: 30_500, duplicates: 40, lost: 0 });
    const delta = spark({ type: 'delta', txnAppId: 'q' });
    expect(entriesOf(delta, 'fault')).toHaveLength(4);
    expect(totals(delta)).toEqual({ rows: 60, sum: 18_300, duplicates: 0, lost: 0 });
  });
});

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

describe('validation: the random fault is checked as the fault it fires', () => {
  const base = { version: 1, name: 't', workload: { events: events(3) } };
  const issues = (fault: Record<string, unknown>, extra: Record<string, unknown> = {}) => {
    const r = parseScenario({ ...base, ...extra, faults: [{ kind: 'random', ...fault }] });
    return r.ok ? [] : r.issues.map((i) => `${i.path}: ${i.message}`);
  };

  it('accepts each kind with its fields, and fills the defaults', () => {
    const r = parseScenario({
      ...base,
      faults: [
        { kind: 'random', what: 'crash', target: 'consumer-0', probability: 0.1 },
        { kind: 'random', what: 'rebalance', probability: 0.1 },
        { kind: 'random', what: 'app-resend', probability: 0.1, untilMs: 500 },
        { kind: 'random', what: 'source-duplicate', probability: 0.1 },
        { kind: 'random', what: 'leader-failover', probability: 0.1, partition: 0 },
      ],
    });
    expect(r.ok && r.scenario.faults).toEqual([
      {
        kind: 'random',
        at: 0,
        what: 'crash',
        target: 'consumer-0',
        point: 'now',
        restartAfterMs: 1000,
        probability: 0.1,
      },
      { kind: 'random', at: 0, what: 'rebalance', target: 'consumer-0', probability: 0.1 },
      { kind: 'random', at: 0, what: 'app-resend', probability: 0.1, untilMs: 500 },
      { kind: 'random', at: 0, what: 'source-duplicate', probability: 0.1 },
      {
        kind: 'random',
        at: 0,
        what: 'leader-failover',
        partition: 0,
        restartAfterMs: 60_000,
        probability: 0.1,
      },
    ]);
  });

  it('names the field: a missing target, a field of another kind, an unknown what', () => {
    expect(issues({ what: 'crash', probability: 0.1 })).toEqual([
      'faults.0.target: required (a string)',
    ]);
    expect(issues({ what: 'app-resend', probability: 0.1, link: 'produce' })).toEqual([
      'faults.0.link: unknown key "link": not a field here (misspelt, or a field of another kind)',
    ]);
    expect(issues({ what: 'drop-response', probability: 0.1 })).toEqual([
      'faults.0.link: Invalid option: expected one of "produce"|"fetch"|"commit"|"sink"|"effect"|"txn"|"checkpoint"',
    ]);
    expect(issues({ what: 'explode', probability: 0.1 })).toEqual([
      'faults.0.what: what must be one of "drop-request", "drop-response", "crash", "rebalance", "app-resend", "source-duplicate", "leader-failover"',
    ]);
    expect(issues({ what: 'crash', target: 'consumer-0', probability: 1.5 })).toEqual([
      'faults.0.probability: at most 1',
    ]);
  });

  it('checks what the schema cannot: the target processes records, a group exists, the partition exists', () => {
    expect(issues({ what: 'crash', target: 'producer', probability: 0.1 })).toEqual([
      'faults.0.target: a random crash is drawn per record processed: "producer" processes none (targets: consumer-0)',
    ]);
    expect(issues({ what: 'crash', target: 'consumer-3', probability: 0.1 })[0]).toMatch(
      /^faults\.0\.target: no component "consumer-3"/,
    );
    expect(
      issues(
        { what: 'rebalance', target: 'flink', probability: 0.1 },
        { processor: { type: 'flink' } },
      ),
    ).toEqual(['faults.0.kind: a rebalance needs a consumer group (processor.type "consumer")']);
    expect(issues({ what: 'leader-failover', partition: 2, probability: 0.1 })).toEqual([
      'faults.0.partition: the topic has 1 partition(s)',
    ]);
    expect(issues({ what: 'leader-failover', topic: 'nope', probability: 0.1 })).toEqual([
      'faults.0.topic: no topic named "nope"',
    ]);
  });
});

it('each random kind is described in plain words (the page’s fault list, the timeline, the explanations)', () => {
  const r = { kind: 'random', at: 0, probability: 0.1 } as const;
  expect([
    describeFault({ ...r, what: 'drop-response', link: 'produce' }),
    describeFault({ ...r, what: 'crash', target: 'flink', point: 'now', restartAfterMs: 1000 }),
    describeFault({ ...r, what: 'rebalance', target: 'consumer-1' }),
    describeFault({ ...r, what: 'app-resend' }),
    describeFault({ ...r, what: 'source-duplicate' }),
    describeFault({ ...r, what: 'leader-failover', restartAfterMs: 60_000 }),
    describeFault({ ...r, what: 'leader-failover', partition: 2, restartAfterMs: 60_000 }),
    describeFault({
      ...r,
      what: 'crash',
      target: 'spark',
      point: 'now',
      restartAfterMs: 1,
      id: 'chaos',
    }),
  ]).toEqual([
    'a randomly lost response on produce',
    'a random crash of flink',
    "a random rebalance moving consumer-1's partitions",
    'a random application re-send',
    'a random duplicate from the upstream source',
    'a random failure of a partition leader',
    'a random failure of the leader of partition 2',
    'a random crash of spark "chaos"',
  ]);
});
