/**
 * The library preset whose failure happens in a Spark Structured Streaming query: a micro-batch
 * re-executed after a crash before its commit-log entry (S16). Apart from the Flink presets
 * (./processor.ts, the same library group): a family's module is loaded whole, and an embed of
 * this preset needs none of Flink's (issue 31: the embed ≤ 150 KB gzip).
 */
import type { Preset } from '../types';
import { each, ids } from './helpers';
import { sourceUrls } from './sources';
import { sparkQuery } from './sparkQuery';

const thirtyOnce = {
  totals: { rows: 30, duplicates: 0, lost: 0, sum: 4650 },
  rows: each(ids(1, 30), 1),
  observed: 'exactly-once',
  points: { processed: { totals: { rows: 40, duplicates: 10 } } },
} as const;

/*
 * spark-batch-replay — docs/semantics/scenarios.md#s16-spark-batch-re-execution. By hand:
 * e1..e30 (sum 4,650; e21..e30 sum 2,550) are in `orders` when the query starts at 1 s.
 * maxOffsetsPerTrigger 10 and a 1 s trigger: batch 0 = e1..e10 (offsets 0..9), batch 1 = e11..e20,
 * batch 2 = e21..e30. For batch 2, offsets/2 is written, the sink write finishes, and the driver
 * crashes before commits/2 (after-sink-write, 3rd). On restart the offset log's latest batch is 2
 * and the commit log's is 1, so batch 2 is re-executed with the same range and batchId 2 [S-MBE].
 * Every variant processes e21..e30 twice (`processed` 40).
 * - append (foreachBatch, JDBC append): e21..e30 = 2: 40 rows, 4,650 + 2,550 = 7,200, 10
 *   duplicates [S-SINK "at-least-once"].
 * - delta-txn (Delta, txnAppId q-orders, txnVersion = batchId): the first write recorded
 *   q-orders → 2; the rerun's version 2 ≤ 2 is skipped [D-IDEM, D-CODE]: 30 rows, 4,650.
 * - merge (Delta MERGE … ON event_id WHEN NOT MATCHED THEN INSERT): the rerun's rows all match
 *   and nothing is inserted: 30 rows, 4,650.
 * - file-sink (built-in parquet sink): its own metadata log already lists batch 2: 30 rows, 4,650
 *   [S-SINK "File Sink … exactly-once"].
 */
const sparkBatchReplay: Preset = {
  id: 'spark-batch-replay',
  title: 'Spark re-runs a micro-batch',
  group: 'processor',
  oneLine:
    'A crash after the write and before the commit log entry: Spark re-executes the same batch with the same id.',
  illustrates: 'exactly-once',
  setup:
    'A Structured Streaming query copies 30 orders, e1..e30, from Kafka into a table with a plain append in foreachBatch, 10 records per micro-batch (maxOffsetsPerTrigger = 10): batch 0 is e1..e10, batch 1 e11..e20, batch 2 e21..e30. The driver will crash after batch 2 is written and before it is recorded as done; on restart Spark runs a batch not recorded as done again, with the same offsets.',
  story:
    'A Structured Streaming query copies orders from Kafka ten at a time with foreachBatch. The driver died after writing batch 2 and before recording it as done, so on restart Spark ran batch 2 again, same offsets and same batch id. The JDBC append table got e21..e30 twice; the Delta table written with txnAppId and txnVersion recognised the batch id and skipped it.',
  watch:
    'offsets/2 written, the sink write, the crash before commits/2; on restart batch 2 planned again with the same range, and the sink either appending again or skipping.',
  fix: 'Try: the delta-txn variant (txnAppId = a constant per query, txnVersion = batchId) → the rerun is skipped: 0 duplicates.',
  predict: {
    needs: [
      '30 orders',
      'plain append',
      '10 records per micro-batch',
      'batch 2 e21..e30',
      'before it is recorded as done',
    ],
    question:
      'The driver crashes after writing batch 2 (e21..e30) and before recording it as done. With a plain append in foreachBatch, how many rows does the table end with?',
    answer:
      '40: batch 2 (e21..e30) is written once before the crash and once when it is re-executed.',
    mark: { kind: 'numbers', values: [{ value: 40, what: 'rows' }] },
  },
  sources: sourceUrls('S-FT', 'S-SINK', 'S-MBE', 'D-IDEM', 'D-MERGE'),
  variants: [
    {
      id: 'append',
      label: 'append',
      summary: 'foreachBatch with a plain JDBC append',
      scenario: sparkQuery(
        'Spark re-runs a micro-batch — append',
        { type: 'table', name: 'orders', statementPer: 'batch' },
        {
          totals: { rows: 40, duplicates: 10, lost: 0, sum: 7200 },
          rows: { ...each(ids(1, 20), 1), ...each(ids(21, 30), 2) },
          observed: 'at-least-once',
          points: { processed: { totals: { rows: 40, duplicates: 10 } } },
        },
      ),
    },
    {
      id: 'delta-txn',
      label: 'Delta txnAppId + txnVersion',
      summary: 'the rerun of batch 2 carries version 2, already written: skipped',
      scenario: sparkQuery(
        'Spark re-runs a micro-batch — Delta txnAppId + txnVersion',
        { type: 'delta', name: 'orders', txnAppId: 'q-orders' },
        thirtyOnce,
      ),
    },
    {
      id: 'merge',
      label: 'MERGE',
      summary: 'Delta MERGE ON event_id WHEN NOT MATCHED THEN INSERT',
      scenario: sparkQuery(
        'Spark re-runs a micro-batch — MERGE',
        { type: 'delta', name: 'orders', mode: 'merge' },
        thirtyOnce,
      ),
    },
    {
      id: 'file-sink',
      label: 'file sink',
      summary: 'the built-in parquet sink (exactly-once through its metadata log)',
      scenario: sparkQuery(
        'Spark re-runs a micro-batch — file sink',
        { type: 'file', name: 'orders' },
        thirtyOnce,
      ),
    },
  ],
};

/** The Spark Structured Streaming presets, in library order. */
export const structuredStreamingPresets = { sparkBatchReplay };
