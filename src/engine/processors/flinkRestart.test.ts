/**
 * Flink: restarts without checkpoints (starting offsets, auto-commit) and the fixed-delay restart
 * strategy, on the S07 workload of flinkTesting.ts (its comment gives the timeline by hand;
 * docs/semantics/flink.md).
 */
import { describe, expect, it, vi } from 'vitest';
import { entriesOf, runScenario, totals } from '../testing';
import { crashAfter, eo, flink } from './flinkTesting';

// Whole runs on a loaded two-core machine: its slowest test took 0.6 s in a full CI run
// (flink.test.ts, before its split, 5.3 s), so each gets 10 s, ≥ 5× that, far from vitest's 5 s default.
vi.setConfig({ testTimeout: 10_000 });

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
