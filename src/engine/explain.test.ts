/**
 * The checker's sentences name the cause the run actually had. Each case below had a sentence
 * that named another one (a faithfulness audit found them): the counts were right, the "why" not.
 */
import { describe, expect, it } from 'vitest';
import { anomalies, entriesOf, events, point, runScenario, totals } from './testing';

const sentence = (run: ReturnType<typeof runScenario>) => run.verdict.explanations[0]!.sentence;

describe('explanations name the cause the run had', () => {
  it('an event with two copies in the log, both replayed after a crash: the replay is named, not "processed twice by consumer-0 and consumer-0"', () => {
    // e1..e3 at 0..2 ms; e2's acknowledgement is lost and, with idempotence off, its retry appends
    // a second copy (offsets 0, 1, 2, 3 = e1, e2, e3, e2). The consumer processes the four records
    // and crashes before its commit; from offset 0 again it processes all four a second time:
    // e1 and e3 have 2 rows, e2 has 4. The second attempt of e2's first record (offset 1) is the
    // replay; the attempt at offset 3 is the other copy's first.
    const run = runScenario({
      claim: 'exactly-once',
      workload: { events: events(3, (i) => i - 1) },
      producer: {
        'enable.idempotence': false,
        'linger.ms': 0,
        'max.in.flight.requests.per.connection': 1,
        'request.timeout.ms': 1000,
      },
      processor: {
        type: 'consumer',
        'enable.auto.commit': false,
        'auto.offset.reset': 'earliest',
        startAtMs: 5000,
      },
      faults: [
        { id: 'lost ack', kind: 'drop-response', link: 'produce', match: { event: 'e2' } },
        {
          id: 'crash',
          kind: 'crash',
          target: 'consumer-0',
          point: 'before-commit',
          restartAfterMs: 1000,
        },
      ],
    });
    expect(anomalies(run)).toEqual(['e1:2', 'e2:4', 'e3:2']);
    const e2 = run.verdict.explanations.find((x) => x.events.includes('e2'))!;
    expect(e2.sentence).toBe(
      'the acknowledgement of e2 was lost (fault "lost ack") → the producer retried the same batch → with idempotence off (enable.idempotence=false) the broker appended e2 a second time; consumer-0 crashed (fault "crash") after processing e2 and before its offset was committed → it restarted from offset 0: the group had no committed offset, so auto.offset.reset=earliest applied → e2 was processed again → a plain INSERT has no key to collapse the copies',
    );
  });

  it('a retried copy read again after a crash: the crash is named, not "processed twice (by consumer-0 and consumer-0)"', () => {
    // e1..e10 at 100..1,000 ms, one in flight at a time. e3's acknowledgement is lost: the
    // consumer reads e3 at offset 2 (316 ms) and commits; after request.timeout.ms (30 s) the
    // producer retries and, idempotence off, the broker appends a second e3 at offset 3. The
    // crash armed at 400 ms strikes at the consumer's next commit point: after it processed
    // offset 3 (30,416 ms), before committing it. Restarted 1 s later from the committed offset
    // 3, it reads that copy again, then e4..e10. e3 has 3 rows (offset 2 once, offset 3 twice):
    // 12 rows, sum 550 + 2 × 30 = 610.
    const run = runScenario({
      claim: 'exactly-once',
      workload: { topic: 'events', generate: { count: 10, startAtMs: 100, intervalMs: 100 } },
      producer: {
        retries: 2147483647,
        'max.in.flight.requests.per.connection': 1,
        'request.timeout.ms': 30000,
        'enable.idempotence': false,
      },
      processor: { type: 'consumer', 'enable.auto.commit': false, 'auto.offset.reset': 'earliest' },
      sink: { type: 'table', name: 'events' },
      faults: [
        { id: 'lost ack', kind: 'drop-response', link: 'produce', match: { event: 'e3' } },
        {
          kind: 'crash',
          target: 'consumer-0',
          point: 'before-commit',
          restartAfterMs: 1000,
          at: 400,
        },
      ],
    });
    expect(anomalies(run)).toEqual(['e3:3']);
    expect(point(run).totals).toMatchObject({ rows: 12, duplicates: 2, observedSum: 610 });
    expect(sentence(run)).toBe(
      'the acknowledgement of e3 was lost (fault "lost ack") → the producer retried the same batch → with idempotence off (enable.idempotence=false) the broker appended e3 a second time; consumer-0 crashed after processing e3 and before its offset was committed → it restarted from the last committed offset 3 → e3 was processed again → a plain INSERT has no key to collapse the copies',
    );
  });

  it('a request lost on a connection with others in flight: the timeout closes it and fails them too', () => {
    // e1..e4 at 0..3 ms, one request each (linger.ms 0), five in flight, idempotence off. e1's
    // request is lost; the answers to e2..e4 queue behind it (one connection answers in order).
    // At 1,000 ms e1's request times out and the producer closes the connection, failing all four
    // (https://kafka.apache.org/documentation/#producerconfigs_request.timeout.ms); the retries
    // append e1..e4 again: e1 once (its first request never arrived), e2..e4 twice. e2's answer
    // did arrive: the sentence must not say its acknowledgement was missing.
    const run = runScenario({
      claim: 'exactly-once',
      workload: { events: events(4, (i) => i - 1) },
      producer: {
        'enable.idempotence': false,
        'linger.ms': 0,
        'request.timeout.ms': 1000,
        'max.in.flight.requests.per.connection': 5,
      },
      processor: {
        type: 'consumer',
        'enable.auto.commit': false,
        'auto.offset.reset': 'earliest',
        startAtMs: 5000,
      },
      faults: [
        { id: 'lost request', kind: 'drop-request', link: 'produce', match: { event: 'e1' } },
      ],
    });
    expect(anomalies(run)).toEqual(['e2:2', 'e3:2', 'e4:2']);
    expect(sentence(run)).toBe(
      'no answer to the request of e1 arrived within request.timeout.ms (the request was lost: fault "lost request") → the producer closed the connection, which failed the request of e2 in flight on it too → the producer retried the same batch → with idempotence off (enable.idempotence=false) the broker appended e2 a second time → a plain INSERT has no key to collapse the copies',
    );
  });

  it('Delta MERGE: two copies in one batch are both inserted (txnAppId would not help)', () => {
    // e1..e5 arrive at 0..40 ms; the query starts at 1 s and reads them in one batch. The source
    // emits e2 twice: two source rows for a key the table lacks, both NOT MATCHED → 6 rows.
    // https://docs.delta.io/latest/delta-update.html#upsert-into-a-table-using-merge
    const run = runScenario({
      claim: 'exactly-once',
      workload: { topic: 'in', generate: { count: 5, startAtMs: 0, intervalMs: 10 } },
      processor: { type: 'spark', startingOffsets: 'earliest', startAtMs: 1000 },
      sink: { type: 'delta', name: 'd', mode: 'merge' },
      faults: [{ id: 'dup', kind: 'source-duplicate', event: 'e2' }],
    });
    expect(point(run).totals).toMatchObject({ rows: 6, duplicates: 1, lost: 0 });
    expect(sentence(run)).toContain(
      'both copies were in one Delta MERGE: a key new to the table is NOT MATCHED for each copy, so each was inserted',
    );
    expect(sentence(run)).not.toContain('txnAppId');
  });

  it('a consumer halted by a failed statement: the records behind it were never processed, and why', () => {
    // INSERT per record into a table with a unique key: o1 (10) is written, the second o1 (11)
    // violates the key and the loop halts (onStatementError=halt, the default) → o2 never written.
    // https://www.postgresql.org/docs/current/sql-insert.html
    const run = runScenario({
      claim: 'exactly-once',
      workload: {
        topic: 'in',
        events: [
          { id: 'o1', amount: 10, at: 0 },
          { id: 'o1', amount: 11, at: 1 },
          { id: 'o2', amount: 20, at: 2 },
        ],
      },
      processor: {
        type: 'consumer',
        'auto.offset.reset': 'earliest',
        'enable.auto.commit': false,
        startAtMs: 1000,
      },
      sink: { type: 'table', name: 't', statement: 'insert', uniqueKey: true },
    });
    expect(point(run).totals).toMatchObject({ rows: 1, lost: 1, observedSum: 10 });
    expect(sentence(run)).toBe(
      'o2 is in the log but was never processed: an earlier statement failed (a uniqueness violation) and the consumer stopped on it (onStatementError=halt)',
    );
  });

  it('Flink failing over for ever: the lost record was rewritten each time, not "never written again"', () => {
    // Every checkpoint from the 2nd on loses its acknowledgement and expires (500 ms); after 10
    // tolerated failures the job fails over and restores checkpoint 1, again and again. Checkpoint
    // 1 (triggered at 1 s, one interval after the job's start) holds e1..e10: e11, sent at 1 s,
    // reaches the task after its barrier. Each replay writes e11 into a new transaction that the
    // next restore aborts.
    const run = runScenario({
      claim: 'exactly-once',
      workload: { topic: 'in', generate: { count: 100, startAtMs: 0, intervalMs: 100 } },
      processor: {
        type: 'flink',
        'execution.checkpointing.interval': 1000,
        'execution.checkpointing.timeout': 500,
        'execution.checkpointing.tolerable-failed-checkpoints': 10,
        startAtMs: 0,
      },
      sink: {
        type: 'kafka',
        topic: 'out',
        deliveryGuarantee: 'EXACTLY_ONCE',
        transactionalIdPrefix: 'job',
        'transaction.timeout.ms': 3000,
      },
      readers: [{ name: 'rc', topic: 'out', 'isolation.level': 'read_committed' }],
      faults: [
        { id: 'lost ack', kind: 'drop-response', link: 'checkpoint', match: { nth: 2, every: 1 } },
      ],
    });
    const lost = run.verdict.explanations.find((e) => e.fate === 'lost')!;
    expect(lost.sentence).toMatch(
      /^e11 was processed, but no checkpoint covering it ever completed/,
    );
    expect(lost.sentence).not.toContain('never written again');
    expect(point(run, 'log:out').rows[run.events.identityOf('e11')]!).toBeGreaterThan(1);
  });

  it('a dedupe table whose entry expired before the copy came says so', () => {
    // p-77's acknowledgement is delayed 3 s; the application (sync sends) sent it at 30 ms, gives
    // up after 2 s and sends it again at 2,030 ms. The consumer wrote the first copy at 48 ms; the
    // dedupe table keeps an id for 1 s, so the second copy (written at 2,048 ms) is taken as new:
    // 2 rows (docs/semantics/sinks.md).
    const run = runScenario({
      workload: {
        topic: 'payments',
        events: [
          { id: 'p-75', amount: 100, at: 0 },
          { id: 'p-76', amount: 250, at: 10 },
          { id: 'p-77', amount: 40, at: 20 },
          { id: 'p-78', amount: 75, at: 30 },
          { id: 'p-79', amount: 310, at: 40 },
        ],
      },
      producer: { app: { mode: 'sync', 'get.timeout.ms': 2000, onFailure: 'resend' } },
      processor: { type: 'consumer', 'enable.auto.commit': false, 'auto.offset.reset': 'earliest' },
      sink: { type: 'table', name: 'payments', dedupe: { retentionMs: 1000 } },
      faults: [
        { kind: 'delay-response', link: 'produce', match: { event: 'p-77' }, delayMs: 3000 },
      ],
    });
    expect(point(run).totals).toMatchObject({ rows: 6, duplicates: 1, lost: 0 });
    expect(sentence(run)).toMatch(
      /→ the dedupe table keeps an id for 1,000 ms \(dedupe\.retentionMs\): the copy came after the first one's entry had expired, so it was taken as new$/,
    );
  });

  it('a file sink skipping batch ids it already logged says so in words', () => {
    // The checkpoint location is deleted at 1.55 s: batch ids start again from 0, and the file
    // sink's _spark_metadata log already lists them, so it skips those batches.
    // https://spark.apache.org/docs/latest/streaming/apis-on-dataframes-and-datasets.html#output-sinks
    const run = runScenario({
      claim: 'exactly-once',
      workload: { topic: 'in', generate: { count: 30, startAtMs: 10, intervalMs: 100 } },
      processor: { type: 'spark', startingOffsets: 'earliest', startAtMs: 0 },
      sink: { type: 'file', name: 'f' },
      faults: [{ id: 'rm', kind: 'checkpoint-reset', at: 1550 }],
    });
    const lost = run.verdict.explanations.find((e) => e.fate === 'lost')!;
    expect(lost.sentence).toContain(
      "was skipped: the file sink's log (_spark_metadata) already listed that batch id as written",
    );
    expect(lost.sentence).not.toContain('(file-sink-log)');
  });
});

/**
 * A crashed member that stays down past session.timeout.ms does not read its partition again
 * itself: the group coordinator expires its session and gives the partition to another member,
 * which starts from the committed offset
 * (https://kafka.apache.org/documentation/#consumerconfigs_session.timeout.ms). The sentences
 * said "it restarted from its last committed position" — a restart that came 50 s later, after
 * the records had been read again by someone else.
 */
describe('a transactional output topic judged by every record in its log', () => {
  it('names the aborted transaction that held the first copies: Flink EXACTLY_ONCE, crash at 1.5 s', () => {
    // e1..e50 every 40 ms (0..1,960 ms); checkpoint 1 (1 s) covers e1..e25. The crash at 1,500 ms
    // comes after e26..e38 (1,000..1,480 ms) went out in transaction 2, which the restarted job's
    // initTransactions aborts; restored to offset 25 it writes them again: 63 records in the log,
    // 13 duplicates — 50 once in the read_committed view.
    const run = runScenario({
      claim: 'exactly-once',
      workload: { topic: 't', generate: { count: 50, intervalMs: 40 } },
      processor: { type: 'flink', 'execution.checkpointing.interval': 1000 },
      sink: {
        type: 'kafka',
        deliveryGuarantee: 'EXACTLY_ONCE',
        transactionalIdPrefix: 'x',
        'transaction.timeout.ms': 60_000,
      },
      faults: [{ kind: 'crash', target: 'flink', at: 1500 }],
    });
    expect(totals(run)).toEqual({ rows: 63, sum: 16_910, duplicates: 13, lost: 0 });
    expect(totals(run, 'log:out:read_committed')).toEqual({
      rows: 50,
      sum: 12_750,
      duplicates: 0,
      lost: 0,
    });
    const [x] = run.verdict.explanations;
    expect(x!.events).toHaveLength(13);
    expect(x!.sentence).toContain(
      'transaction 2 was aborted when a new instance with the same transactional.id called initTransactions, and it held a copy of e26 → an uncommitted copy stays in the log, and topic out is judged here by every record in its log; a read_committed consumer sees e26 once',
    );
  });
});

describe('where a restarted consumer read from', () => {
  it('no offset ever committed: the sentence names auto.offset.reset, not a committed offset', () => {
    // e1 (10) at 0 ms and e2 (20) at 10 ms; the consumer starts at 5 s and polls both, inserts
    // them and crashes before its first commit. The group has no committed offset: the restart
    // starts from auto.offset.reset=earliest, offset 0, and inserts both again — 4 rows, 60.
    const run = runScenario({
      workload: {
        topic: 'payments',
        events: [
          { id: 'e1', amount: 10, at: 0 },
          { id: 'e2', amount: 20, at: 10 },
        ],
      },
      processor: {
        type: 'consumer',
        'enable.auto.commit': false,
        'auto.offset.reset': 'earliest',
        startAtMs: 5000,
      },
      faults: [{ kind: 'crash', target: 'consumer-0', point: 'before-commit' }],
    });
    expect(totals(run)).toEqual({ rows: 4, sum: 60, duplicates: 2, lost: 0 });
    // The only commit is the restarted instance's, offset 2, after its replay.
    const assigns = entriesOf(run, 'assign');
    const commits = entriesOf(run, 'commit');
    expect(commits.map((i) => run.trace.offset[i])).toEqual([2]);
    expect(assigns.map((i) => run.trace.offset[i])).toEqual([0, 0]);
    expect(commits[0]! > assigns[1]!).toBe(true);
    expect(run.verdict.explanations.map((e) => e.sentence)).toEqual([
      'consumer-0 crashed after processing e1 and before its offset was committed → it restarted from offset 0: the group had no committed offset, so auto.offset.reset=earliest applied → e1 was processed again → a plain INSERT has no key to collapse the copies',
    ]);
  });
});

describe('a crashed member whose partition another member takes over', () => {
  // Ten events e1..e10 at 0..9 ms over 2 partitions (keys k0..k9, Kafka's murmur2): p0 holds e4,
  // e5, e6, e8, e9, e10 (offsets 0..5), p1 e1, e2, e3, e7. Both members join at 1 s: consumer-0
  // is assigned p0, consumer-1 p1 (1,002 ms). consumer-0 polls e4, e5, e6 (max.poll.records 3),
  // processes e4 and e5 and crashes mid-batch (1,016 ms), before any commit of p0; it is down
  // for 60 s. Its session expires 10 s after the crash (session.timeout.ms = 10,000): the
  // coordinator gives p0 to consumer-1, told 2 ms later (11,018 ms), which reads p0 from the
  // committed offset.
  const takeover = (commit: 'after-processing' | 'before-processing') =>
    runScenario({
      claim: 'exactly-once',
      workload: {
        topic: 'events',
        generate: { count: 10, startAtMs: 0, intervalMs: 1, keys: 10 },
      },
      broker: { partitions: 2 },
      processor: {
        type: 'consumer',
        instances: 2,
        'enable.auto.commit': false,
        'auto.offset.reset': 'earliest',
        'session.timeout.ms': 10_000,
        'max.poll.records': 3,
        startAtMs: 1000,
        commit,
      },
      sink: { type: 'table', name: 't' },
      faults: [
        {
          kind: 'crash',
          target: 'consumer-0',
          point: 'mid-batch',
          afterRecords: 2,
          restartAfterMs: 60_000,
        },
      ],
    });
  const p0Owners = (run: ReturnType<typeof runScenario>) =>
    entriesOf(run, 'assign')
      .filter((i) => run.trace.partition[i] === 0)
      .map((i) => `${run.trace.actors[run.trace.actor[i]!]}@${run.trace.time[i]}`);

  it('after processing: e4 and e5 are read again by consumer-1 from offset 0, and the sentence says so', () => {
    // Nothing of p0 committed: consumer-1 starts at offset 0 and writes e4 and e5 a second time
    // (12 rows); consumer-0 gets p0 back at its restart (61,018 ms).
    const run = takeover('after-processing');
    expect(p0Owners(run)).toEqual(['consumer-0@1002', 'consumer-1@11018', 'consumer-0@61018']);
    expect(anomalies(run)).toEqual(['e4:2', 'e5:2']);
    expect(sentence(run)).toBe(
      "consumer-0 crashed after processing e4 and before its offset was committed → consumer-0's session expired (session.timeout.ms = 10000 ms) and the group gave partition 0 to consumer-1, which started from offset 0: the group had no committed offset, so auto.offset.reset=earliest applied → e4 was processed again → a plain INSERT has no key to collapse the copies",
    );
  });

  it('before processing: offset 3 was committed first, so consumer-1 starts past e6, which is lost', () => {
    // consumer-0 commits offset 3 (e4..e6 polled) before processing, processes e4 and e5 and
    // crashes: consumer-1 reads p0 from offset 3 (e8 on); e6 has no row.
    const run = takeover('before-processing');
    expect(anomalies(run)).toEqual(['e6:0']);
    expect(sentence(run)).toBe(
      "the loop committed offset 3 before processing the batch holding e6 → consumer-0 crashed → consumer-0's session expired (session.timeout.ms = 10000 ms) and the group gave partition 0 to consumer-1, which started from the last committed offset 3, past e6",
    );
  });
});

describe('an idempotency key pruned before the retry (Stripe, docs/semantics/scenarios.md#s25-side-effects-and-idempotency-keys)', () => {
  // "You can remove keys from the system automatically after they're at least 24 hours old. We
  // generate a new request if a key is reused after the original is pruned."
  // https://docs.stripe.com/idempotency. An email service keeping keys 60 s: e1's call is made,
  // its response lost; the client times out 30 s after sending and retries 120 s later, so the
  // retry reaches the service 150 s after the first call, past the 60 s. The sentence named that
  // as "0 h later … (kept 0 h) … a new charge".
  it('names the gap and the retention in their own unit, and an email as an email', () => {
    const run = runScenario({
      claim: 'exactly-once',
      workload: { events: events(1) },
      processor: { type: 'consumer', 'enable.auto.commit': false, 'auto.offset.reset': 'earliest' },
      sink: {
        type: 'effect',
        service: 'email',
        idempotencyKey: 'business-id',
        retentionMs: 60_000,
        retryDelayMs: 120_000,
      },
      faults: [{ id: 'lost', kind: 'drop-response', link: 'effect', match: { event: 'e1' } }],
    });
    expect(anomalies(run)).toEqual(['e1:2']);
    expect(sentence(run)).toBe(
      'fault "lost" → the writer could not tell whether the call for e1 had been applied and retried it after its timeout; it had been applied, and the retry came 150 s later, after the service had pruned the idempotency key (kept 60 s), so the same key sent a new email',
    );
  });
});

describe('a statement lost on its way, skipped by the consumer (onStatementError=skip)', () => {
  it('e1: no answer within statement.timeout.ms (5,000 ms) → skipped: told as such, not as "never reached sink"', () => {
    // The INSERT carrying e1 is dropped on its way to the database (drop-request on sink): the
    // consumer's wait for an answer ends after statement.timeout.ms (5 s) with STATEMENT_TIMEOUT,
    // and with onStatementError=skip it moves on without the row → 0 rows, e1 lost.
    const run = runScenario({
      workload: { events: [{ id: 'e1', amount: 10, at: 0 }] },
      processor: {
        type: 'consumer',
        'auto.offset.reset': 'earliest',
        'enable.auto.commit': false,
        commit: 'before-processing',
        onStatementError: 'skip',
      },
      sink: { type: 'table', retries: 0 },
      faults: [{ kind: 'drop-request', link: 'sink', match: { event: 'e1' } }],
    });
    expect(totals(run)).toEqual({ rows: 0, sum: 0, duplicates: 0, lost: 1 });
    expect(run.verdict.explanations.map((e) => e.sentence)).toEqual([
      'the statement that carried e1 got no answer within statement.timeout.ms (5000 ms) and the consumer skipped it (onStatementError=skip)',
    ]);
  });
});
