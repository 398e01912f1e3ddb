/**
 * Spark Structured Streaming micro-batches (SEMANTICS §1.6, S16): e1..e30, maxOffsetsPerTrigger 10,
 * so batch 0 = e1..e10, batch 1 = e11..e20, batch 2 = e21..e30. Batch 2's sink write finishes and
 * the driver dies before commits/2; on restart the offset log's latest entry (2) has no commit, so
 * batch 2 runs again with the same range and the same batch id.
 */
import { describe, expect, it } from 'vitest';
import { anomalies, entriesOf, events, runScenario, totals } from '../testing';

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

describe('a batch re-run after a crash before its commit-log entry (SEMANTICS S16)', () => {
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
    // SEMANTICS §1.6: "Kafka sink — Yes (at-least-once)". The reader is read_committed: the sink
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

describe('deleting the checkpoint location (SEMANTICS R10, D-IDEM warning)', () => {
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
