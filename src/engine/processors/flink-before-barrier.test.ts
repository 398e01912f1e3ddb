/**
 * Flink fault point 'before-barrier': the task manager dies when checkpoint barrier n reaches the
 * end of the chain, before it snapshots, pre-commits or acknowledges (FlinkTask.handleBarrier).
 * The S07 workload of flink.test.ts (SEMANTICS S07): e1..e200 at 0 ms, e201..e250 at 5,000 ms
 * (offsets 0..249 here; S07 numbers them from 1), checkpoints every second, 1 ms per record.
 *
 * By hand. Checkpoint 1 completes at ~2 s with the source at offset 200 (state {count 200,
 * sum 201,000}). Nothing new arrives until 5 s, so no checkpoint is triggered in between. At 5 s
 * the job processes e201..e250 and writes their 50 outputs (done by ~5.2 s). The JobManager
 * triggers checkpoint 2 one interval after the first new record (~6 s); its barrier reaches the
 * task after e250, and the task crashes there. Checkpoint 2 never gets a snapshot: it is
 * declined, and the job restores checkpoint 1 — "resets them to the latest successful checkpoint.
 * The input streams are reset to the point of the state snapshot" (SEMANTICS F-SSP) — and
 * replays e201..e250. For the sink this is S07's crash between checkpoints with all 50 outputs
 * already written (SEMANTICS A7 default): the same counts as S07 a/b/c/d.
 */
import { describe, expect, it } from 'vitest';
import type { Run } from '../simulate';
import { anomalies, entriesOf, runScenario, totals } from '../testing';
import { CHECKPOINT_STEPS } from '../trace';

const ev = Array.from({ length: 250 }, (_, i) => ({
  id: `e${i + 1}`,
  amount: 10 * (i + 1),
  at: i < 200 ? 0 : 5000,
}));
const eo = {
  type: 'kafka',
  deliveryGuarantee: 'EXACTLY_ONCE',
  transactionalIdPrefix: 'job-a',
  'transaction.timeout.ms': 60_000,
} as const;
const rc = [{ name: 'rc', 'isolation.level': 'read_committed' }];
const ru = [{ name: 'ru', 'isolation.level': 'read_uncommitted' }];
/** The S07 job with a crash before the first barrier handled at or after `at`. */
const beforeBarrier = (sink: Record<string, unknown>, readers: unknown[] = [], at = 5000) =>
  runScenario({
    workload: { events: ev },
    network: { latencyMs: 1, jitterMs: 0 },
    producer: { 'linger.ms': 0 },
    processor: {
      type: 'flink',
      'execution.checkpointing.interval': 1000,
      startAtMs: 1000,
      processing: { perRecordMs: 1 },
    },
    sink: sink as never,
    readers: readers as never,
    faults: [{ kind: 'crash', target: 'flink', point: 'before-barrier', at }],
  });
const sum201to250 = (10 * ((201 + 250) * 50)) / 2; // 112,750
const dupIds = (from: number, to: number) =>
  Array.from({ length: to - from + 1 }, (_, k) => `e${from + k}:2`);
/** The checkpoint ids that reached step `s`, in trace order. */
const ckptsAt = (run: Run, s: (typeof CHECKPOINT_STEPS)[number]) =>
  entriesOf(run, 'checkpoint')
    .filter((i) => run.trace.aux[i] === CHECKPOINT_STEPS.indexOf(s))
    .map((i) => run.trace.ckpt[i]);

describe("Flink crash 'before-barrier' on the S07 workload", () => {
  it('the crash lands on barrier 2: checkpoint 2 is declined without a snapshot, the job restores checkpoint 1 at offset 200', () => {
    const run = beforeBarrier({ type: 'table' });
    expect(entriesOf(run, 'fault')).toHaveLength(1);
    expect(entriesOf(run, 'crash')).toHaveLength(1);
    expect(ckptsAt(run, 'declined')).toEqual([2]);
    // Barrier 1 was snapshotted, barrier 2 never was; the checkpoint after the replay (3) completes.
    expect(ckptsAt(run, 'barrier')).toEqual([1, 3]);
    expect(ckptsAt(run, 'completed')).toEqual([1, 3]);
    const restore = entriesOf(run, 'restore').at(-1)!;
    expect(run.trace.ckpt[restore]).toBe(1);
    expect(run.trace.offset[restore]).toBe(200);
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
    // 250 + 50 rows; sum 313,750 + 10·(201+…+250) = 313,750 + 112,750 (SEMANTICS S07a, F-KAF
    // "messages may be duplicated when Flink restarts").
    const run = beforeBarrier({ type: 'table' });
    expect(totals(run)).toEqual({ rows: 300, sum: 313_750 + sum201to250, duplicates: 50, lost: 0 });
    expect(anomalies(run)).toEqual(dupIds(201, 250));
  });

  it('(b) upsert on the event id (ON CONFLICT DO UPDATE): the replay overwrites → 250 rows, 313,750', () => {
    // SEMANTICS S07b: one row per event id, the replayed values equal the first ones.
    const run = beforeBarrier({ type: 'table', statement: 'on-conflict-do-update' });
    expect(totals(run)).toEqual({ rows: 250, sum: 313_750, duplicates: 0, lost: 0 });
    expect(anomalies(run)).toEqual([]);
  });

  it('(c) KafkaSink EXACTLY_ONCE, read_committed: epoch 2 was never pre-committed, it is aborted on restore → 250 rows, 313,750', () => {
    // e201..e250 went into the transaction of epoch 2, opened after checkpoint 1's pre-commit. The
    // crash comes before preCommit(epoch 2), so on restore it is a lingering transaction and is
    // aborted (recoverAndAbort, SEMANTICS F-2PC, S07c); the replay writes them into the epoch of
    // checkpoint 3, which commits. A read_committed reader sees each event once.
    const run = beforeBarrier(eo, rc);
    expect(totals(run)).toEqual({ rows: 250, sum: 313_750, duplicates: 0, lost: 0 });
    expect(ckptsAt(run, 'pre-committed')).toEqual([1, 3]);
    expect(ckptsAt(run, 'committed')).toEqual([1, 3]);
  });

  it('(d) the same with read_uncommitted: the aborted epoch is visible too → 300 rows, 426,500', () => {
    // "all messages are visible … even if they were part of an aborted transaction" (SEMANTICS
    // S07d, K-DES).
    const run = beforeBarrier(eo, ru);
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
    expect(totals(beforeBarrier(eo, rc, 0))).toEqual({
      rows: 250,
      sum: 313_750,
      duplicates: 0,
      lost: 0,
    });
  });
});
