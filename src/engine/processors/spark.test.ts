/**
 * Spark Structured Streaming micro-batches (docs/semantics/spark.md, docs/semantics/scenarios.md#s16-spark-batch-re-execution): e1..e30, maxOffsetsPerTrigger 10,
 * so batch 0 = e1..e10, batch 1 = e11..e20, batch 2 = e21..e30. Batch 2's sink write finishes and
 * the driver dies before commits/2; on restart the offset log's latest entry (2) has no commit, so
 * batch 2 runs again with the same range and the same batch id.
 */
import { describe, expect, it } from 'vitest';
import { anomalies, entriesOf, events, runScenario, totals } from '../testing';
import { MESSAGE_TYPES } from '../trace';

const spark = (
  sink: Record<string, unknown>,
  faults: unknown[],
  processor: Record<string, unknown> = {},
  at = (_i: number) => 0,
) =>
  runScenario({
    workload: { events: events(30, at) },
    processor: {
      type: 'spark',
      maxOffsetsPerTrigger: 10,
      startingOffsets: 'earliest',
      startAtMs: 1000,
      ...processor,
    },
    sink: sink as never,
    faults: faults as never,
  });
const crash = [{ kind: 'crash', target: 'spark', point: 'after-sink-write', nth: 3 }];

describe('a batch re-run after a crash before its commit-log entry (docs/semantics/scenarios.md#s16-spark-batch-re-execution)', () => {
  it('re-runs batch 2 with the same id and range', () => {
    const run = spark({ type: 'table', statementPer: 'batch' }, crash);
    const planned = entriesOf(run, 'batch-planned').map(
      (i) => `${run.trace.ckpt[i]}@${run.trace.offset[i]}+${run.trace.count[i]}`,
    );
    expect(planned).toEqual(['0@0+10', '1@10+10', '2@20+10', '2@20+10']);
  });

  it('(a) foreachBatch with a plain append: e21..e30 twice → 40 rows, 7,200', () => {
    const run = spark({ type: 'table', statementPer: 'batch' }, crash);
    expect(totals(run)).toEqual({ rows: 40, sum: 7200, duplicates: 10, lost: 0 });
    expect(anomalies(run)).toEqual(Array.from({ length: 10 }, (_, k) => `e${21 + k}:2`));
  });

  it('(b) Delta with txnAppId and txnVersion = batchId: the re-run is skipped → 30, 4,650', () => {
    const run = spark({ type: 'delta', txnAppId: 'q-orders' }, crash);
    expect(totals(run)).toEqual({ rows: 30, sum: 4650, duplicates: 0, lost: 0 });
    expect(entriesOf(run, 'row-skip')).toHaveLength(10);
  });

  it('(c) MERGE on the event id (insert when not matched) → 30, 4,650', () => {
    expect(
      totals(
        spark(
          {
            type: 'table',
            statement: 'merge',
            merge: { whenMatched: 'do-nothing' },
            statementPer: 'batch',
          },
          crash,
        ),
      ),
    ).toEqual({ rows: 30, sum: 4650, duplicates: 0, lost: 0 });
  });

  it('(e) the built-in Kafka sink (at-least-once): the re-run writes e21..e30 again → 40, 7,200; without the crash 30', () => {
    // the output sinks table (docs/semantics/spark.md#built-in-sinks): "Kafka sink — Yes (at-least-once)". The reader is read_committed: the sink
    // has no transactions, so every record it wrote is committed.
    const kafka = (faults: unknown[]) =>
      runScenario({
        workload: { events: events(30) },
        processor: {
          type: 'spark',
          maxOffsetsPerTrigger: 10,
          startingOffsets: 'earliest',
          startAtMs: 1000,
        },
        sink: { type: 'kafka', topic: 'out' },
        readers: [{ name: 'rc', topic: 'out', 'isolation.level': 'read_committed' }],
        faults: faults as never,
      });
    const run = kafka(crash);
    expect(run.verdict.primary).toBe('reader:rc');
    expect(totals(run)).toEqual({ rows: 40, sum: 7200, duplicates: 10, lost: 0 });
    expect(anomalies(run)).toEqual(Array.from({ length: 10 }, (_, k) => `e${21 + k}:2`));
    expect(totals(kafka([]))).toEqual({ rows: 30, sum: 4650, duplicates: 0, lost: 0 });
  });

  it('(d) the built-in file sink skips a batch id it already logged → 30, 4,650', () => {
    expect(totals(spark({ type: 'file' }, crash))).toEqual({
      rows: 30,
      sum: 4650,
      duplicates: 0,
      lost: 0,
    });
  });
});

describe('deleting the checkpoint location (docs/semantics/guarantees.md#r10-reused-identities-lose-data, https://docs.delta.io/latest/delta-streaming.html#idempotent-table-writes-in-foreachbatch warning)', () => {
  // e1..e20 at 0 ms, e21..e30 at 5,000 ms. Batches 0 and 1 (e1..e20) are written with txnVersion 0
  // and 1. At 4,000 ms the checkpoint location is deleted and the query restarts (1 s later).
  const at = (i: number) => (i <= 20 ? 0 : 5000);
  const reset = [{ kind: 'checkpoint-reset', at: 4000 }];

  it('same txnAppId, startingOffsets=latest: the new data arrives as batch 0 again → skipped, e21..e30 lost', () => {
    const run = spark(
      { type: 'delta', txnAppId: 'q-orders' },
      reset,
      { startingOffsets: 'latest', startAtMs: 0 },
      at,
    );
    expect(anomalies(run)).toEqual(Array.from({ length: 10 }, (_, k) => `e${21 + k}:0`));
    expect(run.verdict.explanations[0]!.sentence).toContain('txnVersion');
  });

  it('no txnAppId, startingOffsets=earliest: everything is appended again → e1..e20 twice', () => {
    const run = spark({ type: 'delta' }, reset, { startAtMs: 0 }, at);
    expect(totals(run)).toEqual({ rows: 50, sum: 4650 + 2100, duplicates: 20, lost: 0 });
  });
});

describe('trigger(processingTime): a batch that misses its interval boundary', () => {
  // The Spark guide's triggers table: "If the previous micro-batch completes within the interval,
  // then the engine will wait until the interval is over … If the previous micro-batch takes
  // longer than the interval to complete (i.e. if an interval boundary is missed), then the next
  // micro-batch will start as soon as the previous one completes (i.e., it will not wait for the
  // next interval boundary)."
  // https://spark.apache.org/docs/latest/streaming/apis-on-dataframes-and-datasets.html#triggers
  // ProcessingTimeExecutor: next = ⌊trigger start / interval⌋ · interval + interval.
  const times = (run: ReturnType<typeof runScenario>, kind: string) =>
    entriesOf(run, kind).map((i) => `${run.trace.ckpt[i]}@${run.trace.time[i]}`);

  it('a 1,508 ms batch under a 1 s trigger: the next batch starts as it commits, not at the next boundary', () => {
    // e1..e30 all in the log at 0; 10 per batch; 150 ms per record; every link 2 ms one way.
    // Batch 0 fires at 1,000: fetch answered at 1,004; records done at 1,004 + 10·150 = 2,504;
    // the statement reaches the sink at 2,506 and its answer the query at 2,508: commits/0 at
    // 2,508. Its trigger fired at 1,000, so the next was due at 2,000 — already past: batch 1
    // fires at 2,508 (before this fix: 3,000). Batch 1 takes 1,508 ms as well: commits/1 at
    // 4,016, batch 2 at once, commits/2 at 5,524.
    const run = spark({ type: 'table', statementPer: 'batch' }, [], {
      processing: { perRecordMs: 150 },
    });
    expect(times(run, 'batch-planned')).toEqual(['0@1000', '1@2508', '2@4016']);
    expect(times(run, 'batch-committed')).toEqual(['0@2508', '1@4016', '2@5524']);
  });

  it('a batch that ends exactly on the boundary is followed at that boundary; a short one waits for it', () => {
    // 4 per batch, 248 ms per record: 1,000 + 4 (fetch) + 4·248 + 4 (statement) = 2,000. The
    // next trigger was due at 2,000 (waitTillTime returns at once): batch 1 at 2,000 (before this
    // fix: 3,000), batch 2 at 3,000; 12 events, so three batches.
    const exact = spark({ type: 'table', statementPer: 'batch' }, [], {
      maxOffsetsPerTrigger: 4,
      processing: { perRecordMs: 248 },
    });
    expect(times(exact, 'batch-planned').slice(0, 3)).toEqual(['0@1000', '1@2000', '2@3000']);
    expect(times(exact, 'batch-committed').slice(0, 3)).toEqual(['0@2000', '1@3000', '2@4000']);
    // 1 ms per record: batch 0 commits at 1,000 + 4 + 10 + 4 = 1,018 and the query waits for the
    // boundary: 1,000, 2,000, 3,000.
    const short = spark({ type: 'table', statementPer: 'batch' }, []);
    expect(times(short, 'batch-planned')).toEqual(['0@1000', '1@2000', '2@3000']);
    expect(times(short, 'batch-committed')).toEqual(['0@1018', '1@2018', '2@3018']);
  });
});

describe('maxOffsetsPerTrigger split over partitions (the Kafka source rateLimit)', () => {
  // "The specified total number of offsets will be proportionally split across topicPartitions of
  // different volume" (https://spark.apache.org/docs/latest/streaming/structured-streaming-kafka-integration.html).
  // KafkaMicroBatchStream.rateLimit: each partition takes limit · (size / total), rounded down,
  // or up when below 1 ("Don't completely starve small topicpartitions"); nothing is handed out
  // again. Keys k2, k3, k0 go to partitions 0, 1, 2 of 3 (Kafka's murmur2).
  const keyed = (perPartition: number, limit: number) =>
    runScenario({
      workload: {
        events: ['k2', 'k3', 'k0'].flatMap((key, p) =>
          Array.from({ length: perPartition }, (_, k) => ({
            id: `e${p * perPartition + k + 1}`,
            amount: 10,
            key,
            at: 0,
          })),
        ),
      },
      broker: { partitions: 3 },
      processor: {
        type: 'spark',
        maxOffsetsPerTrigger: limit,
        startingOffsets: 'earliest',
        startAtMs: 1000,
      },
      sink: { type: 'table', statementPer: 'batch' },
    });
  const batches = (run: ReturnType<typeof runScenario>) =>
    run.state.spark!.history.map((b) => b.end.map((e, i) => e - b.start[i]!).join('+'));

  it('3 partitions of 5, limit 10: 10 · 5/15 = 3.33 → 3 each, so 9 (not 10), then the 6 left', () => {
    // Batch 1: 6 left, total 6 ≤ 10: 10 · 2/6 = 3.33 → 3, capped at each partition's 2.
    const run = keyed(5, 10);
    expect(batches(run)).toEqual(['3+3+3', '2+2+2']);
    expect(totals(run)).toEqual({ rows: 15, sum: 150, duplicates: 0, lost: 0 });
  });

  it('3 partitions of 3, limit 2: 2 · 3/9 = 0.67 rounds up to 1 each, so 3 per batch (over the limit)', () => {
    // Then 2 · 2/6 = 0.67 → 1 each, then 2 · 1/3 = 0.67 → 1 each: three batches of 3.
    const run = keyed(3, 2);
    expect(batches(run)).toEqual(['1+1+1', '1+1+1', '1+1+1']);
    expect(totals(run)).toEqual({ rows: 9, sum: 90, duplicates: 0, lost: 0 });
  });
});

describe('foreachBatch calling an external service for each row (an effect sink)', () => {
  // S16's query and crash (batch 2 = e21..e30 re-run after its calls were made, before commits/2)
  // with foreachBatch calling the service per row. "foreachBatch provides only at-least-once
  // write guarantees" (https://spark.apache.org/docs/latest/streaming/apis-on-dataframes-and-datasets.html#using-foreach-and-foreachbatch);
  // a repeated idempotency key is answered from the saved result, "Subsequent requests with the
  // same key return the same result" (https://docs.stripe.com/api/idempotent_requests).
  // Before this fix the query called nothing and every event was counted lost.
  const effect = (idempotencyKey: string, faults: unknown[] = crash) =>
    spark({ type: 'effect', service: 'email', idempotencyKey }, faults);

  it('no key: the re-run emails e21..e30 again → 40 effects, 7,200', () => {
    const run = effect('none');
    expect(run.verdict.primary).toBe('effects');
    expect(totals(run)).toEqual({ rows: 40, sum: 7200, duplicates: 10, lost: 0 });
    expect(anomalies(run)).toEqual(Array.from({ length: 10 }, (_, k) => `e${21 + k}:2`));
    expect(entriesOf(run, 'effect')).toHaveLength(40);
  });

  it('a key from the business id: the ten repeated calls are answered from the store → 30, 4,650', () => {
    const run = effect('business-id');
    expect(totals(run)).toEqual({ rows: 30, sum: 4650, duplicates: 0, lost: 0 });
    expect(entriesOf(run, 'effect')).toHaveLength(30);
    expect(entriesOf(run, 'effect-replayed')).toHaveLength(10);
  });

  it('without the crash: one call per event → 30, 4,650', () => {
    expect(totals(effect('none', []))).toEqual({ rows: 30, sum: 4650, duplicates: 0, lost: 0 });
  });
});

describe('a table sink behind Spark honours statementPer', () => {
  // e1..e10 and a second e5 (the source emitting it twice) all in the log at 0: one micro-batch of
  // 11 rows. Insert-only MERGE on the event id (WHEN NOT MATCHED THEN INSERT). In one statement
  // both e5 rows are NOT MATCHED — "For each candidate change row, the status of MATCHED … or NOT
  // MATCHED … is set just once" against the table as the statement starts
  // (https://www.postgresql.org/docs/current/sql-merge.html): 11 rows. One statement per row
  // (statementPer record, as the knob says): the second e5 comes after the first was inserted,
  // is MATCHED and left alone: 10 rows. Before this fix the query wrote one statement whatever
  // statementPer said.
  const run = (statementPer: 'record' | 'batch') =>
    runScenario({
      workload: { events: [...events(10, () => 0), { id: 'e5', amount: 50, at: 0 }] },
      processor: { type: 'spark', startingOffsets: 'earliest', startAtMs: 1000 },
      sink: { type: 'table', statement: 'merge', merge: { whenMatched: 'none' }, statementPer },
    });

  const statements = (r: ReturnType<typeof runScenario>) =>
    entriesOf(r, 'msg').filter((i) => MESSAGE_TYPES[r.trace.aux[i]!] === 'sink-write').length;

  it('batch: one MERGE for the micro-batch → e5 inserted twice: 11 rows, 600', () => {
    const r = run('batch');
    expect(totals(r)).toEqual({ rows: 11, sum: 600, duplicates: 1, lost: 0 });
    expect(statements(r)).toBe(1);
  });

  it('record: one MERGE per row → the second e5 is MATCHED: 10 rows, 550', () => {
    const r = run('record');
    expect(totals(r)).toEqual({ rows: 10, sum: 550, duplicates: 0, lost: 0 });
    expect(statements(r)).toBe(11);
    expect(entriesOf(r, 'row-skip')).toHaveLength(1);
  });
});

describe("a side effect's idempotency key in the explanation of a repeated call", () => {
  // S16's crash (batch 2 re-run) with an email per record made from the query, and the table
  // written through Delta with txnAppId (so only the emails repeat). The sentence said "(it needs
  // its own idempotency key)" whatever key the call carried.
  const run = (sideEffect: Record<string, unknown>) =>
    spark({ type: 'delta', txnAppId: 'q-orders' }, crash, {
      sideEffect: { service: 'email', ...sideEffect },
    });
  const tail = (r: ReturnType<typeof runScenario>) =>
    r.verdict.explanations[0]!.sentence.replace(/^.* → a side effect/, 'a side effect');

  it('a key from the event id kept 100 ms: pruned before the re-run, 1,058 ms later', () => {
    // Batch 2 fires at 3,000 (1 s trigger); fetch answered at 3,004; e21 processed at 3,005
    // (1 ms), its call reaches the service at 3,007: the first email. Each record then takes
    // 1 + 2 + 2 ms: e30 processed at 3,050, its email answered at 3,054; the Delta write is
    // answered at 3,058 and the query crashes before commits/2. Restart at 4,058; the re-run's
    // fetch is answered at 4,062, e21 processed at 4,063, its call at the service at 4,065:
    // 1,058 ms after the first, past the 100 ms the key was kept. "We generate a new request if
    // a key is reused after the original is pruned" (https://docs.stripe.com/idempotency).
    const r = run({ idempotencyKey: 'business-id', retentionMs: 100 });
    const e21 = r.events.identityOf('e21');
    expect(
      entriesOf(r, 'effect')
        .filter((i) => r.events.identity[r.trace.event[i]!] === e21)
        .map((i) => r.trace.time[i]),
    ).toEqual([3007, 4065]);
    expect(anomalies(r, 'effects')).toEqual(Array.from({ length: 10 }, (_, k) => `e${21 + k}:2`));
    expect(tail(r)).toBe(
      "a side effect happens once per processing attempt: it is outside the exactly-once guarantee of the job's state and sink (its idempotency key, from the event id, had been pruned: the service keeps a key 100 ms and the repeat came 1.1 s later)",
    );
  });

  it('a new key per attempt: the re-run is a new request', () => {
    expect(tail(run({ idempotencyKey: 'per-attempt' }))).toBe(
      "a side effect happens once per processing attempt: it is outside the exactly-once guarantee of the job's state and sink (its idempotency key was new on each attempt, so the service saw a new request: it needs a key derived from the event)",
    );
  });

  it('a key from the event id kept 24 h: the re-run is answered from the saved result, nothing to explain', () => {
    const r = run({ idempotencyKey: 'business-id' });
    expect(anomalies(r, 'effects')).toEqual([]);
    expect(entriesOf(r, 'effect-replayed')).toHaveLength(10);
  });
});

describe('a crash before the micro-batch is written is not told as one after it', () => {
  // Delta with txnAppId (the table stays exact) and an email per record with no key, so only the
  // emails repeat. Batch 2 fires at 3,000: e21..e30 are processed at 3,005, 3,010, … 3,050
  // (1 ms, then the call's 2 + 2 ms). The explanation said "after its micro-batch holding e21 was
  // written" for every Spark crash; a crash before the write is now told as one.
  const run = (fault: Record<string, unknown>) =>
    spark(
      { type: 'delta', txnAppId: 'q-orders' },
      [{ id: 'driver crash', kind: 'crash', target: 'spark', ...fault }],
      {
        sideEffect: { service: 'email' },
      },
    );
  const head = (r: ReturnType<typeof runScenario>) =>
    r.verdict.explanations[0]!.sentence.replace(/ → on restart.*$/, '');

  it('at the before-sink-write point (3rd batch): all ten emailed again, the batch never written', () => {
    const r = run({ point: 'before-sink-write', nth: 3 });
    expect(anomalies(r, 'effects')).toEqual(Array.from({ length: 10 }, (_, k) => `e${21 + k}:2`));
    expect(totals(r)).toEqual({ rows: 30, sum: 4650, duplicates: 0, lost: 0 });
    expect(head(r)).toBe(
      'spark crashed (fault "driver crash") during its micro-batch holding e21, before the batch was written and recorded in the commit log',
    );
  });

  it('at 3,028 ms, in the middle of batch 2: e21..e25 (processed at 3,005..3,025) emailed again', () => {
    const r = run({ at: 3028 });
    expect(anomalies(r, 'effects')).toEqual(['e21:2', 'e22:2', 'e23:2', 'e24:2', 'e25:2']);
    expect(head(r)).toBe(
      'spark crashed (fault "driver crash") during its micro-batch holding e21, before the batch was written and recorded in the commit log',
    );
  });

  it('at 3,055 ms, with the Delta write in flight (sent 3,054, applied 3,056): "while … being written"', () => {
    const r = run({ at: 3055 });
    expect(anomalies(r, 'effects')).toEqual(Array.from({ length: 10 }, (_, k) => `e${21 + k}:2`));
    expect(totals(r)).toEqual({ rows: 30, sum: 4650, duplicates: 0, lost: 0 });
    expect(head(r)).toBe(
      'spark crashed (fault "driver crash") while its micro-batch holding e21 was being written, before the batch was recorded in the commit log',
    );
  });

  it('at the after-sink-write point: told as before', () => {
    expect(head(run({ point: 'after-sink-write', nth: 3 }))).toBe(
      'spark crashed (fault "driver crash") after its micro-batch holding e21 was written and before the batch was recorded in the commit log',
    );
  });
});

describe('startingOffsets=latest is resolved once, at the first start, and kept in the checkpoint', () => {
  // e1 (10) is sent at 0 ms: InitProducerId answered at 4, the batch leaves at 9 (linger.ms 5),
  // appended at offset 0 at 11 ms. The query starts at 0 ms with an empty log: "latest" = offset
  // 0, written to the checkpoint (KafkaMicroBatchStream.getOrCreateInitialPartitionOffsets:
  // "Read initial partition offsets from the checkpoint, or decide the offsets and write them to
  // the checkpoint"; the Kafka integration guide: startingOffsets "only applies when a new query
  // is started, and that resuming will always pick up from where the query left off",
  // https://spark.apache.org/docs/latest/streaming/structured-streaming-kafka-integration.html).
  // It crashes at 0 ms and is back at 16 ms, after e1's append: it resumes from offset 0, so
  // batch 0 = [0, 1) holds e1 → 1 row, 10. Resolving "latest" again at the restart (offset 1)
  // skipped e1: 0 rows.
  const run = runScenario({
    seed: 4,
    workload: { events: [{ id: 'e1', amount: 10, at: 0 }] },
    processor: { type: 'spark' },
    sink: { type: 'delta', txnAppId: 'query-1' },
    faults: [{ kind: 'crash', at: 0, target: 'spark', restartAfterMs: 16 }] as never,
  });

  it('a crash before any batch: the restart reads from the offsets of the first start → e1 once', () => {
    expect(entriesOf(run, 'restore').map((i) => run.trace.offset[i])).toEqual([0, 0]);
    expect(totals(run)).toEqual({ rows: 1, sum: 10, duplicates: 0, lost: 0 });
  });
});
