/**
 * A Flink job recovers from a lost sink message as the real system does (issue 30, items 1–2):
 * the Kafka client resends a transactional request unanswered after `request.timeout.ms`; a JDBC
 * statement unanswered within `statement.timeout.ms` (the driver's socketTimeout) makes the sink
 * throw, the task fails, and the restart strategy restarts the job from its last completed
 * checkpoint — except a COMMIT PREPARED, which Flink's XA sink retries at the next checkpoint.
 *
 * Every run here has one event e1 (amount 1, at 0 ms), the default network (2 ms each way, no
 * jitter), a job starting at 0 ms with a checkpoint every second (Flink triggers at 1,000·k ms; a
 * trigger while the task is not running gets no id) and the default restart strategy with
 * checkpointing, exponential-delay: 1 s before the first restart.
 * https://kafka.apache.org/documentation/#producerconfigs_request.timeout.ms,
 * https://nightlies.apache.org/flink/flink-docs-stable/docs/ops/state/task_failure_recovery/,
 * https://github.com/apache/flink-connector-jdbc/blob/main/flink-connector-jdbc/src/main/java/org/apache/flink/connector/jdbc/internal/JdbcOutputFormat.java,
 * https://github.com/apache/flink-connector-jdbc/blob/main/flink-connector-jdbc/src/main/java/org/apache/flink/connector/jdbc/xa/JdbcXaSinkFunction.java
 */
import { describe, expect, it } from 'vitest';
import type { Run } from '../simulate';
import { entriesOf, runScenario, totals } from '../testing';
import { CHECKPOINT_STEPS, ERROR_CODES } from '../trace';

type Input = Parameters<typeof runScenario>[0];

/** The KafkaSink reproducer, with its faults replaced. */
const kafkaSink = (faults: unknown[]): Input =>
  ({
    ...JSON.parse(
      '{"claim":"exactly-once","workload":{"events":[{"id":"e1","amount":1,"at":0}]},"producer":{"enable.idempotence":false},"processor":{"type":"flink","execution.checkpointing.interval":1000},"sink":{"type":"kafka","topic":"out","deliveryGuarantee":"EXACTLY_ONCE","transactionalIdPrefix":"job","transaction.timeout.ms":900000},"readers":[{"name":"rc","topic":"out","isolation.level":"read_committed"}]}',
    ),
    faults,
  }) as Input;

/** The XA JDBC sink reproducer, with its faults replaced. */
const xaSink = (faults: unknown[], sink: Record<string, unknown> = {}): Input => {
  const s = JSON.parse(
    '{"claim":"exactly-once","workload":{"events":[{"id":"e1","amount":1,"at":0}]},"processor":{"type":"flink","execution.checkpointing.interval":1000},"sink":{"type":"table","xa":true,"retries":0}}',
  ) as Input;
  return { ...s, sink: { ...s.sink, ...sink } as Input['sink'], faults: faults as Input['faults'] };
};

/** The plain JDBC sink reproducer, with its faults and processor settings replaced. */
const plainSink = (faults: unknown[], processor: Record<string, unknown> = {}): Input => {
  const s = JSON.parse(
    '{"workload":{"events":[{"id":"e1","amount":1,"at":0}]},"processor":{"type":"flink","execution.checkpointing.interval":1000},"sink":{"type":"table","retries":0}}',
  ) as Input;
  return {
    ...s,
    processor: { ...s.processor, ...processor } as Input['processor'],
    faults: faults as Input['faults'],
  };
};

const lost = (kind: 'drop-request' | 'drop-response', link: string, match = {}) => ({
  kind,
  link,
  match,
});

const timesOf = (run: Run, kind: string) => entriesOf(run, kind).map((i) => run.trace.time[i]);

/** [time, checkpoint, transaction] of each checkpoint entry of step `s`. */
const steps = (run: Run, s: (typeof CHECKPOINT_STEPS)[number]) =>
  entriesOf(run, 'checkpoint')
    .filter((i) => CHECKPOINT_STEPS[run.trace.aux[i]!] === s)
    .map((i) => [run.trace.time[i], run.trace.ckpt[i], run.trace.txn[i]]);

/** Times of the statements that timed out (STATEMENT_TIMEOUT) or transactional requests (REQUEST_TIMED_OUT). */
const timeouts = (run: Run, code: 'STATEMENT_TIMEOUT' | 'REQUEST_TIMED_OUT') =>
  entriesOf(run, 'reject')
    .filter((i) => ERROR_CODES[run.trace.aux[i]!] === code)
    .map((i) => run.trace.time[i]);

const once = { rows: 1, sum: 1, duplicates: 0, lost: 0 };

describe('KafkaSink EXACTLY_ONCE: a lost transactional message delays the job, it does not stop it', () => {
  // Transactional messages of the run, in order: (1) the recovery EndTxn at the job's start
  // (commit the restored committables, abort lingering transactions: nothing yet), (2) the
  // InitProducerId of epoch 1's producer, (3) epoch 2's at checkpoint 1's pre-commit, (4) the
  // EndTxn committing transaction 1 when checkpoint 1 completes. The sink's producer has the Java
  // client's request.timeout.ms (30,000 ms) and retry.backoff.ms (100 ms).
  it('the issue’s reproducer: the start-up EndTxn is lost, resent after request.timeout.ms → e1 committed once', () => {
    // EndTxn sent at 0 and lost → REQUEST_TIMED_OUT at 30,000 → resent at 30,100, answered at
    // 30,104; the job runs from then on. The triggers at 1,000..30,000 fell while the task was not
    // running (no id): checkpoint 1 is the one at 31,000, and its commit reaches the coordinator
    // at 31,012 → the read_committed reader sees e1 once. No failure, no restart.
    const run = runScenario(kafkaSink([lost('drop-request', 'txn')]));
    expect(run.cutOff).toBe(false);
    expect(totals(run, 'reader:rc')).toEqual(once);
    expect(timeouts(run, 'REQUEST_TIMED_OUT')).toEqual([30_000]);
    expect(steps(run, 'triggered')).toEqual([[31_000, 1, -1]]);
    expect(steps(run, 'committed')).toEqual([[31_014, 1, 1]]);
    expect(entriesOf(run, 'crash')).toEqual([]);
    expect(entriesOf(run, 'restore')).toHaveLength(1);
  });

  it('the answer to the start-up EndTxn lost instead: the repeated request is answered alike → e1 once, at the same times', () => {
    const run = runScenario(kafkaSink([lost('drop-response', 'txn')]));
    expect(run.cutOff).toBe(false);
    expect(totals(run, 'reader:rc')).toEqual(once);
    expect(timeouts(run, 'REQUEST_TIMED_OUT')).toEqual([30_000]);
    expect(steps(run, 'committed')).toEqual([[31_014, 1, 1]]);
    expect(entriesOf(run, 'crash')).toEqual([]);
  });

  it('the commit EndTxn of checkpoint 1 lost (4th message): resent at 31,110 → committed at 31,114, once', () => {
    // Checkpoint 1 completes at 1,008; its EndTxn leaves at 1,010 and is lost → REQUEST_TIMED_OUT
    // at 31,010 → resent at 31,110 → the flink task hears of the commit at 31,114.
    const run = runScenario(kafkaSink([lost('drop-request', 'txn', { nth: 4 })]));
    expect(run.cutOff).toBe(false);
    expect(timeouts(run, 'REQUEST_TIMED_OUT')).toEqual([31_010]);
    expect(steps(run, 'committed')).toEqual([[31_114, 1, 1]]);
    expect(totals(run, 'reader:rc')).toEqual(once);
  });

  it('a crash while that commit is being resent: the checkpoints taken meanwhile still hold transaction 1, and the restore commits it → e1 once', () => {
    // Flink keeps a committable in its state until its commit succeeded, so checkpoints 2–5
    // (2,000..5,000, each completing 8 ms later) hold transaction 1. flink crashes at 5,500 (down
    // 1 s, then the 1 s backoff): restore of checkpoint 5 at 7,500, whose recovery EndTxn commits
    // transaction 1 (were it not held, the recovery would abort it as a lingering transaction).
    const run = runScenario(
      kafkaSink([
        lost('drop-request', 'txn', { nth: 4 }),
        { kind: 'crash', target: 'flink', at: 5500, restartAfterMs: 1000 },
      ]),
    );
    const restore = entriesOf(run, 'restore').at(-1)!;
    expect(run.trace.time[restore]).toBe(7500);
    expect(run.trace.ckpt[restore]).toBe(5);
    expect(totals(run, 'reader:rc')).toEqual(once);
  });
});

describe("Flink's JDBC XA sink: an unanswered statement fails the task, which restarts", () => {
  // The sink's statements in order: (1) the recovery at the job's start (XA RECOVER, commit the
  // restored xids, roll back the others), (2) e1's INSERT into xid 1, (3) PREPARE of xid 1 at
  // checkpoint 1's barrier (1,002), (4) COMMIT PREPARED when checkpoint 1 completes (1,010).
  // statement.timeout.ms is 5,000 ms.
  it('the issue’s reproducer: the recovery statement is lost → open() throws at 5,000, the job restarts at 6,000 and commits e1 at 7,012', () => {
    // Sent at 0, lost → STATEMENT_TIMEOUT at 5,000 → the task fails → restored (no checkpoint)
    // 1 s later → recovery answered at 6,004 → e1 written; the trigger at 6,000 fell before the
    // task ran → checkpoint 1 at 7,000, prepared at 7,004, committed at 7,012.
    const run = runScenario(xaSink([lost('drop-request', 'sink')]));
    expect(run.cutOff).toBe(false);
    expect(totals(run)).toEqual(once);
    expect(timeouts(run, 'STATEMENT_TIMEOUT')).toEqual([5000]);
    expect(timesOf(run, 'crash')).toEqual([5000]);
    expect(timesOf(run, 'restore')).toEqual([0, 6000]);
    expect(steps(run, 'committed')).toEqual([[7012, 1, 1]]);
  });

  it('the answer to the recovery lost instead: the same failure and restart → e1 committed once at 7,012', () => {
    const run = runScenario(xaSink([lost('drop-response', 'sink')]));
    expect(totals(run)).toEqual(once);
    expect(timesOf(run, 'crash')).toEqual([5000]);
    expect(steps(run, 'committed')).toEqual([[7012, 1, 1]]);
  });

  it('PREPARE lost (3rd statement): snapshotState throws at 6,002, checkpoint 1 is declined, the restore rolls xid 1 back and the replay commits e1 in xid 2', () => {
    // PREPARE sent at 1,002, lost → 6,002 the task fails; restored at 7,002 (no checkpoint):
    // xid 1, still open with e1's row, is rolled back (1 row); e1 again in xid 2; checkpoint 2 at
    // 8,000 prepares it, commits it at 8,012.
    const run = runScenario(xaSink([lost('drop-request', 'sink', { nth: 3 })]));
    expect(timesOf(run, 'crash')).toEqual([6002]);
    expect(steps(run, 'declined').map(([, ck]) => ck)).toEqual([1]);
    const aborted = entriesOf(run, 'checkpoint').filter(
      (i) => CHECKPOINT_STEPS[run.trace.aux[i]!] === 'aborted',
    );
    expect(aborted.map((i) => [run.trace.txn[i], run.trace.count[i]])).toEqual([[1, 1]]);
    expect(steps(run, 'committed')).toEqual([[8012, 2, 2]]);
    expect(totals(run)).toEqual(once);
  });

  it('COMMIT PREPARED lost (4th statement): a transient failure, retried at the next checkpoint’s notification → committed at 6,012, no restart', () => {
    // Sent at 1,010, lost → STATEMENT_TIMEOUT at 6,010 (pgJDBC: XAER_RMFAIL, transient for
    // XaGroupOpsImpl) → xid 1 stays pending → checkpoint 6 (notified at 6,010) commits it:
    // 6,012 at the database. Checkpoints 2–6 meanwhile hold xid 1 as pending.
    const run = runScenario(xaSink([lost('drop-request', 'sink', { nth: 4 })]));
    expect(timeouts(run, 'STATEMENT_TIMEOUT')).toEqual([6010]);
    expect(steps(run, 'committed')).toEqual([[6012, 6, 1]]);
    expect(entriesOf(run, 'crash')).toEqual([]);
    expect(totals(run)).toEqual(once);
  });

  it('the answer to COMMIT PREPARED lost: the retry finds xid 1 gone (XAER_NOTA), which fails the task; the restore has nothing left to commit → e1 once', () => {
    // Committed at 1,012, the answer lost → STATEMENT_TIMEOUT at 6,010 → retried at 6,010 →
    // XAER_NOTA answered at 6,014 → the task fails (only a restored xid may be unknown) →
    // restored at 7,014 from checkpoint 6, whose pending xid 1 the database no longer knows.
    const run = runScenario(xaSink([lost('drop-response', 'sink', { nth: 4 })]));
    expect(steps(run, 'committed')).toEqual([[1012, 1, 1]]);
    expect(timesOf(run, 'crash')).toEqual([6014]);
    const restore = entriesOf(run, 'restore').at(-1)!;
    expect([run.trace.time[restore], run.trace.ckpt[restore]]).toEqual([7014, 6]);
    expect(totals(run)).toEqual(once);
  });

  it('every COMMIT PREPARED of xid 1 lost: after maxCommitAttempts (3) failures the task fails, and the restore commits it', () => {
    // statement.timeout.ms 100: messages 4, 6, 8 are the commits at 1,010, 2,010, 3,010 (5 and 7
    // the empty PREPAREs of checkpoints 2 and 3) → timeouts at 1,110, 2,110, 3,110 → the third
    // fails the task → restored at 4,110 from checkpoint 3, which holds xid 1 → committed at
    // 4,112 by the recovery.
    const run = runScenario(
      xaSink([lost('drop-request', 'sink', { nth: 4, every: 2 })], { 'statement.timeout.ms': 100 }),
    );
    expect(timeouts(run, 'STATEMENT_TIMEOUT')).toEqual([1110, 2110, 3110]);
    expect(timesOf(run, 'crash')).toEqual([3110]);
    expect(steps(run, 'committed')).toEqual([[4112, 1, 1]]);
    expect(totals(run)).toEqual(once);
  });
});

describe("Flink's plain JDBC sink: a failed flush fails the task (JdbcOutputFormat.flush throws after maxRetries)", () => {
  it('the issue’s reproducer: e1’s INSERT is lost, retries 0 → the task fails at 5,020 and the replay writes e1 once', () => {
    // e1 processed and its INSERT sent at 20, lost → STATEMENT_TIMEOUT at 5,020,
    // maxRetries 0 → the task fails; checkpoint 1 (1,000) was waiting behind the write and is
    // declined → restored at 6,020 without a checkpoint, from offset 0 → e1 processed again and
    // written once.
    const run = runScenario(plainSink([lost('drop-request', 'sink')]));
    expect(run.cutOff).toBe(false);
    expect(totals(run)).toEqual(once);
    expect(timesOf(run, 'crash')).toEqual([5020]);
    expect(steps(run, 'declined').map(([, ck]) => ck)).toEqual([1]);
    const restore = entriesOf(run, 'restore').at(-1)!;
    expect([run.trace.time[restore], run.trace.ckpt[restore]]).toEqual([6020, -1]);
    expect(totals(run, 'processed').rows).toBe(2);
  });

  it('its answer lost instead: the INSERT took effect, the replay writes e1 again → 2 rows, explained by the sink’s timeout', () => {
    const run = runScenario(plainSink([lost('drop-response', 'sink')]));
    expect(totals(run)).toEqual({ rows: 2, sum: 2, duplicates: 1, lost: 0 });
    expect(run.verdict.explanations.map((x) => x.sentence)).toEqual([
      "a statement of flink's sink got no answer within statement.timeout.ms (5000 ms) (its answer was lost: a lost sink response) → the sink threw and the task failed → the job restarted without a checkpoint and rewound the source → e1 was processed again → a plain INSERT has no key to collapse the copies",
    ]);
  });

  it('with restart-strategy.type none the job fails for good: e1 is lost, and the loss names the sink’s timeout', () => {
    const run = runScenario(
      plainSink([lost('drop-request', 'sink')], { 'restart-strategy.type': 'none' }),
    );
    expect(run.cutOff).toBe(false);
    expect(totals(run)).toEqual({ rows: 0, sum: 0, duplicates: 0, lost: 1 });
    expect(run.verdict.explanations.map((x) => x.sentence)).toEqual([
      'e1 was processed, but flink crashed because a statement of its sink got no answer within statement.timeout.ms (5000 ms) (its request was lost: a lost sink request) and the job failed for good (restart-strategy.type=none) → no checkpoint covering e1 completed, so its output was never committed',
    ]);
  });

  it('a replay into a plain INSERT with a unique key: UNIQUE_VIOLATION fails the task at every restart, until the run is cut off (69 failures)', () => {
    // Checkpoint 1 (1,000) covers e1; e2 (1,500) is written, then flink crashes at 1,600 →
    // checkpoint 1 restored → e2's INSERT again → UNIQUE_VIOLATION → flush() throws → the task
    // fails, and so does every restart (Flink's well-known poison record under a plain INSERT).
    // exponential-delay: restarts after 1,000, 1,500, 2,250, 3,375, 5,062, 7,593, 11,389, 17,083,
    // 25,624, 38,436, 57,654 ms (Σ 170,966), then 60,000 each; each replay fails a few ms after
    // its restore. The default stop is 1,600 + 1 h = 3,601,600: 1 + 11 failures by ~172,600, then
    // ⌊(3,601,600 − 172,600) / 60,0xx⌋ = 57 more → 69 failures; 2 rows, e2's copy refused each time.
    const run = runScenario({
      workload: {
        events: [
          { id: 'e1', amount: 1, at: 0 },
          { id: 'e2', amount: 2, at: 1500 },
        ],
      },
      processor: { type: 'flink', 'execution.checkpointing.interval': 1000 },
      sink: { type: 'table', uniqueKey: true },
      faults: [{ kind: 'crash', target: 'flink', at: 1600, restartAfterMs: 0 }],
    });
    expect(run.cutOff).toBe(true);
    expect(entriesOf(run, 'crash')).toHaveLength(69);
    expect(entriesOf(run, 'stmt-error')).toHaveLength(68);
    expect(totals(run)).toEqual({ rows: 2, sum: 3, duplicates: 0, lost: 0 });
  });

  it('a buffered write (sinkFlushDelayMs) that fails in the background is thrown at the next checkpoint: the task fails at 6,002', () => {
    // e1 processed at 20, flushed at 120 → lost → STATEMENT_TIMEOUT at 5,120, kept
    // (JdbcOutputFormat.checkFlushException); checkpoint 6's barrier reaches the task at 6,002 and
    // snapshotState throws it. Checkpoints 1–5 had completed past e1, so the restore does not
    // replay it: the write is lost, as a buffer not flushed by the checkpoint loses it (A7).
    const run = runScenario(plainSink([lost('drop-request', 'sink')], { sinkFlushDelayMs: 100 }));
    expect(timeouts(run, 'STATEMENT_TIMEOUT')).toEqual([5120]);
    expect(timesOf(run, 'crash')).toEqual([6002]);
    expect(steps(run, 'declined').map(([, ck]) => ck)).toEqual([6]);
    expect(totals(run)).toEqual({ rows: 0, sum: 0, duplicates: 0, lost: 1 });
  });
});
