/**
 * Library presets of the batch half (docs/semantics/batch.md): a daily job retried, cleared and
 * backfilled, dbt incremental models, and dedupe stores in front of the write. Each variant's
 * `expect` is derived by hand in the comment above its preset. They run through the batch engine
 * (`runBatch`), not the streaming one, so they are listed apart from `libraryPresets` (whose
 * walks run the stream engine); the page lists both (`labPresets`, src/scenarios/index.ts).
 *
 * Time: virtual 0 is midnight of 2024-03-10 (logical date 0). The run of date d starts at
 * (d+1)·24 h, reads for 60 s, then writes one row per second.
 */
import type { BatchInput } from '../../engine';
import { sourceUrls } from './sources';
import {
  DAY,
  HOUR,
  batchVariant,
  tenOn,
  TEN_ONCE,
  TEN_TWICE,
  type BatchPreset,
} from './batchHelpers';
import { dedupePresets } from './batchDedupe';
import { variantOfRef } from '../defaultVariant';

// ------------------------------------------------------------------ airflow-retry-append (S21)

/*
 * S21 (docs/semantics/scenarios.md#s21-daily-batch-rerun): try 1 of 2024-03-10 writes e1..e10 and
 * commits, then fails its post-load check; retries=1 runs try 2, which reads the same day again.
 * - append: each event twice: 20 rows, sum 1,100, 10 duplicates.
 * - overwrite (INSERT OVERWRITE … PARTITION (dt='{{ ds }}')): try 2 replaces try 1: 10 rows, 550.
 * - MERGE on the event id: try 2 updates the same 10 rows: 10 rows, 550.
 */
const retryJob = (write: BatchInput['write']): BatchInput => ({
  task: { retries: 1 },
  write,
  source: tenOn('2024-03-10'),
  faults: [{ logicalDate: 0, tryNumber: 1, point: 'after-write' }],
});
const airflowRetryAppend: BatchPreset = {
  id: 'airflow-retry-append',
  title: 'Airflow retries a task that appends',
  group: 'batch',
  oneLine: 'A retried INSERT writes the day twice; an overwrite of the logical date does not.',
  illustrates: 'at-least-once',
  setup:
    "A daily Airflow task loads 10 events dated 2024-03-10 with INSERT INTO mart.sales SELECT … WHERE event_date = '{{ ds }}', retries=1. Its 1st try writes all 10 rows and commits, then fails a post-load check, so Airflow runs the task again.",
  story:
    'A post-load row-count check timed out after the load had committed. Airflow retried the task as designed, the INSERT ran again, and every sale of the day was counted twice in the dashboard.',
  watch: 'Try 2 of 2024-03-10 reading the same day and appending the same 10 rows.',
  fix: 'Try: write.mode overwrite-partition (or merge on the event id) → 10 rows.',
  predict: {
    question: 'How many rows does partition 2024-03-10 hold after the retry?',
    answer: '20: the INSERT ran twice over the same 10 events.',
    mark: { kind: 'numbers', values: [{ value: 20, what: 'rows', units: ['rows', 'row'] }] },
    needs: [
      '10 events dated 2024-03-10',
      'INSERT INTO',
      'retries=1',
      'writes all 10 rows and commits',
    ],
  },
  sources: sourceUrls('AF-BP', 'AF-DR'),
  variants: [
    batchVariant(
      'append',
      'INSERT (append)',
      'the retry appends the day again',
      'Airflow retry — append',
      retryJob({ mode: 'append' }),
      TEN_TWICE,
    ),
    batchVariant(
      'overwrite',
      'INSERT OVERWRITE the logical date',
      'the retry replaces the partition',
      'Airflow retry — overwrite partition',
      retryJob({ mode: 'overwrite-partition' }),
      TEN_ONCE,
    ),
    batchVariant(
      'merge',
      'MERGE on the event id',
      'the retry updates the same rows',
      'Airflow retry — merge',
      retryJob({ mode: 'merge' }),
      TEN_ONCE,
    ),
  ],
};

// ------------------------------------------------------------------ clear-rerun-window

/*
 * Dates 03-10 (e1 10, e2 20, e3 30) and 03-12 (f1 100, f2 200); 2024-03-10 is cleared and re-run
 * at 2024-03-13 01:00. The scheduled runs wrote each event once into its own partition.
 * - clock window (current_date() - 1 = 2024-03-12 at the re-run) + overwrite of 03-10: 03-10 now
 *   holds f1, f2 (wrong partition); e1..e3 lost; f1, f2 = 2. Rows 4, sum 600, lost 3, dup 2.
 * - clock window + append: 03-10 gets f1, f2 on top: 7 rows, sum 660, dup 2, lost 0.
 * - pinned window + overwrite: the re-run rewrites e1..e3: 5 rows, 360, exact.
 * - pinned window + append: e1..e3 = 2: 8 rows, 420, dup 3.
 */
const windowJob = (
  window: 'pinned' | 'clock',
  mode: 'append' | 'overwrite-partition',
): BatchInput => ({
  periods: 3,
  window,
  write: { mode },
  source: [
    { id: 'e1', date: '2024-03-10', amount: 10 },
    { id: 'e2', date: '2024-03-10', amount: 20 },
    { id: 'e3', date: '2024-03-10', amount: 30 },
    { id: 'f1', date: '2024-03-12', amount: 100 },
    { id: 'f2', date: '2024-03-12', amount: 200 },
  ],
  clears: [{ logicalDate: 0, atMs: 3 * DAY + HOUR }],
});
const clearRerunWindow: BatchPreset = {
  id: 'clear-rerun-window',
  title: 'Clear and re-run a past day: a window from the clock',
  group: 'batch',
  oneLine: 'A re-run reads current_date() - 1 when it runs, not the day it is for.',
  illustrates: 'none',
  setup:
    'A daily job reads WHERE event_date = current_date() - 1 and overwrites the partition of its logical date. 2024-03-10 holds e1, e2, e3; 2024-03-12 holds f1, f2. On 2024-03-13 at 01:00 someone clears 2024-03-10 and re-runs it.',
  story:
    'An engineer re-ran a failed day three days later. The job computed its window from the clock, so it read the day before the re-run, wrote that day into the old partition, and the old day vanished from the report.',
  watch:
    'The re-run of 2024-03-10 reading 2024-03-12, and partition 2024-03-10 filled with f1, f2.',
  fix: "Try: window pinned (WHERE event_date = '{{ ds }}') → the re-run rewrites e1..e3: 5 rows.",
  predict: {
    question: 'After the re-run, which events have no row in their own partition?',
    answer:
      'e1, e2, e3: their partition was overwritten with 2024-03-12 data (f1, f2, now under the wrong partition).',
    mark: { kind: 'events', ids: ['e1', 'e2', 'e3'] },
    needs: [
      'current_date() - 1',
      'overwrites the partition of its logical date',
      '2024-03-10 holds e1, e2, e3',
      '2024-03-12 holds f1, f2',
      '2024-03-13 at 01:00',
    ],
  },
  sources: sourceUrls('AF-BP', 'AF-DR'),
  variants: [
    batchVariant(
      'clock-overwrite',
      'clock window, overwrite',
      'the old day is replaced by the clock day',
      'Re-run — clock window, overwrite',
      windowJob('clock', 'overwrite-partition'),
      {
        totals: { rows: 4, duplicates: 2, lost: 3, sum: 600 },
        rows: { e1: 0, e2: 0, e3: 0, f1: 2, f2: 2 },
        observed: 'none',
      },
    ),
    batchVariant(
      'clock-append',
      'clock window, append',
      'the clock day is added under the old day',
      'Re-run — clock window, append',
      windowJob('clock', 'append'),
      {
        totals: { rows: 7, duplicates: 2, lost: 0, sum: 660 },
        rows: { e1: 1, e2: 1, e3: 1, f1: 2, f2: 2 },
        observed: 'at-least-once',
      },
    ),
    batchVariant(
      'pinned-overwrite',
      'pinned window, overwrite',
      'the re-run rewrites its own day',
      'Re-run — pinned window, overwrite',
      windowJob('pinned', 'overwrite-partition'),
      {
        totals: { rows: 5, duplicates: 0, lost: 0, sum: 360 },
        observed: 'exactly-once',
      },
    ),
    batchVariant(
      'pinned-append',
      'pinned window, append',
      'the re-run appends its own day again',
      'Re-run — pinned window, append',
      windowJob('pinned', 'append'),
      {
        totals: { rows: 8, duplicates: 3, lost: 0, sum: 420 },
        rows: { e1: 2, e2: 2, e3: 2, f1: 1, f2: 1 },
        observed: 'at-least-once',
      },
    ),
  ],
};

// ------------------------------------------------------------------ backfill-beside-production

/*
 * a1 (03-10), b1 (03-11), c1 (03-12), d1, d2 (03-13), amounts 10, 20, 30, 40, 50; the scheduled
 * runs wrote each once. A backfill of 03-10..03-13 ("All Runs": completed dates too) starts at
 * 2024-03-13 23:57 (4 d − 3 min): its runs take 61 s each, so it reaches 03-13 at 4 d + 3 s, while
 * the scheduled run of 03-13 (from 4 d, 62 s) is running: "if the latest run is still running or
 * is queued, we do not create another run"
 * (https://airflow.apache.org/docs/apache-airflow/stable/core-concepts/backfill.html).
 * - append: a1, b1, c1 twice, d1, d2 once: 8 rows, sum 2·60 + 90 = 210, dup 3.
 * - overwrite (atomic): each run replaces its partition: 5 rows, 150.
 */
const backfillJob = (mode: 'append' | 'overwrite-partition'): BatchInput => ({
  periods: 4,
  write: { mode },
  source: [
    { id: 'a1', date: '2024-03-10', amount: 10 },
    { id: 'b1', date: '2024-03-11', amount: 20 },
    { id: 'c1', date: '2024-03-12', amount: 30 },
    { id: 'd1', date: '2024-03-13', amount: 40 },
    { id: 'd2', date: '2024-03-13', amount: 50 },
  ],
  backfills: [{ from: 0, to: 3, atMs: 4 * DAY - 180_000 }],
});
const backfillBesideProduction: BatchPreset = {
  id: 'backfill-beside-production',
  title: 'A backfill running beside production',
  group: 'batch',
  oneLine: 'A backfill over days already loaded, one of them loading right now.',
  illustrates: 'at-least-once',
  setup:
    'A daily job appends each day (INSERT INTO). 2024-03-10..2024-03-13 hold a1, b1, c1, then d1 and d2, each already loaded once except 2024-03-13, whose scheduled run starts at midnight. At 23:57 on 2024-03-13 an engineer starts a backfill of 2024-03-10..2024-03-13 that reprocesses completed dates too (All Runs); it reaches 2024-03-13 while the scheduled run is still writing.',
  story:
    'A backfill meant to repair one column was run over a range that production had already loaded. With append writes, every event of the days it re-ran ended up twice; only the day still being loaded was spared, because Airflow does not start a second run of a date whose run is still going.',
  watch:
    'The backfill runs one date after another, and skips 2024-03-13 while its scheduled run is running.',
  fix: 'Try: write.mode overwrite-partition → each run replaces its day: 5 rows.',
  predict: {
    question: 'How many rows does the table hold after the backfill?',
    answer:
      '8: a1, b1 and c1 were appended by production and again by the backfill; the backfill made no run of 2024-03-13, whose scheduled run was still running.',
    mark: { kind: 'numbers', values: [{ value: 8, what: 'rows', units: ['rows', 'row'] }] },
    needs: [
      'appends each day (INSERT INTO)',
      'a1, b1, c1, then d1 and d2',
      'backfill of 2024-03-10..2024-03-13',
    ],
  },
  sources: sourceUrls('AF-BF', 'AF-DR', 'AF-BP'),
  variants: [
    batchVariant(
      'append',
      'append',
      'every backfilled day twice',
      'Backfill beside production — append',
      backfillJob('append'),
      {
        totals: { rows: 8, duplicates: 3, lost: 0, sum: 210 },
        rows: { a1: 2, b1: 2, c1: 2, d1: 1, d2: 1 },
        observed: 'at-least-once',
      },
    ),
    batchVariant(
      'overwrite',
      'overwrite partition',
      'each run replaces its day',
      'Backfill beside production — overwrite',
      backfillJob('overwrite-partition'),
      {
        totals: { rows: 5, duplicates: 0, lost: 0, sum: 150 },
        observed: 'exactly-once',
      },
    ),
  ],
};

// ------------------------------------------------------------------ dbt-incremental-unique-key (S21 c, d)

/*
 * S21's retry (try 1 committed, then failed) under dbt's incremental materialization:
 * - no unique_key: "append-only behavior": 20 rows, 1,100, dup 10.
 * - unique_key='event_id' (merge): the old rows are replaced: 10 rows, 550.
 * - insert_overwrite: the partition is replaced: 10 rows, 550.
 */
const dbtIncrementalUniqueKey: BatchPreset = {
  id: 'dbt-incremental-unique-key',
  title: 'dbt incremental with and without unique_key',
  group: 'batch',
  oneLine: 'Without unique_key, an incremental model appends whatever its run selects again.',
  illustrates: 'at-least-once',
  setup:
    'A dbt incremental model selects the 10 events of 2024-03-10 (where dt = \'{{ var("ds") }}\') with no unique_key. Its 1st run writes them and then fails, and the orchestrator runs it again (retries=1).',
  story:
    'A model that had always run once per day was retried after a warehouse timeout. Without a unique_key dbt appended the same day again and the daily revenue doubled.',
  watch: 'Try 2 writing the same 10 events as new rows.',
  fix: "Try: unique_key='event_id' (merge) or the insert_overwrite strategy → 10 rows.",
  predict: {
    question: 'How many duplicates does the retry leave?',
    answer: '10: without unique_key the incremental run appends all 10 rows again.',
    mark: { kind: 'numbers', values: [{ value: 10, what: 'duplicates' }] },
    needs: ['10 events of 2024-03-10', 'no unique_key', 'writes them and then fails', 'retries=1'],
  },
  sources: sourceUrls('DBT-INC', 'AF-BP'),
  variants: [
    batchVariant(
      'no-unique-key',
      'no unique_key',
      'append-only',
      'dbt incremental — no unique_key',
      retryJob({ mode: 'dbt-incremental', uniqueKey: false }),
      TEN_TWICE,
    ),
    batchVariant(
      'unique-key',
      "unique_key='event_id'",
      'the old rows are replaced',
      'dbt incremental — unique_key',
      retryJob({ mode: 'dbt-incremental', uniqueKey: true }),
      TEN_ONCE,
    ),
    batchVariant(
      'insert-overwrite',
      'insert_overwrite',
      'the partition is replaced',
      'dbt incremental — insert_overwrite',
      retryJob({ mode: 'dbt-incremental', strategy: 'insert_overwrite' }),
      TEN_ONCE,
    ),
  ],
};

export type { BatchPreset } from './batchHelpers';

/** The batch presets, in the order (ids are part of the contract). */
export const batchPresets: readonly BatchPreset[] = [
  airflowRetryAppend,
  clearRerunWindow,
  backfillBesideProduction,
  dbtIncrementalUniqueKey,
  dedupePresets.redisClaimOrder,
  dedupePresets.dedupeTtlExpired,
  dedupePresets.contentKeyFalseMerge,
];

/**
 * A batch preset by `id` (its default variant: the one its question is about,
 * src/scenarios/defaultVariant.ts) or `id/variant`, or null.
 */
export function findBatchPreset(
  ref: string,
): { preset: BatchPreset; variant: BatchPreset['variants'][number] } | null {
  const [pid, vid] = ref.split('/');
  const preset = batchPresets.find((p) => p.id === pid);
  const variant = preset && variantOfRef(preset.variants, vid, preset.predict.variant);
  return preset && variant ? { preset, variant } : null;
}
