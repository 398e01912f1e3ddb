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

// Whole runs on a loaded two-core machine: its slowest test took 0.6 s in a full CI run
// (this file 5.3 s), so each gets 10 s, ≥ 5× that, far from vitest's 5 s default.
vi.setConfig({ testTimeout: 10_000 });

const ev = Array.from({ length: 250 }, (_, i) => ({
  id: `e${i + 1}`,
  amount: 10 * (i + 1),
  at: i < 200 ? 0 : 5000,
}));
const eo = {
  type: 'kafka',
  deliveryGuarantee: 'EXACTLY_ONCE',
  transactionalIdPrefix: 'job-a',
  // Set, as a Flink user must: KafkaSink's own 1 h is refused by a default broker (tested below).
  'transaction.timeout.ms': 60_000,
} as const;
const flink = (
  sink: Record<string, unknown>,
  faults: unknown[],
  readers: unknown[] = [],
  processor: Record<string, unknown> = {},
  top: Record<string, unknown> = {},
) =>
  runScenario({
    ...top,
    workload: { events: ev },
    network: { latencyMs: 1, jitterMs: 0 },
    producer: { 'linger.ms': 0 },
    processor: {
      type: 'flink',
      'execution.checkpointing.interval': 1000,
      startAtMs: 1000,
      processing: { perRecordMs: 1 },
      ...processor,
    },
    sink: sink as never,
    readers: readers as never,
    faults: faults as never,
  });
/** When the faults that act on a checkpoint are armed: after idle checkpoint 4, before 5. */
const AFTER_IDLE = 5500;
const crashAfter = (n: number) => [
  { kind: 'crash', target: 'flink', point: 'mid-batch', afterRecords: n, at: 5000 },
];
const sum201to250 = (10 * ((201 + 250) * 50)) / 2; // 112,750
const dupIds = (from: number, to: number) =>
  Array.from({ length: to - from + 1 }, (_, k) => `e${from + k}:2`);

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

// Flink fault point 'before-barrier': the task manager dies when checkpoint barrier n reaches the
// end of the chain, before it snapshots, pre-commits or acknowledges (FlinkTask.handleBarrier).
// The S07 workload above (docs/semantics/scenarios.md#s07-flink-checkpoint-replay): e1..e200 at 0 ms, e201..e250 at 5,000 ms
// (offsets 0..249 here; S07 numbers them from 1), checkpoints every second, 1 ms per record.
//
// By hand. Checkpoint 1 (triggered at 2 s) completes with the source at offset 200 (state
// {count 200, sum 201,000}); checkpoints 2, 3 and 4 (3, 4, 5 s) complete while the job is idle,
// at the same offset. At 5 s the job processes e201..e250 and writes their 50 outputs (done by
// ~5.2 s). The crash point is armed at AFTER_IDLE (5.5 s), after checkpoint 4: checkpoint 5 is
// triggered at 6 s, its barrier reaches the task (6,001 ms) after e250, and the task crashes
// there. Checkpoint 5 never gets a snapshot: it is declined, and the job restores checkpoint 4
// (offset 200) — "resets them to the latest successful checkpoint. The input streams are reset to
// the point of the state snapshot" (https://nightlies.apache.org/flink/flink-docs-stable/docs/concepts/stateful-stream-processing/) — at 8,001 ms (1 s down, then the 1 s
// restart delay; the triggers at 7 and 8 s fail while the task is down, without an id) and
// replays e201..e250; checkpoint 6 (9 s) completes. For the sink this is S07's crash between
// checkpoints with all 50 outputs already written (docs/semantics/flink.md#sink-flush-timing default): the same counts as S07
// a/b/c/d.
const rcBarrier = [{ name: 'rc', 'isolation.level': 'read_committed' }];
const ruBarrier = [{ name: 'ru', 'isolation.level': 'read_uncommitted' }];
/** The S07 job with a crash before the first barrier handled at or after `at`. */
const beforeBarrier = (sink: Record<string, unknown>, readers: unknown[] = [], at = AFTER_IDLE) =>
  flink(sink, [{ kind: 'crash', target: 'flink', point: 'before-barrier', at }], readers);
/** The checkpoint ids that reached step `s`, in trace order. */
const ckptsAt = (run: Run, s: (typeof CHECKPOINT_STEPS)[number]) =>
  entriesOf(run, 'checkpoint')
    .filter((i) => run.trace.aux[i] === CHECKPOINT_STEPS.indexOf(s))
    .map((i) => run.trace.ckpt[i]);

describe("Flink crash 'before-barrier' on the S07 workload", () => {
  it('the crash lands on barrier 5: checkpoint 5 is declined without a snapshot, the job restores checkpoint 4 at offset 200', () => {
    const run = beforeBarrier({ type: 'table' });
    expect(entriesOf(run, 'fault')).toHaveLength(1);
    expect(entriesOf(run, 'crash').map((i) => run.trace.time[i])).toEqual([6001]);
    expect(ckptsAt(run, 'declined')).toEqual([5]);
    // Barriers 1 and 4 were snapshotted (4 with nothing new: the fault makes it a real one), the
    // idle checkpoints 2–3 are one 'idle' entry, barrier 5 never was snapshotted; the checkpoint
    // after the replay (6) completes.
    expect(ckptsAt(run, 'idle')).toEqual([3]);
    expect(ckptsAt(run, 'barrier')).toEqual([1, 4, 6]);
    expect(ckptsAt(run, 'completed')).toEqual([1, 4, 6]);
    const restore = entriesOf(run, 'restore').at(-1)!;
    expect([run.trace.time[restore], run.trace.ckpt[restore]]).toEqual([8001, 4]);
    expect(run.trace.offset[restore]).toBe(200);
  });

  it('armed at 5 s, the crash lands on the barrier of idle checkpoint 4 (5,001 ms), before e201 is taken: the burst is processed once → 250 rows', () => {
    // As in Flink, the checkpoint triggered at 5 s is a real one although nothing new came since
    // checkpoint 1: a fault that can hit a checkpoint gets the real ones from one interval before
    // it is armed (4 s: checkpoints 2 and 3 are accounted as idle then). Its barrier arrives at
    // 5,001 ms, before e201 reaches the task (5,002 ms): the task dies, checkpoint 4 is declined
    // and the job restores checkpoint 3 (offset 200) at 7,001 ms; e201..e250 are then processed
    // once and checkpoint 5 (8 s) covers them.
    const run = beforeBarrier({ type: 'table' }, [], 5000);
    expect(entriesOf(run, 'crash').map((i) => run.trace.time[i])).toEqual([5001]);
    expect(ckptsAt(run, 'idle')).toEqual([3]);
    expect(ckptsAt(run, 'declined')).toEqual([4]);
    expect(ckptsAt(run, 'completed')).toEqual([1, 5]);
    const restore = entriesOf(run, 'restore').at(-1)!;
    expect([run.trace.time[restore], run.trace.ckpt[restore], run.trace.offset[restore]]).toEqual([
      7001, 3, 200,
    ]);
    expect(totals(run)).toEqual({ rows: 250, sum: 313_750, duplicates: 0, lost: 0 });
  });

  it('the keyed state is still exactly-once: 250 events counted once', () => {
    expect(totals(beforeBarrier({ type: 'table' }), 'state')).toEqual({
      rows: 250,
      sum: 313_750,
      duplicates: 0,
      lost: 0,
    });
  });

  it('(a) plain append sink: e201..e250 written before the crash and again by the replay → 300 rows, 426,500, 50 duplicates', () => {
    // 250 + 50 rows; sum 313,750 + 10·(201+…+250) = 313,750 + 112,750 (docs/semantics/scenarios.md#s07-flink-checkpoint-replay, https://nightlies.apache.org/flink/flink-docs-stable/docs/connectors/datastream/kafka/
    // "messages may be duplicated when Flink restarts").
    const run = beforeBarrier({ type: 'table' });
    expect(totals(run)).toEqual({ rows: 300, sum: 313_750 + sum201to250, duplicates: 50, lost: 0 });
    expect(anomalies(run)).toEqual(dupIds(201, 250));
  });

  it('(b) upsert on the event id (ON CONFLICT DO UPDATE): the replay overwrites → 250 rows, 313,750', () => {
    // docs/semantics/scenarios.md#s07-flink-checkpoint-replay: one row per event id, the replayed values equal the first ones.
    const run = beforeBarrier({ type: 'table', statement: 'on-conflict-do-update' });
    expect(totals(run)).toEqual({ rows: 250, sum: 313_750, duplicates: 0, lost: 0 });
    expect(anomalies(run)).toEqual([]);
  });

  it('(c) KafkaSink EXACTLY_ONCE, read_committed: epoch 2 was never pre-committed, it is aborted on restore → 250 rows, 313,750', () => {
    // e201..e250 went into the transaction of epoch 5, opened at checkpoint 4's pre-commit (4 is
    // simulated step by step, the fault being near). The crash comes before preCommit(epoch 5), so
    // on restore it is a lingering transaction and is aborted (recoverAndAbort, https://github.com/apache/flink/blob/release-1.17/flink-streaming-java/src/main/java/org/apache/flink/streaming/api/functions/sink/TwoPhaseCommitSinkFunction.java,
    // S07c); the replay writes them into the epoch of checkpoint 6, which commits. A
    // read_committed reader sees each event once.
    const run = beforeBarrier(eo, rcBarrier);
    expect(totals(run)).toEqual({ rows: 250, sum: 313_750, duplicates: 0, lost: 0 });
    // Checkpoint 4 pre-commits an empty transaction (no number): nothing to commit.
    expect(ckptsAt(run, 'pre-committed')).toEqual([1, 4, 6]);
    expect(ckptsAt(run, 'committed')).toEqual([1, 6]);
  });

  it('(d) the same with read_uncommitted: the aborted epoch is visible too → 300 rows, 426,500', () => {
    // "all messages are visible … even if they were part of an aborted transaction"
    // (docs/semantics/scenarios.md#s07-flink-checkpoint-replay, https://kafka.apache.org/documentation/#semantics).
    const run = beforeBarrier(eo, ruBarrier);
    expect(totals(run)).toEqual({ rows: 300, sum: 313_750 + sum201to250, duplicates: 50, lost: 0 });
    expect(anomalies(run)).toEqual(dupIds(201, 250));
  });
});

describe("Flink crash 'before-barrier' of the very first checkpoint", () => {
  // at 0: the crash lands on barrier 1 (~2 s), after e1..e200 were processed and written. No
  // checkpoint has completed, so nothing is restored: the source starts again at offset 0 (no
  // offsets were ever committed: the KafkaSource commits only on a completed checkpoint, F-KAF)
  // and e1..e200 are replayed; e201..e250 arrive later and are processed once.
  it('plain append sink: e1..e200 twice → 450 rows, 514,750, 200 duplicates', () => {
    // 250 + 200 rows; sum 313,750 + 10·(1+…+200) = 313,750 + 201,000.
    const run = beforeBarrier({ type: 'table' }, [], 0);
    expect(ckptsAt(run, 'declined')).toEqual([1]);
    const restore = entriesOf(run, 'restore').at(-1)!;
    expect(run.trace.ckpt[restore]).toBe(-1);
    expect(run.trace.offset[restore]).toBe(0);
    expect(totals(run)).toEqual({ rows: 450, sum: 514_750, duplicates: 200, lost: 0 });
    expect(anomalies(run)).toEqual(dupIds(1, 200));
  });

  it('KafkaSink EXACTLY_ONCE, read_committed: epoch 1 is aborted, the replay commits once → 250 rows', () => {
    expect(totals(beforeBarrier(eo, rcBarrier, 0))).toEqual({
      rows: 250,
      sum: 313_750,
      duplicates: 0,
      lost: 0,
    });
  });
});

describe('Flink execution.checkpointing.timeout: a checkpoint that never completes expires', () => {
  // The S07 workload. Checkpoint 1 completes at offset 200 (~2 s), 2–3 while idle, 4 (5 s, real:
  // the fault is near) at offset 200 too. Checkpoint 5 is triggered at 6,000 ms, after the burst
  // at 5 s; the first checkpoint message at or after AFTER_IDLE (5.5 s) is its barrier, which the
  // fault drops. Flink's CheckpointCoordinator expires it `timeout` after its trigger ("Checkpoint
  // expired before completing") and CheckpointFailureManager counts the expiry as a failed
  // checkpoint: with tolerable-failed-checkpoints 0 (the default) the job fails over (the queued
  // triggers are aborted with it) and restores checkpoint 4 after the 1 s restart delay; with 1 it
  // runs on: the periodic triggers that came while 5 was pending were queued
  // (CheckpointRequestDecider), and the oldest runs at once — checkpoint 6 covers the records —
  // then the others, one after another. Sources: Flink's config reference
  // (execution.checkpointing.timeout, execution.checkpointing.tolerable-failed-checkpoints),
  // CheckpointFailureManager.java and CheckpointRequestDecider.java.
  const lostBarrier = [
    { kind: 'drop-request', link: 'checkpoint', at: AFTER_IDLE, id: 'lost barrier' },
  ];
  const rc = [{ name: 'rc', 'isolation.level': 'read_committed' }];
  const timeout = (ms: number, tolerable = 0) => ({
    'execution.checkpointing.timeout': ms,
    'execution.checkpointing.tolerable-failed-checkpoints': tolerable,
  });
  const statuses = (run: Run) =>
    run.state.jobManager!.history.map((h) =>
      h.idle ? `${h.idle.firstId}–${h.id}:idle` : `${h.id}:${h.status}`,
    );

  it('defaults: 10 min timeout, 0 tolerated — checkpoint 5 expires at 606,000 ms and the job fails over to checkpoint 4', () => {
    const run = flink({ type: 'table' }, lostBarrier);
    const t = run.trace;
    const exp = entriesOf(run, 'checkpoint').filter(
      (i) => CHECKPOINT_STEPS[t.aux[i]!] === 'expired',
    );
    expect(exp.map((i) => [t.ckpt[i], t.time[i]])).toEqual([[5, 6000 + 600_000]]);
    const crash = entriesOf(run, 'crash');
    expect(crash.map((i) => [t.time[i], t.cause[i]])).toEqual([[606_000, exp[0]]]);
    const restore = entriesOf(run, 'restore').at(-1)!;
    expect([t.time[restore], t.ckpt[restore], t.offset[restore]]).toEqual([607_000, 4, 200]);
    // The 600 triggers queued while 5 was pending fail with the failover; after the restore the
    // schedule goes on: checkpoint 6 at 608 s covers the replay.
    expect(statuses(run)).toEqual([
      '1:completed',
      '2–3:idle',
      '4:completed',
      '5:expired',
      '6:completed',
    ]);
  });

  it('plain append sink, 0 tolerated: the failover replays e201..e250 → 300 rows, 426,500, 50 duplicates, explained', () => {
    const run = flink({ type: 'table' }, lostBarrier, [], timeout(60_000));
    expect(totals(run)).toEqual({ rows: 300, sum: 313_750 + sum201to250, duplicates: 50, lost: 0 });
    expect(anomalies(run)).toEqual(dupIds(201, 250));
    const s = run.verdict.explanations[0]!.sentence;
    expect(s).toContain(
      'checkpoint 5 did not complete (its barrier was lost: fault "lost barrier")',
    );
    expect(s).toContain('execution.checkpointing.timeout (60000 ms)');
    expect(s).toContain('tolerable-failed-checkpoints=0 the job failed over');
    expect(s).toContain('restored checkpoint 4 and rewound the source to offset 200');
  });

  it('plain append sink, 1 tolerated: no failover, the queued checkpoint 6 completes at offset 250 right at the expiry → 250 rows, no duplicate', () => {
    const run = flink({ type: 'table' }, lostBarrier, [], timeout(60_000, 1));
    expect(entriesOf(run, 'crash')).toEqual([]);
    // Checkpoint 5 (6 s) expires at 66 s. The 60 triggers of 7..66 s were queued: 6 runs at the
    // expiry and covers e201..e250, then 7..65 one after another (each as the previous completes).
    const st = statuses(run);
    expect(st.slice(0, 5)).toEqual([
      '1:completed',
      '2–3:idle',
      '4:completed',
      '5:expired',
      '6:completed',
    ]);
    expect(st.slice(5)).toEqual(Array.from({ length: 59 }, (_, k) => `${k + 7}:completed`));
    const six = run.state.jobManager!.history.find((h) => h.id === 6)!;
    expect([six.triggeredAt, six.positions]).toEqual([66_000, [250]]);
    expect(run.state.jobManager!.completed!.positions).toEqual([250]);
    expect(totals(run)).toEqual({ rows: 250, sum: 313_750, duplicates: 0, lost: 0 });
  });

  it('KafkaSink EXACTLY_ONCE, read_committed, 0 tolerated: the open epoch is aborted and replayed → 250 rows once', () => {
    const run = flink(eo, lostBarrier, rc, timeout(60_000));
    expect(totals(run)).toEqual({ rows: 250, sum: 313_750, duplicates: 0, lost: 0 });
  });

  it('EXACTLY_ONCE, 1 tolerated, checkpoint timeout = transaction.timeout.ms (60 s): the broker aborts epoch 5 before checkpoint 6 commits it → e201..e250 lost', () => {
    // Epoch 5's transaction starts with its first record (~5 s) and is aborted 60 s later;
    // checkpoint 6 is triggered only at 66 s, at the 60 s expiry of checkpoint 5 (6 s).
    const run = flink(eo, lostBarrier, rc, timeout(60_000, 1));
    expect(totals(run)).toEqual({ rows: 200, sum: 313_750 - sum201to250, duplicates: 0, lost: 50 });
  });

  it('EXACTLY_ONCE, 1 tolerated, transaction.timeout.ms 15 min: checkpoint 6 commits epoch 5 → 250 rows once', () => {
    const run = flink(
      { ...eo, 'transaction.timeout.ms': 900_000 },
      lostBarrier,
      rc,
      timeout(60_000, 1),
    );
    expect(totals(run)).toEqual({ rows: 250, sum: 313_750, duplicates: 0, lost: 0 });
  });

  it('an acknowledgement that arrives after the expiry is ignored: checkpoint 5 stays expired', () => {
    // The ack of checkpoint 5 is delayed 70 s (past the 60 s timeout, to ~76 s); 1 failure
    // tolerated: the queued checkpoints 6..65 run from the expiry at 66 s on.
    const run = flink(
      { type: 'table' },
      [{ kind: 'delay-response', link: 'checkpoint', at: AFTER_IDLE, delayMs: 70_000 }],
      [],
      timeout(60_000, 1),
    );
    const t = run.trace;
    const completed = entriesOf(run, 'checkpoint')
      .filter((i) => CHECKPOINT_STEPS[t.aux[i]!] === 'completed')
      .map((i) => t.ckpt[i]);
    expect(completed).toEqual([1, 4, ...Array.from({ length: 60 }, (_, k) => k + 6)]);
    expect(statuses(run).slice(0, 5)).toEqual([
      '1:completed',
      '2–3:idle',
      '4:completed',
      '5:expired',
      '6:completed',
    ]);
    expect(totals(run)).toEqual({ rows: 250, sum: 313_750, duplicates: 0, lost: 0 });
  });
});

describe("Flink's JDBC exactly-once sink (XA) on the S07/S08 workload", () => {
  // One XA transaction per checkpoint epoch: PREPARE TRANSACTION at the barrier, COMMIT PREPARED
  // when the checkpoint completes; on restore, the restored checkpoint's prepared transactions
  // are committed and the others rolled back (JdbcXaSinkFunction, flink-connector-jdbc).
  // Checkpoint 1 (2 s) covers e1..e200 (XA transaction 1); checkpoints 2–4 (3–5 s) complete while
  // the job is idle, and the XA transaction opened after checkpoint 1's prepare (2) carries over
  // to checkpoint 5 (6 s), which covers e201..e250. With a fault near a checkpoint (AFTER_IDLE),
  // checkpoint 4 is simulated step by step: it prepares nothing and the next epoch opens xid 3.
  const xa = { type: 'table', xa: true, retries: 0 };
  const steps = (run: Run, s: (typeof CHECKPOINT_STEPS)[number]) =>
    entriesOf(run, 'checkpoint')
      .filter((i) => CHECKPOINT_STEPS[run.trace.aux[i]!] === s)
      .map((i) => [run.trace.ckpt[i], run.trace.txn[i], run.trace.time[i]]);

  it('rows become visible only at COMMIT PREPARED: e1..e200 at checkpoint 1’s commit, e201..e250 at checkpoint 5’s', () => {
    const run = flink(xa, []);
    expect(totals(run)).toEqual({ rows: 250, sum: 313_750, duplicates: 0, lost: 0 });
    const committed = steps(run, 'committed');
    expect(committed.map(([ck, xid]) => [ck, xid])).toEqual([
      [1, 1],
      [5, 2],
    ]);
    const visible = run.verdict.visibleAt;
    const at = (j: number) => run.trace.time[visible[j]!];
    expect(at(0)).toBe(committed[0]![2]);
    expect(at(199)).toBe(committed[0]![2]);
    expect(at(200)).toBe(committed[1]![2]);
    // The plain sink shows e1 as soon as it is processed, a second before the checkpoint.
    const plain = flink({ type: 'table' }, []);
    expect(plain.trace.time[plain.verdict.visibleAt[0]!]).toBeLessThan(committed[0]![2]! - 900);
  });

  it('(a) crash after 50 of e201..e250 (before checkpoint 2): their open transaction is rolled back, the replay commits once → 250 rows', () => {
    const run = flink(xa, crashAfter(50));
    expect(totals(run)).toEqual({ rows: 250, sum: 313_750, duplicates: 0, lost: 0 });
    // xid 2 held the 50 rows written before the crash; the restore of checkpoint 4 discards it.
    const rolled = entriesOf(run, 'checkpoint').filter(
      (i) => CHECKPOINT_STEPS[run.trace.aux[i]!] === 'aborted',
    );
    // Never prepared: a plain ROLLBACK of an open branch (until = -1, no prepare time).
    expect(rolled.map((i) => [run.trace.txn[i], run.trace.count[i], run.trace.until[i]])).toEqual([
      [2, 50, -1],
    ]);
  });

  it('(b) crash after the prepare, before checkpoint 5 completes: the prepared transaction is rolled back and replayed → 250 rows', () => {
    const run = flink(xa, [
      { kind: 'crash', target: 'flink', point: 'after-precommit', at: AFTER_IDLE },
    ]);
    expect(ckptsAt(run, 'declined')).toEqual([5]);
    expect(steps(run, 'aborted').map(([ck, xid]) => [ck, xid])).toEqual([[5, 3]]);
    // ROLLBACK PREPARED: `until` is when it was prepared, the time of its pre-commit entry.
    const [rollback] = entriesOf(run, 'checkpoint').filter(
      (i) => CHECKPOINT_STEPS[run.trace.aux[i]!] === 'aborted',
    );
    expect(run.trace.until[rollback!]).toBe(steps(run, 'pre-committed')[1]![2]);
    expect(totals(run)).toEqual({ rows: 250, sum: 313_750, duplicates: 0, lost: 0 });
  });

  it('(c) crash after checkpoint 5 completed, before the commit: the restore commits it → 250 rows', () => {
    const run = flink(xa, [
      { kind: 'crash', target: 'flink', point: 'after-checkpoint', at: AFTER_IDLE },
    ]);
    const restore = entriesOf(run, 'restore').at(-1)!;
    expect(run.trace.ckpt[restore]).toBe(5);
    expect(steps(run, 'committed').map(([ck, xid]) => [ck, xid])).toEqual([
      [1, 1],
      [5, 3],
    ]);
    expect(totals(run)).toEqual({ rows: 250, sum: 313_750, duplicates: 0, lost: 0 });
  });

  it('(d) down 2 h after the checkpoint completed: a prepared PostgreSQL transaction does not time out → still 250 rows (a Kafka transaction would be lost)', () => {
    const down = [
      {
        kind: 'crash',
        target: 'flink',
        point: 'after-checkpoint',
        at: AFTER_IDLE,
        restartAfterMs: 7_200_000,
      },
    ];
    expect(totals(flink(xa, down))).toEqual({ rows: 250, sum: 313_750, duplicates: 0, lost: 0 });
    expect(totals(flink(eo, down, [{ name: 'rc', 'isolation.level': 'read_committed' }]))).toEqual({
      rows: 200,
      sum: 313_750 - sum201to250,
      duplicates: 0,
      lost: 50,
    });
  });

  it('(e) a crash while the commit request is on its way: the database commits it; the restore finds nothing left to commit → 250 rows', () => {
    const run = flink(xa, [{ kind: 'crash', target: 'flink', point: 'during-commit', at: 5000 }]);
    const crash = entriesOf(run, 'crash')[0]!;
    const commit2 = steps(run, 'committed')[1]!;
    expect(commit2[2]).toBeGreaterThan(run.trace.time[crash]!);
    expect(steps(run, 'committed')).toHaveLength(2);
    expect(totals(run)).toEqual({ rows: 250, sum: 313_750, duplicates: 0, lost: 0 });
  });

  it('(f) a lost statement answer: maxRetries 0, so the task fails; the epoch is rolled back and replayed → 250 rows (the plain sink retries and doubles e201)', () => {
    const lost = [{ kind: 'drop-response', link: 'sink', at: 5000 }];
    const run = flink(xa, lost);
    expect(entriesOf(run, 'crash')).toHaveLength(1);
    expect(totals(run)).toEqual({ rows: 250, sum: 313_750, duplicates: 0, lost: 0 });
    expect(anomalies(flink({ type: 'table' }, lost))).toEqual(['e201:2']);
  });
});

describe('Flink losses the explanations must name', () => {
  const xa = { type: 'table', xa: true, retries: 0 };

  it('a job failing over on every expired checkpoint: the loss names the timeout, the threshold and the failovers', () => {
    // Every checkpoint acknowledgement is 1 s late against a 10 ms checkpoint timeout: no
    // checkpoint ever completes, every expiry fails the job over (0 tolerated), and the XA
    // transactions are rolled back each time.
    const lateAck = {
      kind: 'delay-response',
      link: 'checkpoint',
      delayMs: 1000,
      match: { every: 1 },
    };
    const run = flink(xa, [{ ...lateAck, at: 0 }], [], { 'execution.checkpointing.timeout': 10 });
    expect(totals(run).rows).toBe(0);
    const lost = run.verdict.explanations.find((x) => x.fate === 'lost')!;
    expect(lost.sentence).toMatch(
      /^e1 was processed, but no checkpoint covering it ever completed: checkpoints expired after execution\.checkpointing\.timeout \(10 ms\) and, with execution\.checkpointing\.tolerable-failed-checkpoints=0, the job failed over \d+ times/,
    );
  });

  it('a job that crashed for good: the loss says it never restarted', () => {
    const run = flink(xa, [{ kind: 'crash', target: 'flink', at: 5020, restartAfterMs: null }]);
    expect(run.cutOff).toBe(false);
    const lost = run.verdict.explanations.find((x) => x.fate === 'lost')!;
    expect(lost.sentence).toBe(
      'e201 was processed, but flink crashed and never restarted → no checkpoint covering e201 completed, so its output was never committed',
    );
  });

  it('a completed checkpoint leaves no timer behind: a run with a short stopAtMs is not cut off by its 10 min timeout', () => {
    const run = flink({ type: 'table' }, [], [], {}, { stopAtMs: 60_000 });
    expect(run.cutOff).toBe(false);
    expect(totals(run)).toEqual({ rows: 250, sum: 313_750, duplicates: 0, lost: 0 });
  });
});

describe('Flink without checkpoints: the source starting offsets decide what a restart reads', () => {
  // No checkpoints, a plain table sink; the job starts at 1 s with e1..e200 in the log and dies
  // after its 25th record from 5 s on (e225); with restart-strategy fixed-delay it restarts 1 s
  // later with nothing to restore. mid-batch afterRecords counts the records since the last
  // barrier: with none, since the start.
  const run = (offsetsInitializer: string, afterRecords: number, restart = 'fixed-delay') =>
    flink({ type: 'table' }, crashAfter(afterRecords), [], {
      'execution.checkpointing.interval': null,
      offsetsInitializer,
      ...(restart === 'default' ? {} : { 'restart-strategy.type': restart }),
    });
  it('no restart strategy set (Flink’s default without checkpointing is none): the job fails for good → e1..e225 once, e226..e250 lost', () => {
    // https://nightlies.apache.org/flink/flink-docs-stable/docs/ops/state/task_failure_recovery/
    const r = run('earliest', 225, 'default');
    // Σ 10·i for i = 1..225 = 10 · 225 · 226 / 2.
    expect(totals(r)).toEqual({ rows: 225, sum: 254_250, duplicates: 0, lost: 25 });
    expect(r.verdict.explanations.find((e) => e.fate === 'lost')!.sentence).toBe(
      'e226 is in the log but was never processed: flink crashed and the job failed for good (no restart strategy set and checkpointing disabled: Flink’s default is none)',
    );
    expect(run('earliest', 225, 'none').verdict.explanations[0]!.sentence).toContain(
      'the job failed for good (restart-strategy.type=none)',
    );
  });
  it('latest(): the start skips e1..e200, the restart skips e226..e250 → 25 rows, 225 lost, none twice', () => {
    const r = run('latest', 25);
    // Σ 10·i for i = 201..225 = 10 · 426 · 25 / 2.
    expect(totals(r)).toEqual({ rows: 25, sum: 53_250, duplicates: 0, lost: 225 });
    expect(r.verdict.observed).toBe('at-most-once');
    const texts = r.verdict.explanations.map((e) => e.sentence);
    expect(
      texts.some((t) => /e1 was already in the log when flink started .*latest\(\)/.test(t)),
    ).toBe(true);
    expect(
      texts.some((t) => /e226 was already in the log when flink restarted after its crash/.test(t)),
    ).toBe(true);
  });
  it('earliest() (the real KafkaSource default): the restart reads everything again → e1..e225 twice, 475 rows', () => {
    // 2 · Σ 10·i (i = 1..225) + Σ 10·i (i = 226..250) = 508,500 + 59,500.
    expect(totals(run('earliest', 225))).toEqual({
      rows: 475,
      sum: 568_000,
      duplicates: 225,
      lost: 0,
    });
  });
});

describe('Flink without checkpoints: KafkaSource commits nothing unless enable.auto.commit is set', () => {
  // KafkaSourceBuilder sets enable.auto.commit=false unless given (maybeOverride(…, "false",
  // false)), and without checkpoints nothing else commits: a restart from committedOffsets
  // (EARLIEST when none) reads from offset 0 again.
  // https://nightlies.apache.org/flink/flink-docs-stable/docs/connectors/datastream/kafka/#consumer-offset-committing
  // e1..e600 one per 100 ms from 0; the TaskManager dies at 25 s, after e1..e250; fixed-delay
  // restart (1 s down, 1 s delay).
  const run = (autoCommit?: boolean) =>
    runScenario({
      claim: 'at-least-once',
      workload: { topic: 'orders', generate: { count: 600, intervalMs: 100 } },
      processor: {
        type: 'flink',
        'restart-strategy.type': 'fixed-delay',
        ...(autoCommit === undefined ? {} : { 'enable.auto.commit': autoCommit }),
      },
      sink: { type: 'table', name: 'orders', statement: 'insert' },
      faults: [{ kind: 'crash', target: 'flink', at: 25_000 }],
    });
  it('by default the restart replays from offset 0: e1..e250 twice, 850 rows', () => {
    const r = run();
    // Σ 10·i (1..600) + Σ 10·i (1..250) = 1,803,000 + 313,750.
    expect(totals(r)).toEqual({ rows: 850, sum: 2_116_750, duplicates: 250, lost: 0 });
    expect(r.verdict.explanations[0]!.sentence).toContain(
      'with no checkpoint to restore (checkpointing is off)',
    );
  });
  it('with enable.auto.commit the restart resumes at the last auto-commit (20 s: offset 200): e201..e250 twice', () => {
    // Auto-commits every 5 s of the fetch position; the last before the crash, at 20 s, holds
    // offset 200 (e201 arrives at 20 s). Σ 10·i (201..250) = 112,750.
    expect(totals(run(true))).toEqual({ rows: 650, sum: 1_915_750, duplicates: 50, lost: 0 });
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

describe('Flink fixed-delay restart strategy: restart-strategy.fixed-delay.attempts', () => {
  // Flink's default is 1: "The number of times that Flink retries the execution before the job is
  // declared as failed if restart-strategy has been set to fixed-delay"
  // (https://nightlies.apache.org/flink/flink-docs-stable/docs/deployment/config/#restart-strategy-fixed-delay-attempts;
  // FixedDelayRestartBackoffTimeStrategy counts every failure, canRestart() is failures ≤ attempts).
  // e1..e100 one per 100 ms from 0 (e_k at 100·(k−1) ms, amount 10·k), checkpoints every second,
  // an ON CONFLICT DO NOTHING table; the TaskManager dies at 2,500 ms and at 5,500 ms, back at once.
  const run = (attempts?: number) =>
    runScenario({
      claim: 'at-least-once',
      workload: { topic: 'in', generate: { count: 100, startAtMs: 0, intervalMs: 100 } },
      processor: {
        type: 'flink',
        'execution.checkpointing.interval': 1000,
        'restart-strategy.type': 'fixed-delay',
        offsetsInitializer: 'earliest',
        ...(attempts === undefined ? {} : { 'restart-strategy.fixed-delay.attempts': attempts }),
      },
      sink: { type: 'table', name: 't', statement: 'on-conflict-do-nothing' },
      faults: [
        { id: 'tm crash 1', kind: 'crash', target: 'flink', at: 2500, restartAfterMs: 0 },
        { id: 'tm crash 2', kind: 'crash', target: 'flink', at: 5500, restartAfterMs: 0 },
      ],
    });

  it('default (1): restarted after the first failure, failed for good at the second → e1..e55, e56..e100 lost', () => {
    const r = run();
    const t = r.trace;
    // Checkpoints are triggered at 1,000, 2,000, … ms; checkpoint 2 covers e1..e20 (offset 20).
    // Failure 1 (2,500 ms) is restarted 1 s later (fixed-delay.delay) from checkpoint 2; failure 2
    // (5,500 ms, before e56 arrives) is one more than the attempts: no restart.
    expect(entriesOf(r, 'crash').map((i) => t.time[i])).toEqual([2500, 5500]);
    expect(entriesOf(r, 'restore').map((i) => t.time[i])).toEqual([0, 3500]);
    // Σ 10·k for k = 1..55 = 15,400.
    expect(totals(r)).toEqual({ rows: 55, sum: 15_400, duplicates: 0, lost: 45 });
    expect(r.verdict.observed).toBe('at-most-once');
    expect(r.verdict.explanations[0]!.sentence).toBe(
      'e56 is in the log but was never processed: flink crashed (fault "tm crash 2") and the job failed for good: restart-strategy.fixed-delay.attempts=1 (Flink’s default) allows one restart, and this was failure 2',
    );
  });

  it('attempts 2: both failures are restarted (3,500 and 6,500 ms) → 100 rows, exactly-once', () => {
    const r = run(2);
    const t = r.trace;
    expect(entriesOf(r, 'restore').map((i) => t.time[i])).toEqual([0, 3500, 6500]);
    // Σ 10·k for k = 1..100 = 50,500. The replays hit existing keys: e21..e25 (processed after
    // checkpoint 2 at offset 20, before the crash at 2,500 ms) and e51..e55 (after checkpoint 5
    // at 5,000 ms, offset 50, before the crash at 5,500 ms): 10.
    expect(totals(r)).toEqual({ rows: 100, sum: 50_500, duplicates: 0, lost: 0 });
    expect(totals(r, 'processed').duplicates).toBe(10);
    expect(r.verdict.observed).toBe('exactly-once');
  });

  it('attempts 0: the first failure fails the job → e1..e25 only', () => {
    // Σ 10·k for k = 1..25 = 3,250.
    const r = run(0);
    expect(totals(r)).toEqual({ rows: 25, sum: 3_250, duplicates: 0, lost: 75 });
    expect(r.verdict.explanations[0]!.sentence).toContain(
      'restart-strategy.fixed-delay.attempts=0 allows no restart, and this was failure 1',
    );
  });
});

it('KafkaSink EXACTLY_ONCE under fixed-delay (attempts 1): a second crash during the replay leaves e201..e250 uncommitted for good', () => {
  // The S07 workload: checkpoint 1 commits e1..e200; the task dies after e201..e250 (before
  // checkpoint 2), is restored from checkpoint 1, and dies again 20 replayed records later:
  // failure 2 > restart-strategy.fixed-delay.attempts = 1, so epoch 2 is never committed.
  // read_committed: Σ 10·i for i = 1..200 = 201,000; 50 lost.
  const run = flink(
    eo,
    [
      { kind: 'crash', target: 'flink', point: 'mid-batch', afterRecords: 50, at: 5000 },
      { kind: 'crash', target: 'flink', point: 'mid-batch', afterRecords: 20, at: 5100 },
    ],
    [{ name: 'rc', 'isolation.level': 'read_committed' }],
    { 'restart-strategy.type': 'fixed-delay' },
  );
  expect(entriesOf(run, 'crash')).toHaveLength(2);
  expect(entriesOf(run, 'restore')).toHaveLength(2);
  expect(totals(run)).toEqual({ rows: 200, sum: 201_000, duplicates: 0, lost: 50 });
  expect(run.verdict.explanations[0]!.sentence).toBe(
    'e201 was processed, but flink crashed and the job failed for good: restart-strategy.fixed-delay.attempts=1 (Flink’s default) allows one restart, and this was failure 2 → no checkpoint covering e201 completed, so its output was never committed',
  );
});
