/**
 * The checker's sentences name the cause the run actually had. Each case below had a sentence
 * that named another one (a faithfulness audit found them): the counts were right, the "why" not.
 * The sink: what its statement does with copies, failed and unanswered statements.
 */
import { describe, expect, it } from 'vitest';
import { events, point, runScenario, totals } from '../testing';

const sentence = (run: ReturnType<typeof runScenario>) => run.verdict.explanations[0]!.sentence;

describe('the sink in the sentences', () => {
  it('ON CONFLICT on the source offset: the copy the producer appended again is at another offset, and the sentence says so', () => {
    // acks=1, idempotence off: e2's acknowledgement is lost, the producer retries, the broker
    // appends e2 again at another offset (https://kafka.apache.org/documentation/#producerconfigs_enable.idempotence).
    // Keyed on topic-partition@offset, the copy is another key: ON CONFLICT (src) DO NOTHING
    // finds no conflict (https://www.postgresql.org/docs/current/sql-insert.html#SQL-ON-CONFLICT).
    // The sentence ended at "appended e2 a second time", as if the sink had had no key at all.
    const run = runScenario({
      claim: 'exactly-once',
      workload: { topic: 'in', generate: { count: 3, startAtMs: 100, intervalMs: 100 } },
      producer: {
        acks: 1,
        'enable.idempotence': false,
        'max.in.flight.requests.per.connection': 1,
        'request.timeout.ms': 1000,
      },
      processor: {
        type: 'consumer',
        'enable.auto.commit': false,
        'auto.offset.reset': 'earliest',
        startAtMs: 5000,
      },
      sink: { type: 'table', name: 't', statement: 'on-conflict-do-nothing', key: 'source-offset' },
      faults: [{ id: 'lost ack', kind: 'drop-response', link: 'produce', match: { event: 'e2' } }],
    });
    expect(point(run).totals).toMatchObject({ rows: 4, duplicates: 1, lost: 0 });
    expect(sentence(run)).toMatch(
      / → the key is the source offset \(src\): the copy was appended at another offset, so INSERT … ON CONFLICT DO NOTHING took it for another record$/,
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
      'the statement that carried e1 got no answer within statement.timeout.ms (5000 ms) and the consumer skipped it (onStatementError=skip); consumer-0 committed offset 1, past e1, so no restart reads e1 again',
    ]);
  });

  it('one statement for the batch e1..e3: each is told as skipped, then committed past', () => {
    // e1..e3 at 1..3 ms, in one poll batch (offsets 0..2); statementPer=batch writes them in one
    // INSERT, which the fault drops (it matches e2, a row of that statement). After
    // statement.timeout.ms (5 s) the loop skips the statement and, committing after processing,
    // commits offset 3 (the next to read): 0 rows, 3 lost, and each lost record's sentence names
    // the skip and the commit — not "never reached sink".
    const run = runScenario({
      workload: { events: events(3) },
      processor: {
        type: 'consumer',
        'auto.offset.reset': 'earliest',
        'enable.auto.commit': false,
        onStatementError: 'skip',
      },
      sink: { type: 'table', retries: 0, statementPer: 'batch' },
      faults: [{ kind: 'drop-request', link: 'sink', match: { event: 'e2' } }],
    });
    expect(totals(run)).toEqual({ rows: 0, sum: 0, duplicates: 0, lost: 3 });
    expect(run.verdict.explanations.map((e) => [e.events, e.template])).toEqual([
      [
        ['e1', 'e2', 'e3'],
        'the statement that carried {id} got no answer within statement.timeout.ms (5000 ms) and the consumer skipped it (onStatementError=skip); consumer-0 committed offset 3, past {id}, so no restart reads {id} again',
      ],
    ]);
  });
});
