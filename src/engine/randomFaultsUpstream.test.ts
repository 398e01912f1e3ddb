/**
 * Seeded random faults upstream of the processor — app-resend, source-duplicate, leader-failover —
 * and random crashes of Flink and Spark: counts pinned from fixed seeds, checked against the trace.
 */
import { describe, expect, it, vi } from 'vitest';
import { anomalies, entriesOf, events, runScenario, totals } from './testing';
import { idOf, firedOn, ordinals, upstream, FIRED_SEED_7 } from './randomFaultsTesting';

// Whole runs on a loaded two-core machine: its slowest test took 3.9 s in a full CI run
// (this file 2.2 s), so each gets 20 s, ≥ 5× that, far from vitest's 5 s default.
vi.setConfig({ testTimeout: 20_000 });

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
