/**
 * Library presets of dedupe stores in front of a batch job's write (docs/semantics/batch.md#dedupe-stores):
 * the order of claim and write, a TTL shorter than the replay, and a dedupe key coarser than the
 * event. `expect` derived by hand above each preset.
 */
import type { BatchInput } from '../../engine';
import { each, ids } from './helpers';
import { sourceUrls } from './sources';
import { DAY, batchVariant, tenOn, TEN_ONCE, TEN_TWICE, type BatchPreset } from './batchHelpers';

// ------------------------------------------------------------------ redis-claim-order

/*
 * e1..e10 of 2024-03-10, appended one row at a time behind a dedupe store, retries=1. Try 1
 * crashes after 4 rows, between the two steps of e5.
 * - claim then write (Redis SET NX EX): e5 was claimed, not written; try 2 skips e1..e5 (claimed)
 *   and writes e6..e10: 9 rows, sum 500, e5 lost.
 * - write then claim: e5 was written, not claimed; try 2 skips e1..e4 and writes e5..e10: 11 rows,
 *   sum 600, e5 twice.
 * - one transaction (dedupe table in the sink's database): e5 neither; try 2 writes e5..e10:
 *   10 rows, 550.
 */
const claimJob = (
  store: 'redis' | 'table',
  order: NonNullable<BatchInput['dedupe']>['order'],
): BatchInput => ({
  task: { retries: 1 },
  write: { mode: 'append' },
  dedupe: { store, order },
  source: tenOn('2024-03-10'),
  faults: [{ logicalDate: 0, point: 'mid-write', afterRows: 4 }],
});
const redisClaimOrder: BatchPreset = {
  id: 'redis-claim-order',
  title: 'Redis SET NX: claim before the write, or after it',
  group: 'batch',
  oneLine:
    'A dedupe key kept apart from the write loses or duplicates the event caught between the two.',
  illustrates: 'at-most-once',
  setup:
    'A job writes 10 events, e1..e10, one row at a time. Before each row it claims SET dedupe:{event_id} 1 NX EX 86400 in Redis and skips the row if the key exists. The task crashes after 4 rows, between the claim of e5 and its write; retries=1 runs it again.',
  story:
    'A team put a Redis dedupe key in front of their warehouse load to make retries safe. The claim and the insert were two systems; a crash between them left a key with no row, and the retry obediently skipped that event forever.',
  watch: 'The claim of e5 without its row, then try 2 skipping e5.',
  fix: 'Try: a dedupe table written in the same transaction as the row (order one-transaction) → 10 rows.',
  predict: {
    question: 'Which events are missing from the table after the retry?',
    answer: 'e5: its key was claimed before the crash, so the retry skipped it.',
    mark: { kind: 'events', ids: ['e5'] },
    needs: [
      '10 events, e1..e10',
      'SET dedupe:{event_id} 1 NX EX 86400',
      'after 4 rows, between the claim of e5 and its write',
      'retries=1',
    ],
  },
  sources: sourceUrls('R-SET', 'K-DES'),
  variants: [
    batchVariant(
      'claim-then-write',
      'claim, then write',
      'a crash between them loses the event',
      'Dedupe store — claim then write',
      claimJob('redis', 'claim-then-write'),
      {
        totals: { rows: 9, duplicates: 0, lost: 1, sum: 500 },
        rows: { e4: 1, e5: 0, e6: 1 },
        observed: 'at-most-once',
      },
    ),
    batchVariant(
      'write-then-claim',
      'write, then claim',
      'a crash between them duplicates the event',
      'Dedupe store — write then claim',
      claimJob('redis', 'write-then-claim'),
      {
        totals: { rows: 11, duplicates: 1, lost: 0, sum: 600 },
        rows: { e4: 1, e5: 2, e6: 1 },
        observed: 'at-least-once',
      },
    ),
    batchVariant(
      'one-transaction',
      'one transaction',
      'a dedupe table in the same transaction as the row: neither or both',
      'Dedupe store — one transaction',
      claimJob('table', 'one-transaction'),
      {
        totals: { rows: 10, duplicates: 0, lost: 0, sum: 550 },
        rows: each(ids(1, 10), 1),
        observed: 'exactly-once',
      },
    ),
  ],
};

// ------------------------------------------------------------------ dedupe-ttl-expired

/*
 * The run of 2024-03-10 writes e1..e10 at 03-11 00:01, claiming each key with EX = the TTL.
 * 2024-03-10 is cleared and re-run at 03-13 00:00, two days later.
 * - TTL 1 day: every key expired at 03-12 00:01; the re-run writes all ten again: 20 rows, 1,100.
 * - TTL 7 days: every key is still there; the re-run skips all ten: 10 rows, 550.
 */
const ttlJob = (ttlMs: number): BatchInput => ({
  write: { mode: 'append' },
  dedupe: { store: 'redis', ttlMs, order: 'claim-then-write' },
  source: tenOn('2024-03-10'),
  clears: [{ logicalDate: 0, atMs: 3 * DAY }],
});
const dedupeTtlExpired: BatchPreset = {
  id: 'dedupe-ttl-expired',
  title: 'The dedupe key expired before the replay',
  group: 'batch',
  oneLine: 'A dedupe memory shorter than the replay is no dedupe at all.',
  illustrates: 'at-least-once',
  setup:
    'A job appends 10 events, e1..e10, behind Redis SET dedupe:{event_id} 1 NX EX 86400 (a 1-day TTL); it loads 2024-03-10 at 00:01 on 2024-03-11. Two days later, at 00:00 on 2024-03-13, the day is cleared and re-run.',
  story:
    'A replay from retention came two days after the original load. The dedupe keys had a one-day TTL, so nothing remembered the events and every one was loaded again.',
  watch: 'The re-run claiming keys that expired a day earlier.',
  fix: 'Try: dedupe.ttlMs 604800000 (7 days, longer than any replay) → 10 rows.',
  predict: {
    question: 'How many rows does the table hold after the re-run?',
    answer: '20: the keys had expired after one day, so the re-run claimed and wrote all 10 again.',
    mark: { kind: 'numbers', values: [{ value: 20, what: 'rows', units: ['rows', 'row'] }] },
    needs: ['10 events, e1..e10', 'EX 86400 (a 1-day TTL)', 'Two days later'],
  },
  sources: sourceUrls('R-SET', 'AF-DR'),
  variants: [
    batchVariant(
      'ttl-1-day',
      'TTL 1 day',
      'the keys are gone before the replay',
      'Dedupe TTL — 1 day',
      ttlJob(DAY),
      TEN_TWICE,
    ),
    batchVariant(
      'ttl-7-days',
      'TTL 7 days',
      'the keys outlive the replay',
      'Dedupe TTL — 7 days',
      ttlJob(7 * DAY),
      TEN_ONCE,
    ),
  ],
};

// ------------------------------------------------------------------ content-key-false-merge

/*
 * p1 and p2 are two real purchases: 09:15, user u1, tea, 5; p3 is 09:20, u2, tea, 5; p4 09:30,
 * u1, cake, 8. One run, no fault.
 * - dedupe store keyed on (time, user, item, amount): p2 finds p1's key and is skipped: 3 rows,
 *   sum 18, p2 lost (a false merge).
 * - MERGE on the same tuple: DISTINCT ON keeps p1 and drops p2: 3 rows, 18.
 * - keyed on the event id: 4 rows, 23.
 */
const purchases = [
  { id: 'p1', date: '2024-03-10', time: '09:15', user: 'u1', item: 'tea', amount: 5 },
  { id: 'p2', date: '2024-03-10', time: '09:15', user: 'u1', item: 'tea', amount: 5 },
  { id: 'p3', date: '2024-03-10', time: '09:20', user: 'u2', item: 'tea', amount: 5 },
  { id: 'p4', date: '2024-03-10', time: '09:30', user: 'u1', item: 'cake', amount: 8 },
];
const CONTENT = ['time', 'user', 'item', 'amount'] as const;
const contentKeyFalseMerge: BatchPreset = {
  id: 'content-key-false-merge',
  title: 'Dedupe on event time plus payload merges two real events',
  group: 'batch',
  oneLine: 'A dedupe key coarser than the event id takes a second real purchase for a copy.',
  illustrates: 'at-most-once',
  setup:
    'A job loads 4 purchases of 2024-03-10: p1 and p2 (both 09:15, user u1, tea, 5), p3 (09:20, u2, tea, 5) and p4 (09:30, u1, cake, 8). It dedupes on (event time, user, item, amount) with Redis SET NX before each row.',
  story:
    'A user bought two teas in the same second. The pipeline deduped on event time plus payload — there was no event id upstream — and the second purchase disappeared from revenue, with no error anywhere.',
  watch: 'p2 skipped because p1 holds the same key.',
  fix: 'Try: dedupeKey event-id → 4 rows.',
  predict: {
    question: 'Which purchases are missing from the table?',
    answer:
      'p2: it has the same time, user, item and amount as p1, so the dedupe took it for a copy.',
    mark: { kind: 'events', ids: ['p2'] },
    needs: ['p1 and p2 (both 09:15, user u1, tea, 5)', '(event time, user, item, amount)'],
  },
  sources: sourceUrls('R-SET', 'PG-MRG'),
  variants: [
    batchVariant(
      'content-key-store',
      'content key, dedupe store',
      'p2 is skipped as a copy of p1',
      'Content-key dedupe — store',
      { source: purchases, dedupeKey: [...CONTENT], dedupe: { store: 'redis' } },
      {
        totals: { rows: 3, duplicates: 0, lost: 1, sum: 18 },
        rows: { p1: 1, p2: 0, p3: 1, p4: 1 },
        observed: 'at-most-once',
      },
    ),
    batchVariant(
      'content-key-merge',
      'content key, MERGE',
      'DISTINCT ON the key keeps p1 only',
      'Content-key dedupe — MERGE',
      { source: purchases, dedupeKey: [...CONTENT], write: { mode: 'merge' } },
      {
        totals: { rows: 3, duplicates: 0, lost: 1, sum: 18 },
        rows: { p1: 1, p2: 0, p3: 1, p4: 1 },
        observed: 'at-most-once',
      },
    ),
    batchVariant(
      'event-id',
      'event id key',
      'both purchases kept',
      'Content-key dedupe — event id',
      { source: purchases, dedupe: { store: 'redis' } },
      { totals: { rows: 4, duplicates: 0, lost: 0, sum: 23 }, observed: 'exactly-once' },
    ),
  ],
};

export const dedupePresets = { redisClaimOrder, dedupeTtlExpired, contentKeyFalseMerge };
