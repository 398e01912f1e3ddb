/**
 * Flink: crashes at a checkpoint's barrier, checkpoints that expire, and the losses the
 * explanations name, on the S07 workload of flinkTesting.ts (its comment gives the timeline by
 * hand; docs/semantics/flink.md).
 */
import { describe, expect, it, vi } from 'vitest';
import type { Run } from '../simulate';
import { anomalies, entriesOf, totals } from '../testing';
import { CHECKPOINT_STEPS } from '../trace';
import {
  AFTER_IDLE,
  beforeBarrier,
  ckptsAt,
  dupIds,
  eo,
  flink,
  rcBarrier,
  ruBarrier,
  sum201to250,
} from './flinkTesting';

// Whole runs on a loaded two-core machine: its slowest test took 0.6 s in a full CI run
// (flink.test.ts, before its split, 5.3 s), so each gets 10 s, ≥ 5× that, far from vitest's 5 s default.
vi.setConfig({ testTimeout: 10_000 });

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
