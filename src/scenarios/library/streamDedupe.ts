/**
 * Library presets on dedupe that lives in the stream processor or after the sink
 * (docs/semantics/stream-dedupe.md): Spark's watermark-bounded dedupe and Flink's TTL-bounded one
 * letting a late copy through, a raw table cleaned downstream, and a Spark query restarted on a
 * new checkpoint with the same or a new Delta `txnAppId`.
 */
import type { ScenarioInput } from '../../engine';
import type { Preset } from '../types';
import { each, ids, indexedEvents } from './helpers';
import { sourceUrls } from './sources';
import { sparkQuery } from './sparkQuery';

type ProcessorInput = NonNullable<ScenarioInput['processor']>;

/**
 * e1..e60, one every 100 ms from 100 ms (amount 10·i; true sum 18,300), into `orders`; the
 * application sends e5 again at 5.5 s, 5 s after its first send.
 */
function lateCopy(name: string, processor: ProcessorInput, expect: ScenarioInput['expect']) {
  return {
    version: 1,
    name,
    claim: 'exactly-once',
    workload: { topic: 'orders', generate: { count: 60, startAtMs: 100, intervalMs: 100 } },
    producer: { app: { onFailure: 'resend' } },
    processor,
    sink: { type: 'table', name: 'orders', statementPer: 'batch' },
    faults: [{ id: 'late copy of e5', kind: 'app-resend', event: 'e5', at: 5500 }],
    expect,
  } satisfies ScenarioInput;
}

/** 60 rows, every event once. */
const sixtyOnce = {
  totals: { rows: 60, duplicates: 0, lost: 0, sum: 18_300 },
  rows: each(ids(1, 6), 1),
  observed: 'exactly-once',
} as const;
/** e5 twice: 61 rows, 18,300 + 50. */
const e5Twice = {
  totals: { rows: 61, duplicates: 1, lost: 0, sum: 18_350 },
  rows: { ...each(ids(1, 4), 1), e5: 2, e6: 1 },
  observed: 'at-least-once',
} as const;

const spark = (dedupe: Extract<ProcessorInput, { type: 'spark' }>['dedupe']) =>
  ({ type: 'spark', startingOffsets: 'earliest', dedupe }) as const;

/*
 * spark-watermark-dedupe. By hand (the model stamps a record when its leader appends it, a few
 * ms after its send; network latency a few ms):
 * - e5's first record: timestamp ≈ 507 ms; its copy (sent at 5,500): ≈ 5,507 ms. Triggers every
 *   1 s; the copy is read by the batch at 6 s. The watermark is set at a batch's end, = the max
 *   timestamp seen so far − the delay [S-DEDUP]; the batch at 5 s had read up to e49 (≈ 4,907),
 *   so the 6 s batch's watermark is ≈ 4,907 − delay.
 * - within-2s: dropDuplicatesWithinWatermark keeps e5 until the watermark passes 507 + 2,000 =
 *   2,507; the 6 s batch's watermark ≈ 2,907 > 2,507: evicted, the copy passes [S-DDWW]: e5 ×2,
 *   61 rows, 18,300 + 50 = 18,350.
 * - within-10s: e5 kept until 10,507; the watermark is 0 (4,907 − 10,000 < 0): dropped. 60 rows.
 * - drop-duplicates: dropDuplicates(["id", "timestamp"]) — the timestamp is part of the key,
 *   5,507 ≠ 507: another key, it passes: 61 rows [S-DEDUP].
 * - payload-event-time: withWatermark on the event's own time (500 ms in both copies): the copy's
 *   500 ≤ the watermark 4,900 − 2,000 = 2,900: "too late data older than watermark will be
 *   dropped" [S-DDWW]: 60 rows (every first copy came in time: each batch's records are newer
 *   than its watermark).
 */
const sparkWatermarkDedupe: Preset = {
  id: 'spark-watermark-dedupe',
  title: 'A late copy outlives the watermark',
  group: 'processor',
  oneLine:
    'dropDuplicatesWithinWatermark forgets a key once the watermark passes it: a copy that comes later passes as new.',
  illustrates: 'at-least-once',
  setup:
    'A Structured Streaming query reads 60 orders, e1..e60, one every 100 ms, and appends them to a table in foreachBatch, each micro-batch 1 s apart. Before the write it runs withWatermark("timestamp", "2 seconds") and dropDuplicatesWithinWatermark(["id"]); the watermark is the latest timestamp seen minus 2 seconds. The application sends e5 again 5 seconds after the first time, with a new Kafka timestamp.',
  story:
    'The query deduplicated on the order id, but only within its watermark: Spark keeps a key until the watermark passes its first timestamp plus the 2 s delay, and then forgets it. The copy of e5 came 5 s later, long after the watermark had passed, so the dedupe saw it as new and the table got e5 twice. A 10 s delay, longer than the gap between copies, drops it.',
  watch:
    "each micro-batch's watermark in the trace, the first e5 passing, and the copy at 5.5 s passing too — the dedupe had already evicted its key.",
  fix: 'Try: the within-10s variant (a delay longer than the largest gap between copies) → the copy is dropped: 0 duplicates.',
  predict: {
    needs: ['60 orders', '2 seconds', '5 seconds after the first time'],
    question:
      'e5 is sent again 5 seconds after the first time, and the watermark trails the latest timestamp by 2 seconds. How many rows does the table end with?',
    answer:
      '61: by the time the copy arrives the watermark has passed e5 + 2 s, so its key is gone from the state and the copy is written as a new row.',
    mark: { kind: 'numbers', values: [{ value: 61, what: 'rows' }] },
  },
  sources: sourceUrls('S-DEDUP', 'S-DDWW', 'S-SINK'),
  variants: [
    {
      id: 'within-2s',
      label: 'dropDuplicatesWithinWatermark, 2 s',
      summary: 'the copy comes 5 s after the first: past the 2 s delay',
      scenario: lateCopy(
        'A late copy outlives the watermark — dropDuplicatesWithinWatermark, 2 s',
        spark({ delayThresholdMs: 2000 }),
        e5Twice,
      ),
    },
    {
      id: 'within-10s',
      label: 'dropDuplicatesWithinWatermark, 10 s',
      summary: 'a delay longer than the gap between copies: the copy is dropped',
      scenario: lateCopy(
        'A late copy outlives the watermark — dropDuplicatesWithinWatermark, 10 s',
        spark({ delayThresholdMs: 10_000 }),
        sixtyOnce,
      ),
    },
    {
      id: 'drop-duplicates',
      label: 'dropDuplicates(["id", "timestamp"])',
      summary: 'the timestamp is part of the key: a copy with a new timestamp is another key',
      scenario: lateCopy(
        'A late copy outlives the watermark — dropDuplicates(["id", "timestamp"])',
        spark({ operator: 'dropDuplicates', delayThresholdMs: 2000 }),
        e5Twice,
      ),
    },
    {
      id: 'payload-event-time',
      label: 'watermark on the event time in the payload',
      summary: 'both copies carry the same event time: the late one is dropped as late data',
      scenario: lateCopy(
        'A late copy outlives the watermark — watermark on the event time in the payload',
        spark({ eventTime: 'eventTime', delayThresholdMs: 2000 }),
        sixtyOnce,
      ),
    },
  ],
};

const flink = (ttl: number | null) =>
  ({
    type: 'flink',
    'execution.checkpointing.interval': 1000,
    ...(ttl === null ? {} : { dedupe: { 'table.exec.state.ttl': ttl } }),
  }) as const;

/*
 * flink-dedupe-ttl. By hand: the job processes each record a few ms after its send; e5 at
 * ≈ 516 ms, its copy at ≈ 5,516 ms. The keep-first ROW_NUMBER dedupe writes e5's state once, at
 * its first row; the state expires table.exec.state.ttl after that write, in processing time
 * [F-DEDUP, F-TTL, F-STTL].
 * - ttl-2s: expired at ≈ 2,516 < 5,516: the copy is a first row again: 61 rows, 18,350.
 * - ttl-10s: alive until ≈ 10,516 > 5,516: dropped: 60 rows.
 * - no-dedupe: the copy is written: 61 rows.
 */
const flinkDedupeTtl: Preset = {
  id: 'flink-dedupe-ttl',
  title: 'State TTL forgets a key',
  group: 'processor',
  oneLine:
    'A Flink ROW_NUMBER dedupe keeps each key only for table.exec.state.ttl: a copy that comes later is a first row again.',
  illustrates: 'at-least-once',
  setup:
    'A Flink job reads 60 orders, e1..e60, one every 100 ms, and keeps the first row per order id (ROW_NUMBER() OVER (PARTITION BY id ORDER BY proctime) = 1) before a plain JDBC insert. Its state expires 2 seconds after it is written (table.exec.state.ttl = 2 s). The application sends e5 again 5 seconds after the first time.',
  story:
    'The job kept the first row of each order id, but only as long as the state lived: table.exec.state.ttl cleared e5’s entry 2 s after it was written. The copy came 5 s later, found no state and was a first row again, so the table got e5 twice. A TTL longer than the largest gap between copies drops it.',
  watch:
    'the first e5 written, the copy at 5.5 s processed and written again: no drop entry, its key had expired.',
  fix: 'Try: the ttl-10s variant (a TTL longer than the largest gap between copies) → the copy is dropped: 0 duplicates.',
  predict: {
    needs: ['60 orders', '2 seconds', '5 seconds after the first time'],
    question:
      'The dedupe state expires 2 seconds after it is written; e5 is sent again 5 seconds after the first time. How many rows does the table end with?',
    answer:
      '61: e5’s state expired 3 s before the copy came, so the copy was taken as the first row again and inserted.',
    mark: { kind: 'numbers', values: [{ value: 61, what: 'rows' }] },
  },
  sources: sourceUrls('F-DEDUP', 'F-TTL', 'F-STTL'),
  variants: [
    {
      id: 'ttl-2s',
      label: 'table.exec.state.ttl = 2 s',
      summary: 'the copy comes 5 s after the first: its state has expired',
      scenario: lateCopy(
        'State TTL forgets a key — table.exec.state.ttl = 2 s',
        flink(2000),
        e5Twice,
      ),
    },
    {
      id: 'ttl-10s',
      label: 'table.exec.state.ttl = 10 s',
      summary: 'the state outlives the gap: the copy is dropped',
      scenario: lateCopy(
        'State TTL forgets a key — table.exec.state.ttl = 10 s',
        flink(10_000),
        sixtyOnce,
      ),
    },
    {
      id: 'no-dedupe',
      label: 'no dedupe',
      summary: 'no ROW_NUMBER dedupe before the sink',
      scenario: lateCopy('State TTL forgets a key — no dedupe', flink(null), e5Twice),
    },
  ],
};

/*
 * raw-clean-layer — S16's query (docs/semantics/scenarios.md#s16-spark-batch-re-execution):
 * e1..e30, 10 per micro-batch, the driver crashes after batch 2's write and before commits/2, so
 * batch 2 (e21..e30) is written twice to a Delta append without txnAppId: the raw table has 40
 * rows, e21..e30 twice [S-MBE, D-IDEM].
 * - raw-only: the raw table is the end: 40 rows, 10 duplicates, 4,650 + 2,550 = 7,200.
 * - raw-then-clean: ROW_NUMBER() OVER (PARTITION BY event_id ORDER BY offset) = 1 keeps one raw
 *   row per id, MERGE WHEN NOT MATCHED inserts it [D-MERGE, PG-MRG]: the clean table has 30 rows,
 *   4,650, while the raw one still has 40.
 */
function rawClean(name: string, clean: boolean, expect: ScenarioInput['expect']): ScenarioInput {
  const raw = { type: 'delta', name: 'orders_raw' } as const;
  return sparkQuery(name, clean ? { ...raw, clean: { name: 'orders' } } : raw, expect);
}

const rawCleanLayer: Preset = {
  id: 'raw-clean-layer',
  title: 'Raw keeps the duplicates, clean does not',
  group: 'sink',
  oneLine:
    'A raw table takes every delivery; a clean table built with ROW_NUMBER() = 1 per event id and MERGE stays exact.',
  illustrates: 'exactly-once',
  setup:
    'A Structured Streaming query appends 30 orders, e1..e30, to a raw Delta table, 10 records per micro-batch, with no txnAppId. The driver will crash after batch 2 (e21..e30) is written and before it is recorded as done, so batch 2 is written again. Downstream, a job keeps one raw row per event id (ROW_NUMBER() = 1) and merges it into a clean table.',
  story:
    'The raw table took every delivery: batch 2 was written twice, so e21..e30 are there twice. The clean step keeps the first raw row of each event id and inserts only ids the clean table lacks, so the clean table has each order once. Readers of the clean table see exact numbers while the raw table keeps the evidence.',
  watch:
    'the raw table growing to 40 rows after the re-executed batch, and the clean point in the ledger staying at 30.',
  fix: 'Try: the raw-then-clean variant → the clean table is exact: 30 rows, 0 duplicates.',
  predict: {
    needs: ['30 orders', 'batch 2 is written again', 'ROW_NUMBER() = 1'],
    variant: 'raw-then-clean',
    question:
      'Batch 2 (e21..e30) is written twice to the raw table. How many rows does the clean table end with?',
    answer:
      '30: the raw table has 40 rows, but the clean step keeps one row per event id, so each order is there once.',
    mark: { kind: 'numbers', values: [{ value: 30, what: 'rows' }] },
  },
  sources: sourceUrls('S-MBE', 'D-IDEM', 'D-MERGE', 'PG-MRG'),
  variants: [
    {
      id: 'raw-only',
      label: 'raw table only',
      summary: 'readers read the raw table: the re-executed batch is there twice',
      scenario: rawClean('Raw keeps the duplicates, clean does not — raw table only', false, {
        totals: { rows: 40, duplicates: 10, lost: 0, sum: 7200 },
        rows: { ...each(ids(1, 20), 1), ...each(ids(21, 30), 2) },
        observed: 'at-least-once',
      }),
    },
    {
      id: 'raw-then-clean',
      label: 'raw then clean',
      summary: 'ROW_NUMBER() = 1 per event id, merged into a clean table',
      scenario: rawClean('Raw keeps the duplicates, clean does not — raw then clean', true, {
        totals: { rows: 30, duplicates: 0, lost: 0, sum: 4650 },
        rows: each(ids(20, 30), 1),
        observed: 'exactly-once',
        points: { sink: { totals: { rows: 40, duplicates: 10 } } },
      }),
    },
  ],
};

/*
 * spark-checkpoint-reset-txnappid. e1..e10 at 100 ms, e11..e20 at 1.1 s, e21..e30 at 2.1 s,
 * e31..e40 at 4 s (amount 10·i). The query (trigger 1 s, startingOffsets earliest) writes batch 0
 * = e1..e10 at 1 s, batch 1 = e11..e20 at 2 s, batch 2 = e21..e30 at 3 s to Delta with txnAppId
 * q-orders, txnVersion = the batch id: Delta records q-orders → 2. At 3.5 s the checkpoint location
 * is deleted; the query restarts at 4.5 s with a new checkpoint, so batch ids start from 0 and it
 * reads from earliest: batch 0 = e1..e40 [D-IDEM].
 * - same-txnappid: version 0 ≤ 2 under q-orders: the whole batch is skipped ("writes from the
 *   restarted query will be ignored") [D-IDEM, D-CODE]: e31..e40 lost; 30 rows, 4,650.
 * - new-txnappid (q-orders-2): nothing recorded for it: batch 0 is written: e1..e30 twice,
 *   e31..e40 once: 70 rows, 30 duplicates, 2 · 4,650 + 3,550 = 12,850.
 * - merge: Delta MERGE ON id WHEN NOT MATCHED THEN INSERT, no txnAppId: e1..e30 match, e31..e40
 *   are inserted: 40 rows, 8,200 [D-MERGE].
 */
function checkpointReset(
  name: string,
  sink: ScenarioInput['sink'],
  txnAppId: string | undefined,
  expect: ScenarioInput['expect'],
): ScenarioInput {
  return {
    version: 1,
    name,
    claim: 'exactly-once',
    workload: {
      topic: 'orders',
      events: indexedEvents(40, (i) => (i <= 10 ? 100 : i <= 20 ? 1100 : i <= 30 ? 2100 : 4000)),
    },
    producer: { app: { onFailure: 'resend' } },
    processor: { type: 'spark', startingOffsets: 'earliest' },
    sink,
    faults: [
      {
        id: 'new checkpoint location',
        kind: 'checkpoint-reset',
        at: 3500,
        ...(txnAppId ? { txnAppId } : {}),
      },
    ],
    expect,
  };
}

const deltaTxn = { type: 'delta', name: 'orders', txnAppId: 'q-orders' } as const;

const sparkCheckpointResetTxnAppId: Preset = {
  id: 'spark-checkpoint-reset-txnappid',
  title: 'Restarted on a new checkpoint',
  group: 'processor',
  oneLine:
    'A restart on a new checkpoint numbers batches from 0 again: the same txnAppId skips new data, a new one rewrites old data.',
  illustrates: 'none',
  setup:
    'A Structured Streaming query writes orders to Delta with txnAppId q-orders and txnVersion = the batch id: batch 0 is e1..e10, batch 1 e11..e20, batch 2 e21..e30, so Delta records version 2 for q-orders. Then it restarts on a new, empty checkpoint from earliest: batch 0 again, now e1..e40 with 10 new orders e31..e40.',
  story:
    'The query restarted on a new checkpoint with the same txnAppId, so its first batch was batch 0 again, and Delta had already recorded version 2 for q-orders. Delta skipped the whole batch, with the 10 new orders in it: silent loss. With a new txnAppId nothing was skipped and e1..e30 were written a second time.',
  watch:
    'the checkpoint reset, batch 0 planned again with 40 records, and the Delta write skipped (same txnAppId) or written (new one).',
  fix: 'Try: the merge variant (MERGE on the order id) → old orders match, new ones are inserted: 40 rows, exact.',
  predict: {
    needs: ['txnAppId q-orders', 'version 2', 'batch 0 again', '10 new orders e31..e40'],
    question:
      'After the restart, batch 0 holds e1..e40 and Delta has version 2 for q-orders. With the same txnAppId, how many orders are lost?',
    answer:
      '10: version 0 is not above the recorded 2, so Delta skips the whole batch, e31..e40 with it.',
    mark: { kind: 'numbers', values: [{ value: 10, what: 'lost' }] },
  },
  sources: sourceUrls('D-IDEM', 'D-MERGE', 'S-FT'),
  variants: [
    {
      id: 'same-txnappid',
      label: 'same txnAppId',
      summary: 'batch ids restart at 0 under q-orders: skipped',
      scenario: checkpointReset(
        'Restarted on a new checkpoint — same txnAppId',
        deltaTxn,
        undefined,
        {
          totals: { rows: 30, duplicates: 0, lost: 10, sum: 4650 },
          rows: { ...each(ids(29, 30), 1), ...each(ids(31, 40), 0) },
          observed: 'at-most-once',
        },
      ),
    },
    {
      id: 'new-txnappid',
      label: 'new txnAppId',
      summary: 'q-orders-2 has no version recorded: everything is written again',
      scenario: checkpointReset(
        'Restarted on a new checkpoint — new txnAppId',
        deltaTxn,
        'q-orders-2',
        {
          totals: { rows: 70, duplicates: 30, lost: 0, sum: 12_850 },
          rows: { ...each(ids(1, 30), 2), ...each(ids(31, 40), 1) },
          observed: 'at-least-once',
        },
      ),
    },
    {
      id: 'merge',
      label: 'MERGE, no txnAppId',
      summary: 'MERGE ON id WHEN NOT MATCHED THEN INSERT: the replay matches',
      scenario: checkpointReset(
        'Restarted on a new checkpoint — MERGE, no txnAppId',
        { type: 'delta', name: 'orders', mode: 'merge' },
        undefined,
        {
          totals: { rows: 40, duplicates: 0, lost: 0, sum: 8200 },
          rows: each(ids(29, 32), 1),
          observed: 'exactly-once',
        },
      ),
    },
  ],
};

/** The stream-dedupe presets, in library order. */
export const streamDedupePresets = {
  sparkWatermarkDedupe,
  flinkDedupeTtl,
  rawCleanLayer,
  sparkCheckpointResetTxnAppId,
};
