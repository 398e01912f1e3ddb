/**
 * Flink: checkpoints, restore, and what each sink sees on replay (docs/semantics/flink.md, docs/semantics/scenarios.md#s07-flink-checkpoint-replay, docs/semantics/scenarios.md#s08-crash-in-the-2pc-commit-phase, docs/semantics/scenarios.md#s25-side-effects-and-idempotency-keys).
 * e1..e200 arrive at 0 ms, e201..e250 at 5,000 ms (offsets 0..249 here; S07 numbers them from 1).
 * The job starts at 1 s and its checkpoint coordinator triggers a checkpoint every second from
 * then on, traffic or not (Flink's CheckpointCoordinator: a fixed schedule; the model's first
 * trigger is one interval after the start): checkpoint 1 at 2 s completes with the source at
 * offset 200; checkpoints 2, 3 and 4 at 3, 4 and 5 s complete while the job is idle, with the
 * same offset (accounted together when e201 is taken at 5,005 ms: checkpoint 4's barrier reached
 * the task at 5,001 ms, before it); checkpoint 5 at 6 s is the first after the burst. At 5 s the
 * job processes e201..e250 and the task manager crashes after 50 records (before checkpoint 5);
 * the job restores checkpoint 4 — offset 200, as checkpoint 1 — and replays e201..e250.
 * Faults that act on a checkpoint (a crash at its barrier, pre-commit or completion, a lost or
 * delayed checkpoint message) are armed at AFTER_IDLE = 5.5 s: checkpoint 4 (5 s) is over by then,
 * so they hit checkpoint 5, the one that covers e201..e250. Armed at 5 s they hit checkpoint 4, as
 * they would in Flink (tested below). With such a fault the coordinator simulates the checkpoints
 * from one interval before it is armed step by step: only 2 and 3 are accounted as idle (at
 * 4.5 s), checkpoint 4 is a real one — with nothing new, at offset 200.
 * https://nightlies.apache.org/flink/flink-docs-stable/docs/dev/datastream/fault-tolerance/checkpointing/
 */
import { describe, expect, it, vi } from 'vitest';
import type { Run } from '../simulate';
import { anomalies, entriesOf, runScenario, totals } from '../testing';
import { CHECKPOINT_STEPS, ERROR_CODES, firstIdleCheckpoint } from '../trace';
import { AFTER_IDLE, crashAfter, dupIds, eo, flink, sum201to250 } from './flinkTesting';

// Whole runs on a loaded two-core machine: its slowest test took 0.6 s in a full CI run
// (flink.test.ts, before its split, 5.3 s), so each gets 10 s, ≥ 5× that, far from vitest's 5 s default.
vi.setConfig({ testTimeout: 10_000 });

describe('Flink checkpoint replay (docs/semantics/scenarios.md#s07-flink-checkpoint-replay)', () => {
  it('restores checkpoint 4 — the last of the idle ones, at offset 200 as checkpoint 1', () => {
    const run = flink({ type: 'table' }, crashAfter(50));
    const restore = entriesOf(run, 'restore').at(-1)!;
    expect(run.trace.ckpt[restore]).toBe(4);
    expect(run.trace.offset[restore]).toBe(200);
  });

  it('each checkpoint records its state size: 200 keys (3,200 B) at offset 200, then 250 keys', () => {
    // Every event is its own key (no key given: the id). Checkpoint 1 snapshots e1..e200's keys,
    // and so do the idle checkpoints 2–4 (one history row). The crash (~5.15 s) comes before the
    // trigger at 6 s, which fails while the task is down (no id), as does 7 s; after the restore
    // (~7.15 s: 1 s down, 1 s restart delay) and the replay, checkpoint 5 at 8 s holds all 250
    // keys. 16 B per key (a count and a sum).
    const run = flink({ type: 'table' }, crashAfter(50));
    const t = run.trace;
    const completed = entriesOf(run, 'checkpoint').filter(
      (i) => CHECKPOINT_STEPS[t.aux[i]!] === 'completed',
    );
    expect(completed.map((i) => [t.offset[i], t.count[i]])).toEqual([
      [200, 200],
      [250, 250],
    ]);
    expect(
      run.state
        .jobManager!.history.filter((h) => h.status === 'completed')
        .map((h) => h.stateBytes),
    ).toEqual([3200, 3200, 4000]);
    expect(run.state.jobManager!.history.map((h) => h.idle ?? h.id)).toEqual([
      1,
      { firstId: 2, count: 3, firstTriggeredAt: 3000 },
      5,
    ]);
  });

  it('(a) a plain append sink has e201..e250 twice: 300 rows, 426,500', () => {
    const run = flink({ type: 'table' }, crashAfter(50));
    expect(totals(run)).toEqual({ rows: 300, sum: 313_750 + sum201to250, duplicates: 50, lost: 0 });
    expect(anomalies(run)).toEqual(dupIds(201, 250));
  });

  it('the keyed state itself is exactly-once: every event counted once', () => {
    const run = flink({ type: 'table' }, crashAfter(50));
    expect(totals(run, 'state')).toEqual({ rows: 250, sum: 313_750, duplicates: 0, lost: 0 });
  });

  it('(b) an idempotent upsert on the event id: 250 rows, 313,750', () => {
    expect(
      totals(flink({ type: 'table', statement: 'on-conflict-do-update' }, crashAfter(50))),
    ).toEqual({ rows: 250, sum: 313_750, duplicates: 0, lost: 0 });
  });

  it('(c) KafkaSink EXACTLY_ONCE read with read_committed: 250, 313,750', () => {
    expect(
      totals(flink(eo, crashAfter(50), [{ name: 'rc', 'isolation.level': 'read_committed' }])),
    ).toEqual({ rows: 250, sum: 313_750, duplicates: 0, lost: 0 });
  });

  it('(d) the same read with read_uncommitted sees the aborted epoch too: 300, 426,500', () => {
    const run = flink(eo, crashAfter(50), [{ name: 'ru', 'isolation.level': 'read_uncommitted' }]);
    expect(totals(run)).toEqual({ rows: 300, sum: 313_750 + sum201to250, duplicates: 50, lost: 0 });
  });

  it('(e) only 20 of the 50 reached the plain sink before the crash: e201..e220 twice', () => {
    const run = flink({ type: 'table' }, crashAfter(20));
    // 250 + 20 rows; sum 313,750 + 10·(201+…+220) = 313,750 + 42,100.
    expect(totals(run)).toEqual({ rows: 270, sum: 355_850, duplicates: 20, lost: 0 });
    expect(anomalies(run)).toEqual(dupIds(201, 220));
  });

  it('an email sent in the operator is outside the exactly-once boundary: 300 emails for 250 events (S25f)', () => {
    const run = flink(eo, crashAfter(50), [{ name: 'rc', 'isolation.level': 'read_committed' }], {
      sideEffect: { service: 'email' },
    });
    expect(totals(run, 'reader:rc').rows).toBe(250);
    expect(totals(run, 'effects')).toEqual({
      rows: 300,
      sum: 313_750 + sum201to250,
      duplicates: 50,
      lost: 0,
    });
  });
});

/**
 * Checkpoints while the job is idle. Flink's CheckpointCoordinator triggers a checkpoint every
 * `execution.checkpointing.interval` on a fixed schedule whatever the traffic, each with the next
 * id; one with nothing new completes like any other, with the same positions and state
 * (https://nightlies.apache.org/flink/flink-docs-stable/docs/dev/datastream/fault-tolerance/checkpointing/,
 * CheckpointCoordinator.java). The model accounts for them when the job wakes up: one 'idle'
 * entry (ckpt = the last id, until = the first one's trigger time, count = keys in their state)
 * and one history row. Latency 1 ms, 1 ms per record, a plain table sink, the job from 0 ms.
 */
describe('Flink checkpoints while the job is idle', () => {
  const job = (events: { id: string; at: number }[], faults: unknown[] = [], more = {}) =>
    runScenario({
      workload: { events: events.map((e, i) => ({ ...e, amount: i + 1 })) },
      network: { latencyMs: 1, jitterMs: 0 },
      producer: { 'linger.ms': 0 },
      processor: {
        type: 'flink',
        'execution.checkpointing.interval': 1000,
        startAtMs: 0,
        processing: { perRecordMs: 1 },
        ...more,
      },
      sink: { type: 'table' },
      faults: faults as never,
    });
  const steps = (run: Run) =>
    entriesOf(run, 'checkpoint')
      .filter((i) =>
        ['triggered', 'completed', 'idle'].includes(CHECKPOINT_STEPS[run.trace.aux[i]!]!),
      )
      .map((i) => {
        const t = run.trace;
        const s = CHECKPOINT_STEPS[t.aux[i]!];
        return s === 'idle'
          ? `${t.time[i]} idle ${firstIdleCheckpoint(t, i)}–${t.ckpt[i]} from ${t.until[i]} at ${t.offset[i]}`
          : `${t.time[i]} ${s} ${t.ckpt[i]}${s === 'completed' ? ` at ${t.offset[i]}` : ''}`;
      });
  // e1 at 0, e2 at 500, e3 at 1,000 ms, then nothing until e4 at 7,000 ms; the TaskManager crashes
  // at 7,500 ms (1 s down, then exponential-delay's 1 s).
  const gap = [
    { id: 'e1', at: 0 },
    { id: 'e2', at: 500 },
    { id: 'e3', at: 1000 },
    { id: 'e4', at: 7000 },
  ];

  it('an idle gap: checkpoints 3–7 (3..7 s) complete with nothing new, and a crash at 7.5 s restores checkpoint 7', () => {
    // By hand. Triggers at 1, 2, 3, … s. Checkpoint 1 (1 s): its barrier reaches the task at
    // 1,001 ms, after e1 and e2, before e3 (offset 2). Checkpoint 2 (2 s) holds e3 (offset 3).
    // Nothing new until e4 is taken at 7,005 ms: the triggers at 3, 4, 5, 6 and 7 s were
    // checkpoints 3..7, each complete at offset 3 — one 'idle' entry then, and e4 is processed in
    // epoch 8. The crash at 7,500 ms comes before the trigger at 8 s: the job restores checkpoint
    // 7 (offset 3) at 9,500 ms and processes e4 again; the triggers at 8 and 9 s fail while the
    // task is down (no id); checkpoint 8 (10 s) holds e4 (offset 4).
    const run = job(gap, [{ kind: 'crash', target: 'flink', at: 7500, restartAfterMs: 1000 }]);
    expect(steps(run)).toEqual([
      '1000 triggered 1',
      '1002 completed 1 at 2',
      '2000 triggered 2',
      '2002 completed 2 at 3',
      '7005 idle 3–7 from 3000 at 3',
      '10000 triggered 8',
      '10002 completed 8 at 4',
    ]);
    const t = run.trace;
    const e4 = entriesOf(run, 'process').filter((i) => t.event[i] === 3);
    expect(e4.map((i) => [t.time[i], t.ckpt[i]])).toEqual([
      [7006, 8],
      [9503, 8],
    ]);
    const restore = entriesOf(run, 'restore').at(-1)!;
    expect([t.time[restore], t.ckpt[restore], t.offset[restore]]).toEqual([9500, 7, 3]);
    expect(run.state.jobManager!.history.map((h) => [h.id, h.triggeredAt, h.idle])).toEqual([
      [1, 1000, undefined],
      [2, 2000, undefined],
      [7, 7000, { firstId: 3, count: 5, firstTriggeredAt: 3000 }],
      [8, 10_000, undefined],
    ]);
    // The restore replays e4 into the plain sink; the state counts it once.
    expect(anomalies(run)).toEqual(['e4:2']);
    expect(totals(run, 'state').duplicates).toBe(0);
  });

  it('a job idle from its start: checkpoints 1–5 hold offset 0 and no state; the run’s end accounts for the last ones', () => {
    // e1 at 5 s, taken at 5,005 ms: the triggers at 1..5 s were checkpoints 1..5 (offset 0,
    // 0 keys); checkpoint 6 (6 s) holds e1. The sink's crash at 9 s and its restart at 10 s keep
    // the run going: the triggers at 7..10 s are checkpoints 7..10, accounted when it ends.
    const run = job(
      [{ id: 'e1', at: 5000 }],
      [{ kind: 'crash', target: 'sink', at: 9000, restartAfterMs: 1000 }],
    );
    expect(steps(run)).toEqual([
      '5005 idle 1–5 from 1000 at 0',
      '6000 triggered 6',
      '6002 completed 6 at 1',
      '10000 idle 7–10 from 7000 at 1',
    ]);
    expect(run.endTime).toBe(10_000);
    expect(run.state.jobManager!.history[0]!.stateBytes).toBe(0);
  });

  it('an hour idle at 100 ms: 35,999 checkpoints in one entry, the trace stays small', () => {
    // Triggers every 100 ms from 100 ms. e1 (0 ms) is in checkpoint 1; e2 at 3,600,000 ms is taken
    // at 3,600,005 ms: the triggers at 200 ms … 3,600,000 ms were 35,999 idle checkpoints (2..36,000).
    const run = job(
      [
        { id: 'e1', at: 0 },
        { id: 'e2', at: 3_600_000 },
      ],
      [],
      { 'execution.checkpointing.interval': 100 },
    );
    expect(steps(run)).toEqual([
      '100 triggered 1',
      '102 completed 1 at 1',
      '3600005 idle 2–36000 from 200 at 1',
      '3600100 triggered 36001',
      '3600102 completed 36001 at 2',
    ]);
    expect(run.trace.length).toBeLessThan(200);
  });
});

describe('Flink two-phase commit: a crash in the commit phase (docs/semantics/scenarios.md#s08-crash-in-the-2pc-commit-phase)', () => {
  // e201..e250 are written in the epoch of checkpoint 5 (triggered at 6 s); checkpoint 5
  // completes; the task manager dies before the completion notice commits the transaction (the
  // crash point armed at AFTER_IDLE, after idle checkpoint 4's notice).
  const rc = [{ name: 'rc', 'isolation.level': 'read_committed' }];
  it('(a) recovered within transaction.timeout.ms: recoverAndCommit → 250, 313,750', () => {
    const run = flink(
      eo,
      [{ kind: 'crash', target: 'flink', point: 'after-checkpoint', at: AFTER_IDLE }],
      rc,
    );
    expect(totals(run)).toEqual({ rows: 250, sum: 313_750, duplicates: 0, lost: 0 });
    const restore = entriesOf(run, 'restore').at(-1)!;
    expect(run.trace.ckpt[restore]).toBe(5);
  });

  it('(b) down longer than transaction.timeout.ms (60 s): Kafka aborted the transaction → e201..e250 lost', () => {
    const run = flink(
      eo,
      [
        {
          kind: 'crash',
          target: 'flink',
          point: 'after-checkpoint',
          at: AFTER_IDLE,
          restartAfterMs: 600_000,
        },
      ],
      rc,
    );
    expect(totals(run)).toEqual({ rows: 200, sum: 201_000, duplicates: 0, lost: 50 });
    expect(entriesOf(run, 'data-loss')).toHaveLength(1);
    expect(run.verdict.explanations[0]!.sentence).toContain('transaction.timeout.ms');
  });

  it('(c) a crash right after the commit request left: the commit still happens → 250', () => {
    expect(
      totals(
        flink(eo, [{ kind: 'crash', target: 'flink', point: 'during-commit', at: AFTER_IDLE }], rc),
      ),
    ).toEqual({ rows: 250, sum: 313_750, duplicates: 0, lost: 0 });
  });

  it('a crash after the pre-commit, before the checkpoint completes: the epoch is aborted and replayed', () => {
    const run = flink(
      eo,
      [{ kind: 'crash', target: 'flink', point: 'after-precommit', at: AFTER_IDLE }],
      rc,
    );
    expect(totals(run)).toEqual({ rows: 250, sum: 313_750, duplicates: 0, lost: 0 });
    const declined = entriesOf(run, 'checkpoint').filter(
      (i) => run.trace.aux[i] === CHECKPOINT_STEPS.indexOf('declined'),
    );
    expect(declined.map((i) => run.trace.ckpt[i])).toEqual([5]);
  });
});

/**
 * KafkaSinkBuilder sets transaction.timeout.ms to 1 h when it is not set
 * (DEFAULT_KAFKA_TRANSACTION_TIMEOUT); a broker at its defaults accepts at most
 * transaction.max.timeout.ms = 15 min and refuses the InitProducerId with
 * INVALID_TRANSACTION_TIMEOUT ("The transaction timeout is larger than the maximum value allowed by
 * the broker"), https://kafka.apache.org/documentation/#brokerconfigs_transaction.max.timeout.ms.
 * By hand, latency 1 ms each way, exponential-delay (Flink's default with checkpointing: 1 s,
 * then × 1.5): the job starts at 1,000 ms; the recovery round trip (1,000 → 1,002) and the
 * InitProducerId round trip (1,002 → 1,004) end in the refusal, the task fails at 1,004 and runs
 * again after the backoff, failing 4 ms after each start: 1,004; + 1,000 + 4 = 2,008;
 * + 1,500 + 4 = 3,512; + 2,250 + 4 = 5,766; + 3,375 + 4 = 9,145; the next (+ 5,062 + 4) falls
 * after the run stops at 10,000 ms. Five failures; nothing is ever processed or written.
 */
describe('Flink KafkaSink left at its 1 h transaction.timeout.ms against a default broker', () => {
  const { 'transaction.timeout.ms': _set, ...unset } = eo;
  const job = (broker: Record<string, unknown> = {}, sink: Record<string, unknown> = unset) =>
    flink(
      sink,
      [],
      [{ name: 'rc', topic: 'out', 'isolation.level': 'read_committed' }],
      {},
      { broker, stopAtMs: 10_000 },
    );

  it('is refused at InitProducerId: the job fails at every start, 0 rows, 250 lost', () => {
    const run = job();
    expect(totals(run)).toEqual({ rows: 0, sum: 0, duplicates: 0, lost: 250 });
    expect(totals(run, 'processed').rows).toBe(0);
    const refusals = entriesOf(run, 'reject').filter(
      (i) => ERROR_CODES[run.trace.aux[i]!] === 'INVALID_TRANSACTION_TIMEOUT',
    );
    expect(refusals).toHaveLength(5);
    const crashes = entriesOf(run, 'crash');
    expect(crashes.map((i) => run.trace.time[i])).toEqual([1004, 2008, 3512, 5766, 9145]);
    const why = run.verdict.explanations[0]!.sentence;
    expect(why).toContain('INVALID_TRANSACTION_TIMEOUT');
    expect(why).toContain('3600000 ms');
    expect(why).toContain('900000 ms');
  });

  const fixedDelay = (attempts?: number) =>
    flink(
      unset,
      [],
      [{ name: 'rc', topic: 'out', 'isolation.level': 'read_committed' }],
      {
        'restart-strategy.type': 'fixed-delay',
        ...(attempts === undefined ? {} : { 'restart-strategy.fixed-delay.attempts': attempts }),
      },
      { stopAtMs: 10_000 },
    );

  it('with restart-strategy.type fixed-delay and unlimited attempts the job fails every 1,004 ms instead: nine failures', () => {
    // Each cycle: the 1 s delay plus the two round trips (4 ms): 1,004 + 1,004·k, k = 0..8.
    // attempts = Integer.MAX_VALUE, what Flink before 1.19 used when checkpointing was on and no
    // strategy was set.
    const run = fixedDelay(2147483647);
    expect(entriesOf(run, 'crash').map((i) => run.trace.time[i])).toEqual(
      Array.from({ length: 9 }, (_, k) => 1004 + 1004 * k),
    );
  });

  it('with fixed-delay at its default restart-strategy.fixed-delay.attempts (1) the second failure fails the job: two failures', () => {
    // https://nightlies.apache.org/flink/flink-docs-stable/docs/deployment/config/#restart-strategy-fixed-delay-attempts
    // Failure 1 at 1,004 ms is restarted 1 s later and fails again at 2,008 ms; failure 2 > 1
    // attempt: no restart, no third start.
    const run = fixedDelay();
    expect(entriesOf(run, 'crash').map((i) => run.trace.time[i])).toEqual([1004, 2008]);
    expect(entriesOf(run, 'restore').map((i) => run.trace.time[i])).toEqual([1000, 2004]);
  });

  it('runs once the broker allows 1 h (transaction.max.timeout.ms 3600000): 250 rows', () => {
    expect(totals(job({ 'transaction.max.timeout.ms': 3_600_000 }))).toEqual({
      rows: 250,
      sum: 313_750,
      duplicates: 0,
      lost: 0,
    });
  });

  it('accepts a timeout equal to the broker maximum (900000): 250 rows', () => {
    expect(totals(job({}, { ...unset, 'transaction.timeout.ms': 900_000 })).rows).toBe(250);
  });
});

it('KafkaSink: a send rejected after the coordinator aborted the transaction fails the task, so no checkpoint completes over records never written', () => {
  // transaction.timeout.ms 3 s, checkpoints every 10 s, e1..e20 every 500 ms from 10 ms, the job
  // from 1 s. Transaction 1 begins with e1's send (1,013 ms) and is aborted by the coordinator at
  // 4,013 ms; e9's send is rejected (INVALID_PRODUCER_EPOCH) and the producer fenced at 4,030 ms.
  // KafkaWriter rethrows the send's exception: the task fails then, and restarts from the start
  // (no checkpoint yet) after exponential-delay's 1 s (5,030 ms). Its transaction 2 is aborted in
  // turn at 8,043 ms, the next send fails at 8,530 ms, the restart waits 1.5 s (10,030 ms); then
  // checkpoint 1 (triggered at 11,000 ms, 10 s after the job's start) completes at 11,008 ms,
  // before the third transaction's timeout, with all 20 records: each reaches the read_committed
  // reader once. (Before: the job ran on after the abort, checkpoint 1 completed over e9..e20
  // never written, and all 20 were lost.)
  const run = runScenario({
    workload: { topic: 'in', generate: { count: 20, startAtMs: 10, intervalMs: 500 } },
    processor: { type: 'flink', 'execution.checkpointing.interval': 10_000, startAtMs: 1000 },
    sink: {
      type: 'kafka',
      topic: 'out',
      deliveryGuarantee: 'EXACTLY_ONCE',
      transactionalIdPrefix: 'job-a',
      'transaction.timeout.ms': 3000,
    },
    readers: [{ name: 'rc', topic: 'out', 'isolation.level': 'read_committed' }],
  });
  const t = run.trace;
  expect(entriesOf(run, 'crash').map((i) => t.time[i])).toEqual([4030, 8530]);
  expect(entriesOf(run, 'restore').map((i) => t.time[i])).toEqual([1000, 5030, 10030]);
  expect(totals(run)).toEqual({ rows: 20, sum: 2100, duplicates: 0, lost: 0 });
});
