/**
 * Flink: the JDBC exactly-once sink (XA transactions per checkpoint), on the S07 workload of
 * flinkTesting.ts (its comment gives the timeline by hand; docs/semantics/flink.md).
 */
import { describe, expect, it, vi } from 'vitest';
import type { Run } from '../simulate';
import { anomalies, entriesOf, totals } from '../testing';
import { CHECKPOINT_STEPS } from '../trace';
import { AFTER_IDLE, ckptsAt, crashAfter, eo, flink, sum201to250 } from './flinkTesting';

// Whole runs on a loaded two-core machine: its slowest test took 0.6 s in a full CI run
// (flink.test.ts, before its split, 5.3 s), so each gets 10 s, ≥ 5× that, far from vitest's 5 s default.
vi.setConfig({ testTimeout: 10_000 });

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
