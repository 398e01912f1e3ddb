/**
 * The batch job, with counts derived by hand from the documented rules (docs/semantics/batch.md):
 * Airflow retries, clears and backfills re-run a task
 * (https://airflow.apache.org/docs/apache-airflow/stable/best-practices.html#creating-a-task,
 * https://airflow.apache.org/docs/apache-airflow/stable/core-concepts/dag-run.html); an append
 * adds rows again, an overwrite replaces the partition, MERGE / dbt `unique_key` updates the row
 * (https://docs.getdbt.com/docs/build/incremental-models).
 *
 * Time: virtual 0 is midnight of 2024-03-10 (logical date 0); the run of date d starts at
 * (d+1)·24 h, reads for 60 s (`readMs`), then writes one row per second (`rowMs`).
 */
import { describe, expect, it } from 'vitest';
import { BatchSchema, type BatchInput } from './schema';
import { simulateBatch } from './simulateBatch';
import { checkBatch, rowsPerEvent } from './checker';
import {
  batchFaultsNeverFired,
  explainBatch,
  neverFiredWords,
  windowWords,
} from '../explain/batch';
import { DAY_MS, HOUR_MS, dateOf, dayNumber } from './calendar';
import { applyBatchGuarantee } from './guarantee';

const tenOn = (date: string, prefix = 'e') =>
  Array.from({ length: 10 }, (_, i) => ({ id: `${prefix}${i + 1}`, date, amount: 10 * (i + 1) }));

function run(input: BatchInput) {
  const r = simulateBatch(BatchSchema.parse(input));
  const v = checkBatch(r, 'exactly-once');
  return { r, v, t: v.totals, rows: rowsPerEvent(v), why: explainBatch(r, v) };
}

/** S21: attempt 1 writes e1..e10 and commits, then fails its post-load check; retries=1. */
const s21 = (write: BatchInput['write']): BatchInput => ({
  task: { retries: 1 },
  write,
  source: tenOn('2024-03-10'),
  faults: [{ logicalDate: 0, tryNumber: 1, point: 'after-write' }],
});

describe('calendar', () => {
  it('turns dates into day numbers and back without Date', () => {
    expect(dayNumber('1970-01-01')).toBe(0);
    expect(dayNumber('2024-03-10')).toBe(19792); // 54 years incl. 13 leap days: 54·365+13+69
    expect(dateOf(dayNumber('2024-02-29') + 1)).toBe('2024-03-01');
  });
});

describe('S21: a retried task after its write committed', () => {
  it('append INSERT: every event twice (20 rows, sum 1,100, 10 duplicates)', () => {
    const { t, v } = run(s21({ mode: 'append' }));
    expect(t).toMatchObject({ rows: 20, observedSum: 1100, duplicates: 10, lost: 0 });
    expect(v.observed).toBe('at-least-once');
  });
  it('INSERT OVERWRITE of the logical date: 10 rows, 550', () => {
    const { t, v } = run(s21({ mode: 'overwrite-partition' }));
    expect(t).toMatchObject({ rows: 10, observedSum: 550, duplicates: 0, lost: 0 });
    expect(v.observed).toBe('exactly-once');
  });
  it('dbt incremental without unique_key appends (20 rows); with unique_key merges (10)', () => {
    expect(run(s21({ mode: 'dbt-incremental', uniqueKey: false })).t.rows).toBe(20);
    expect(run(s21({ mode: 'dbt-incremental', uniqueKey: true })).t.rows).toBe(10);
    expect(
      run(s21({ mode: 'dbt-incremental', uniqueKey: true, strategy: 'delete+insert' })).t.rows,
    ).toBe(10);
  });
  it('a backfill of the date days later, after a success: append 20, overwrite 10', () => {
    const backfill = (mode: 'append' | 'overwrite-partition') =>
      run({
        write: { mode },
        source: tenOn('2024-03-10'),
        backfills: [{ from: 0, to: 0, atMs: 5 * DAY_MS }],
      }).t.rows;
    expect(backfill('append')).toBe(20);
    expect(backfill('overwrite-partition')).toBe(10);
  });
  it('a backfill creates no run of a date whose run is still running or waiting to retry', () => {
    // Airflow: "If the latest run is still running or is queued, we do not create another run"
    // (https://airflow.apache.org/docs/apache-airflow/stable/core-concepts/backfill.html).
    // The scheduled run of 2024-03-10 starts at 24 h; try 1 crashes before its write at
    // 24 h + 60 s and waits 5 min for try 2 (retries=1): the run is running until 24 h + 430 s.
    const job = (atMs: number) =>
      run({
        task: { retries: 1 },
        source: tenOn('2024-03-10'),
        faults: [{ logicalDate: 0, tryNumber: 1, point: 'before-write' }],
        backfills: [{ from: 0, to: 0, atMs }],
      }).r;
    // At 24 h + 120 s (between the tries): skipped — one run, 10 rows.
    const during = job(DAY_MS + 120_000);
    expect(during.runs.map((x) => x.kind)).toEqual(['scheduled']);
    expect(during.trace.filter((e) => e.kind === 'backfill-skipped')).toEqual([
      { at: DAY_MS + 120_000, kind: 'backfill-skipped', run: 0, attempt: -1 },
    ]);
    expect(during.table.rows).toHaveLength(10);
    // At 24 h + 1 h, after try 2's success: a backfill run appends the day again, 20 rows.
    const after = job(DAY_MS + HOUR_MS);
    expect(after.runs.map((x) => x.kind)).toEqual(['scheduled', 'backfill']);
    expect(after.table.rows).toHaveLength(20);
  });
  it('the retry is try 2 of the date, 5 minutes (retry_delay) after the crash', () => {
    const { r } = run(s21({ mode: 'append' }));
    // Try 1 starts at 24 h, writes 10 rows by 24 h + 70 s; try 2 at 24 h + 70 s + 300 s.
    expect(r.attempts.map((a) => [a.tryNumber, a.startAt])).toEqual([
      [1, DAY_MS],
      [2, DAY_MS + 70_000 + 300_000],
    ]);
  });
});

/**
 * Clear and re-run logical date 0 (2024-03-10) at 2024-03-13 01:00: a pinned window reads
 * 2024-03-10 again; a clock window reads current_date() - 1 = 2024-03-12, whose events f1, f2
 * the run of date 2 already wrote into their own partition.
 */
describe('clear and re-run: clock window vs pinned window', () => {
  const source = [
    { id: 'e1', date: '2024-03-10', amount: 10 },
    { id: 'e2', date: '2024-03-10', amount: 20 },
    { id: 'e3', date: '2024-03-10', amount: 30 },
    { id: 'f1', date: '2024-03-12', amount: 100 },
    { id: 'f2', date: '2024-03-12', amount: 200 },
  ];
  const rerun = (window: 'pinned' | 'clock', mode: 'append' | 'overwrite-partition') =>
    run({
      periods: 3,
      window,
      write: { mode },
      source,
      clears: [{ logicalDate: 0, atMs: 3 * DAY_MS + HOUR_MS }],
    });

  it('clock window + overwrite: e1..e3 overwritten (lost), f1, f2 twice, once under the wrong partition', () => {
    const { t, v, rows, why } = rerun('clock', 'overwrite-partition');
    // Partition 03-10 now holds f1, f2; 03-12 holds f1, f2: 4 rows.
    expect(t).toMatchObject({ rows: 4, lost: 3, duplicates: 2, wrongPartitionRows: 2 });
    expect(rows).toEqual({ e1: 0, e2: 0, e3: 0, f1: 2, f2: 2 });
    expect(v.events.map((e) => e.fate)).toEqual([
      'lost',
      'lost',
      'lost',
      'duplicated',
      'duplicated',
    ]);
    expect(v.observed).toBe('none');
    expect(why.find((w) => w.fate === 'lost')!.sentence).toContain(
      'current_date() - 1 = 2024-03-12',
    );
    expect(why.find((w) => w.fate === 'duplicated')!.sentence).toContain(
      'under the wrong partition',
    );
  });
  it('clock window + append: e1..e3 once, f1, f2 twice (7 rows)', () => {
    const { t, rows } = rerun('clock', 'append');
    expect(t).toMatchObject({ rows: 7, lost: 0, duplicates: 2, wrongPartitionRows: 2 });
    expect(rows).toEqual({ e1: 1, e2: 1, e3: 1, f1: 2, f2: 2 });
  });
  it('pinned window: overwrite exact (5 rows); append doubles e1..e3 (8 rows)', () => {
    expect(rerun('pinned', 'overwrite-partition').t).toMatchObject({
      rows: 5,
      lost: 0,
      duplicates: 0,
    });
    expect(rerun('pinned', 'append').rows).toEqual({ e1: 2, e2: 2, e3: 2, f1: 1, f2: 1 });
  });
});

describe('wrong partition', () => {
  it('catchup with a clock target partition: dates 0 and 1 land under 2024-03-12', () => {
    // Deployed at 03-13 01:00 with catchup: runs of dates 0, 1, 2 all start then; each reads its
    // own date (pinned) but writes into current_date() - 1 = 2024-03-12.
    const { v, t } = run({
      periods: 3,
      deployedAtMs: 3 * DAY_MS + HOUR_MS,
      write: { mode: 'append', partitionBy: 'clock' },
      source: [
        { id: 'a', date: '2024-03-10' },
        { id: 'b', date: '2024-03-11' },
        { id: 'c', date: '2024-03-12' },
      ],
    });
    expect(v.events.map((e) => e.fate)).toEqual(['wrong-partition', 'wrong-partition', 'once']);
    expect(t).toMatchObject({ rows: 3, lost: 2, wrongPartitionRows: 2, duplicates: 0 });
  });
  it('no catchup: only the latest completed interval runs', () => {
    const { r } = run({
      periods: 3,
      catchup: false,
      deployedAtMs: 3 * DAY_MS + HOUR_MS,
      source: tenOn('2024-03-10'),
    });
    expect(r.runs.map((x) => x.logicalDate)).toEqual([2]);
  });
  it('a date no run has is said so: catchup off, or no logical date of the job', () => {
    // Switched on at 2024-03-13 01:00 without catchup: only 2024-03-12 (the latest completed
    // interval) runs, then the schedule; 2024-03-10 is before it, 2024-03-20 past periods 3.
    const { why } = run({
      periods: 3,
      catchup: false,
      deployedAtMs: 3 * DAY_MS + HOUR_MS,
      source: [
        { id: 'a1', date: '2024-03-10' },
        { id: 'c1', date: '2024-03-12' },
        { id: 'z1', date: '2024-03-20' },
      ],
    });
    expect(why.map((w) => w.sentence)).toEqual([
      'No attempt read a1 (dated 2024-03-10): no run of 2024-03-10 was made — catchup is off and the DAG was switched on at 2024-03-13 01:00, so its runs start with the latest completed interval, 2024-03-12.',
      'No attempt read z1 (dated 2024-03-20): the job has no logical date 2024-03-20 — periods 3 gives 2024-03-10 to 2024-03-12.',
    ]);
  });
});

describe('a crash mid-write after 4 rows, then a retry', () => {
  const mid = (write: BatchInput['write'], retries = 1) =>
    run({
      task: { retries },
      write,
      source: tenOn('2024-03-10'),
      faults: [{ logicalDate: 0, point: 'mid-write', afterRows: 4 }],
    });
  it('non-atomic append: e1..e4 twice (14 rows), the partial write said so', () => {
    const { t, rows, why } = mid({ mode: 'append', atomic: false });
    expect(t).toMatchObject({ rows: 14, duplicates: 4 });
    expect(rows.e4).toBe(2);
    expect(rows.e5).toBe(1);
    // e1..e4 were committed by try 1 before it crashed; the retry appended the whole day again.
    expect(why).toHaveLength(1);
    expect(why[0]!.events).toEqual(['e1', 'e2', 'e3', 'e4']);
    expect(why[0]!.sentence).toMatch(
      /: an append INSERT adds its rows again on every attempt; try 1 crashed mid-write, its rows committed one by one \(write\.atomic false\), e1 among them\.$/,
    );
  });
  it('atomic append: the crash rolls the write back, the retry writes it once (10 rows)', () => {
    expect(mid({ mode: 'append', atomic: true }).t).toMatchObject({ rows: 10, duplicates: 0 });
  });
  it('DELETE then INSERT not in one transaction: exact after the retry, 4 rows and 6 lost without it', () => {
    expect(mid({ mode: 'overwrite-partition', as: 'delete-insert', atomic: false }).t.rows).toBe(
      10,
    );
    expect(
      mid({ mode: 'overwrite-partition', as: 'delete-insert', atomic: false }, 0).t,
    ).toMatchObject({ rows: 4, lost: 6 });
  });
  it('before-write crash and no retry: nothing written, and the story says so', () => {
    const { t, why } = run({
      source: tenOn('2024-03-10'),
      faults: [{ logicalDate: 0, point: 'before-write' }],
    });
    expect(t).toMatchObject({ rows: 0, lost: 10 });
    expect(why[0]!.sentence).toContain('no retry was left');
  });
});

describe('a dedupe store in front of one batched write (dedupe.write: batch)', () => {
  // e1..e10 (Σ 550), retries=1; try 1 crashes mid-write after 4 rows. Every row is claimed (Redis
  // SET NX, https://redis.io/docs/latest/commands/set/; or checked) first, then one INSERT writes
  // the rows whose claim succeeded.
  const batched = (order: 'claim-then-write' | 'write-then-claim' | 'one-transaction') =>
    run({
      task: { retries: 1 },
      write: { mode: 'append' },
      dedupe: { store: order === 'one-transaction' ? 'table' : 'redis', order, write: 'batch' },
      source: tenOn('2024-03-10'),
      faults: [{ logicalDate: 0, point: 'mid-write', afterRows: 4 }],
    });
  it('claim then write: the crash after 4 claims loses all four (the retry skips them)', () => {
    // Try 1 claimed e1..e4 and wrote nothing; try 2 skips e1..e4, writes e5..e10: 6 rows,
    // 550 − 100 = 450 (row by row, only e5 is lost: redis-claim-order).
    const { t, rows } = batched('claim-then-write');
    expect(t).toMatchObject({ rows: 6, lost: 4, duplicates: 0, observedSum: 450 });
    expect([rows.e4, rows.e5]).toEqual([0, 1]);
  });
  it('write then claim: the write committed, 4 claims made; the retry writes e5..e10 again', () => {
    // 10 + 6 = 16 rows, 6 duplicates, 550 + (50 + … + 100 = 450) = 1,000.
    const { t, rows } = batched('write-then-claim');
    expect(t).toMatchObject({ rows: 16, lost: 0, duplicates: 6, observedSum: 1000 });
    expect([rows.e4, rows.e5]).toEqual([1, 2]);
  });
  it('one transaction: the claims and the rows roll back together; the retry writes all 10', () => {
    expect(batched('one-transaction').t).toMatchObject({ rows: 10, lost: 0, duplicates: 0 });
  });
  it('two rows with one key in the same batch: the second is skipped as the first claim holds it', () => {
    // The content key (user, item, amount) of p1 and p2 is the same: claim then write claims
    // p1's key before the write, so p2 finds it (a false merge), as row by row.
    const same = { date: '2024-03-10', user: 'u1', item: 'tea', amount: 5 };
    const { t } = run({
      dedupeKey: ['user', 'item', 'amount'],
      dedupe: { store: 'redis', write: 'batch' },
      source: [
        { id: 'p1', ...same },
        { id: 'p2', ...same },
      ],
    });
    expect(t).toMatchObject({ rows: 1, lost: 1, falseMerges: 1 });
  });
});

describe('late-arriving rows', () => {
  // e11 lands at 03-11 02:00, after the run of 03-10 read at 03-11 00:00.
  const source = [
    ...tenOn('2024-03-10'),
    { id: 'e11', date: '2024-03-10', amount: 110, addedAtMs: DAY_MS + 2 * HOUR_MS },
  ];
  it('are missed by the scheduled run (lost), and caught by a pinned overwrite re-run', () => {
    const missed = run({ write: { mode: 'overwrite-partition' }, source });
    expect(missed.rows.e11).toBe(0);
    expect(missed.why[0]!.sentence).toContain('late-arriving');
    const rerun = run({
      write: { mode: 'overwrite-partition' },
      source,
      clears: [{ logicalDate: 0, atMs: DAY_MS + 3 * HOUR_MS }],
    });
    expect(rerun.t).toMatchObject({ rows: 11, lost: 0, duplicates: 0 });
  });
});

describe('a clear while its date runs: Airflow kills the running try (docs/semantics/batch.md#the-scheduler)', () => {
  const three = tenOn('2024-03-10').slice(0, 3);
  const entries = (r: ReturnType<typeof run>['r'], kind: string) =>
    r.trace.filter((e) => e.kind === kind).map(({ at, run: id, attempt }) => ({ at, id, attempt }));

  it('a row-by-row append cleared after its first row: that row stays, the re-run writes all three', () => {
    // Try 1 reads at 03-11 00:00, writes e1 at +61 s (its own commit); the clear at +61.5 s
    // kills it before e2. Try 2 reads e1..e3 at once and writes them at +121.5 s … +123.5 s.
    const { r, t, rows } = run({
      periods: 3,
      write: { mode: 'append', atomic: false },
      source: three,
      clears: [{ logicalDate: 0, atMs: DAY_MS + 61_500 }],
    });
    expect(t).toMatchObject({ rows: 4, duplicates: 1, lost: 0 });
    expect(rows).toEqual({ e1: 2, e2: 1, e3: 1 });
    expect(r.attempts[0]).toMatchObject({ outcome: 'killed', endAt: DAY_MS + 61_500 });
    expect(r.runs[0]!.state).toBe('cleared');
    expect(entries(r, 'run-cleared')).toEqual([{ at: DAY_MS + 61_500, id: 0, attempt: 0 }]);
    // try_number goes on counting: the clear's try is the date's second.
    const again = r.runs.find((x) => x.kind === 'clear')!;
    expect(again.attempts.map((a) => r.attempts[a]!.tryNumber)).toEqual([2]);
  });

  it('claim and write in one transaction, cleared as it starts: the killed try rolls back, no row twice', () => {
    // FC_SEED=random found it: the clear at the run's own start let both tries write at once;
    // each claimed e1 in its own open transaction and the re-run inserted it again (3 rows).
    const { r, t } = run({
      periods: 3,
      task: { retries: 20, retryDelayMs: 60_000 },
      source: three.slice(0, 2),
      dedupe: { store: 'table', order: 'one-transaction', ttlMs: 7 * DAY_MS, write: 'batch' },
      clears: [{ logicalDate: 0, atMs: DAY_MS }],
    });
    expect(t).toMatchObject({ rows: 2, duplicates: 0, lost: 0 });
    expect(r.attempts[0]).toMatchObject({ outcome: 'killed', endAt: DAY_MS });
    expect(entries(r, 'statement').filter((e) => e.attempt === 0)).toEqual([]);
  });

  it('cleared while its retry waits: the retry never runs, the clear runs the date once', () => {
    // Try 1 crashes before its write at +60 s; its retry would start 300 s later (+360 s). The
    // clear at +100 s ends the run: its try 2 writes the three rows, and there is no try 3.
    const { r, t } = run({
      periods: 3,
      task: { retries: 1 },
      write: { mode: 'append' },
      source: three,
      faults: [{ logicalDate: 0, tryNumber: 1, point: 'before-write' }],
      clears: [{ logicalDate: 0, atMs: DAY_MS + 100_000 }],
    });
    expect(t).toMatchObject({ rows: 3, duplicates: 0, lost: 0 });
    const date0 = r.attempts.filter((a) => r.runs[a.run]!.logicalDate === 0);
    expect(date0.map((a) => [a.tryNumber, a.outcome, a.startAt - DAY_MS])).toEqual([
      [1, 'crashed', 0],
      [2, 'success', 100_000],
    ]);
    expect(entries(r, 'run-cleared')).toEqual([{ at: DAY_MS + 100_000, id: 0, attempt: -1 }]);
  });

  it('a fault on the killed try never fires, and the report says the clear came first', () => {
    const { r } = run({
      periods: 3,
      write: { mode: 'append' },
      source: three,
      faults: [{ logicalDate: 0, tryNumber: 1, point: 'mid-write', afterRows: 2 }],
      clears: [{ logicalDate: 0, atMs: DAY_MS + 30_000 }],
    });
    expect(batchFaultsNeverFired(r).map(neverFiredWords)).toEqual([
      'fault 0, mid-write after 2 rows on try 1 of 2024-03-10, never fired: a clear of 2024-03-10 killed that try at 2024-03-11 00:00, before it',
    ]);
  });
});

describe('concurrent tries claiming the same keys in one transaction (docs/semantics/batch.md#dedupe-stores)', () => {
  // Switched on at 03-13 01:00 with catch-up, the runs of 03-10, 03-11 and 03-12 all start then
  // and, reading the clock's day (current_date() - 1 = 03-12), read the same e1, e2. Each claims
  // row by row in its own transaction (+61 s e1, +62 s e2) and writes at +62 s.
  const T = 3 * DAY_MS + HOUR_MS;
  const catchUp = (clears: BatchInput['clears'] = []) =>
    run({
      periods: 3,
      catchup: true,
      deployedAtMs: T,
      window: 'clock',
      source: [
        { id: 'e1', date: '2024-03-12', amount: 10 },
        { id: 'e2', date: '2024-03-12', amount: 20 },
      ],
      dedupe: { store: 'table', order: 'one-transaction', ttlMs: 7 * DAY_MS, write: 'batch' },
      clears,
    });
  const at = (r: ReturnType<typeof run>['r'], kind: string) =>
    r.trace
      .filter((e) => e.kind === kind)
      .map((e) => [e.at - T, e.attempt, ...(e.events ?? []), e.heldBy ?? '']);

  it('the second and third wait for the first claim of e1, then find both keys claimed: each event once', () => {
    // Before, each transaction saw only its own claim rows: all three wrote e1, e2 (6 rows).
    const { r, t } = catchUp();
    expect(t).toMatchObject({ rows: 2, duplicates: 0 });
    expect(at(r, 'claim-wait')).toEqual([
      [61_000, 1, 'e1'],
      [61_000, 2, 'e1'],
    ]);
    // The first commits at +62 s; the waiters go on 1 s late: e1 at +62 s, e2 at +63 s.
    expect(at(r, 'claim-skipped')).toEqual([
      [62_000, 1, 'e1', 'e1'],
      [62_000, 2, 'e1', 'e1'],
      [63_000, 1, 'e2', 'e2'],
      [63_000, 2, 'e2', 'e2'],
    ]);
    expect(r.attempts.map((a) => a.endAt - T)).toEqual([62_000, 63_000, 63_000]);
  });

  it('the holder killed by a clear rolls back: the next waiter claims and writes, the last skips', () => {
    // The clear of 03-10 at +61.5 s kills the first try, its claim row of e1 uncommitted: the
    // second goes on at once (0.5 s late) and claims e1, the third now waits for it; the second
    // commits e1, e2 at +62.5 s, the third skips both (+62.5 s, +63.5 s), and so does the clear's
    // re-run (it reads at +61.5 s, claims from +122.5 s).
    const { r, t } = catchUp([{ logicalDate: 0, atMs: T + 61_500 }]);
    expect(t).toMatchObject({ rows: 2, duplicates: 0 });
    expect(at(r, 'claim-wait')).toEqual([
      [61_000, 1, 'e1'],
      [61_000, 2, 'e1'],
      [61_500, 2, 'e1'],
    ]);
    expect(at(r, 'claim').map(([ms, attempt, id]) => [ms, attempt, id])).toEqual([
      [62_500, 1, 'e1'],
      [62_500, 1, 'e2'],
    ]);
    expect(r.attempts[0]!.outcome).toBe('killed');
  });

  it('two tries claiming two keys in opposite orders deadlock: the database fails one, its retry skips both', () => {
    // Keyed by amount, 03-10 holds x (10) then y (20), 03-11 y2 (20) then x2 (10); switched on
    // at 03-12 01:00, both runs start together. At +61 s each claims its first key; at +62 s the
    // first waits for the second's 20, and the second's 10 would wait for the first: a deadlock.
    // The second's statement fails, its transaction rolls back, and the first goes on at once.
    const D2 = 2 * DAY_MS + HOUR_MS;
    const { r, t } = run({
      periods: 2,
      catchup: true,
      deployedAtMs: D2,
      dedupeKey: ['amount'],
      task: { retries: 1, retryDelayMs: 60_000 },
      source: [
        { id: 'x', date: '2024-03-10', amount: 10 },
        { id: 'y', date: '2024-03-10', amount: 20 },
        { id: 'y2', date: '2024-03-11', amount: 20 },
        { id: 'x2', date: '2024-03-11', amount: 10 },
      ],
      dedupe: { store: 'table', order: 'one-transaction', ttlMs: 7 * DAY_MS, write: 'batch' },
    });
    expect(r.attempts.map((a) => [a.tryNumber, a.outcome, a.failure ?? '', a.endAt - D2])).toEqual([
      [1, 'success', '', 62_000],
      [1, 'crashed', 'deadlock detected (40P01)', 62_000],
      [2, 'success', '', 184_000],
    ]);
    // The retry (+122 s) finds both amounts claimed by x and y: two rows, x2 and y2 merged away.
    expect(t).toMatchObject({ rows: 2, duplicates: 0, falseMerges: 2 });
  });
});

describe('MERGE / dbt unique_key on a content tuple: a false merge', () => {
  // e1 and e2 are two real purchases with the same time, user, item and amount.
  const source = [
    { id: 'e1', date: '2024-03-10', time: '09:15', user: 'u1', item: 'tea', amount: 5 },
    { id: 'e2', date: '2024-03-10', time: '09:15', user: 'u1', item: 'tea', amount: 5 },
    { id: 'e3', date: '2024-03-10', time: '09:20', user: 'u2', item: 'tea', amount: 5 },
  ];
  it('keyed on the content, e2 merges into e1 (false-merge); keyed on the id, all three are kept', () => {
    const content = run({
      write: { mode: 'merge' },
      dedupeKey: ['time', 'user', 'item', 'amount'],
      source,
    });
    expect(content.v.events.map((e) => e.fate)).toEqual(['once', 'false-merge', 'once']);
    expect(content.t).toMatchObject({ rows: 2, lost: 1, falseMerges: 1 });
    expect(content.why[0]!.sentence).toContain('e2 and e1 are two real events');
    expect(run({ write: { mode: 'merge' }, source }).t).toMatchObject({ rows: 3, lost: 0 });
  });
});

describe('a crash mid-write after more rows than the write has', () => {
  // The fault's condition never comes: the write of 3 rows commits before a 51st row, so the try
  // succeeds and the fault is flagged as never fired (docs/semantics/batch.md#faults: "a try the
  // date never reaches is no crash at all"). It crashed the try before its commit and, with no
  // retry, lost the day.
  const three = ['a1', 'a2', 'a3'].map((id) => ({ id, date: '2024-03-10' }));
  it('never fires: the write commits, the fault is listed with the rows the try wrote', () => {
    const { r, t } = run({
      source: three,
      faults: [{ logicalDate: 0, tryNumber: 1, point: 'mid-write', afterRows: 50 }],
    });
    expect(t).toMatchObject({ rows: 3, lost: 0, duplicates: 0 });
    expect(r.attempts.map((a) => a.outcome)).toEqual(['success']);
    expect(batchFaultsNeverFired(r).map(neverFiredWords)).toEqual([
      'fault 0, mid-write after 50 rows on try 1 of 2024-03-10, never fired: that try wrote 3 rows',
    ]);
  });
  it('after exactly the rows it has, an atomic write still dies before its commit', () => {
    const { t } = run({
      source: three,
      faults: [{ logicalDate: 0, tryNumber: 1, point: 'mid-write', afterRows: 3 }],
    });
    expect(t).toMatchObject({ rows: 0, lost: 3 });
  });
});

describe('dbt merge on a unique_key two events share', () => {
  // dbt's merge takes the new rows as they are (`merge into … using (new rows) on <unique_key>`):
  // while the target lacks the key both rows are inserted; once target rows have it, two new
  // rows matching one target row make the MERGE fail — PostgreSQL: "a target row shouldn't join
  // to more than one data source row … later attempts to modify the row will cause an error"
  // (21000, https://www.postgresql.org/docs/current/sql-merge.html). docs/semantics/batch.md#writes
  const dbtMerge = {
    mode: 'dbt-incremental' as const,
    uniqueKey: true,
    strategy: 'merge' as const,
  };
  const same = { date: '2024-03-10', time: '09:00', amount: 5 };
  const source = [
    { id: 'a1', ...same },
    { id: 'a2', ...same },
    { id: 'a3', date: '2024-03-10', time: '10:00', amount: 9 },
  ];
  it('the first run inserts both; its retry after the commit fails on every try, the table kept', () => {
    const { r, t, rows } = run({
      task: { retries: 1 },
      write: dbtMerge,
      dedupeKey: ['time', 'amount'],
      source,
      faults: [{ logicalDate: 0, tryNumber: 1, point: 'after-write' }],
    });
    // Try 1 commits a1, a2, a3 (3 rows), then its post-load check fails; try 2's MERGE matches
    // the a1 and a2 rows with both new rows: 21000, the try fails, no retry is left.
    expect(rows).toEqual({ a1: 1, a2: 1, a3: 1 });
    expect(t).toMatchObject({ rows: 3, duplicates: 0, lost: 0, falseMerges: 0 });
    expect(r.attempts.map((a) => [a.outcome, a.failure ?? null])).toEqual([
      ['crashed', null],
      [
        'crashed',
        'its MERGE matched one target row with 2 new rows (key time=09:00|amount=5): cardinality_violation (21000)',
      ],
    ]);
    expect(r.runs[0]!.state).toBe('failed');
  });
  it("a later day's two events on an earlier row's key: the MERGE fails, both lost, said so", () => {
    // x (2024-03-10) is inserted; 2024-03-11's y1 and y2 share its key: both match x's row.
    const tea = { user: 'u1', item: 'tea', amount: 5 };
    const { t, why, rows } = run({
      periods: 2,
      write: dbtMerge,
      dedupeKey: ['user', 'item', 'amount'],
      source: [
        { id: 'x', date: '2024-03-10', ...tea },
        { id: 'y1', date: '2024-03-11', ...tea },
        { id: 'y2', date: '2024-03-11', ...tea },
      ],
    });
    expect(rows).toEqual({ x: 1, y1: 0, y2: 0 });
    expect(t).toMatchObject({ rows: 1, lost: 2, falseMerges: 0 });
    expect(why.map((w) => [w.events, w.sentence])).toEqual([
      [
        ['y1', 'y2'],
        'y1 was read by try 1 of 2024-03-11 (the scheduled run, started 2024-03-12 00:00) but never committed: its MERGE matched one target row with 2 new rows (key user=u1|item=tea|amount=5): cardinality_violation (21000), and no retry was left.',
      ],
    ]);
  });
  it('write.mode merge keeps its DISTINCT ON: a2 is a false merge, as before', () => {
    const { t } = run({ write: { mode: 'merge' }, dedupeKey: ['time', 'amount'], source });
    expect(t).toMatchObject({ rows: 2, lost: 1, falseMerges: 1 });
  });
});

describe('dbt delete+insert on a content key', () => {
  // dbt's delete+insert runs `delete from target where (key) in (select distinct key from
  // source); insert into target select … from source` — the new rows are not deduplicated
  // (https://docs.getdbt.com/docs/build/incremental-strategy, docs/semantics/batch.md#writes).
  const dbtDeleteInsert = {
    mode: 'dbt-incremental' as const,
    uniqueKey: true,
    strategy: 'delete+insert' as const,
  };
  it('two real events with one key in the same run both keep their row, retried or not', () => {
    const same = { date: '2024-03-10', time: '09:00', amount: 5 };
    const { t, rows } = run({
      task: { retries: 1 },
      write: dbtDeleteInsert,
      dedupeKey: ['time', 'amount'],
      source: [
        { id: 'a1', ...same },
        { id: 'a2', ...same },
        { id: 'a3', date: '2024-03-10', time: '10:00', amount: 9 },
      ],
      faults: [{ logicalDate: 0, tryNumber: 1, point: 'after-write' }],
    });
    // Try 1 inserts a1, a2, a3; try 2 deletes both keys' rows (all 3) and inserts the 3 again.
    expect(t).toMatchObject({ rows: 3, duplicates: 0, lost: 0, falseMerges: 0, observedSum: 19 });
    expect(rows).toEqual({ a1: 1, a2: 1, a3: 1 });
  });
  it("a later day's event with the same key deletes the earlier one's row: a false merge", () => {
    const tea = { user: 'u1', item: 'tea', amount: 5 };
    const { v, t, why } = run({
      periods: 2,
      write: dbtDeleteInsert,
      dedupeKey: ['user', 'item', 'amount'],
      source: [
        { id: 'x', date: '2024-03-10', ...tea },
        { id: 'y', date: '2024-03-11', ...tea },
        { id: 'z', date: '2024-03-11', user: 'u2', item: 'tea', amount: 8 },
      ],
    });
    expect(t).toMatchObject({ rows: 2, lost: 1, falseMerges: 1, observedSum: 13 });
    expect(v.events.map((e) => [e.id, e.fate, e.mergedInto])).toEqual([
      ['x', 'false-merge', 'y'],
      ['y', 'once', null],
      ['z', 'once', null],
    ]);
    expect(why[0]!.sentence).toBe(
      "x and y are two real events with the same dedupe key (user=u1|item=tea|amount=5): delete+insert deleted x's row for y's, which has the same key. A key coarser than the event id merges distinct events.",
    );
  });
});

describe('determinism', () => {
  it('the same config gives the same trace hash; another fault another hash', () => {
    const a = run(s21({ mode: 'append' })).r.hash;
    expect(run(s21({ mode: 'append' })).r.hash).toBe(a);
    expect(run(s21({ mode: 'overwrite-partition' })).r.hash).not.toBe(a);
  });
});

describe('schema', () => {
  it('names the field of bad input', () => {
    const bad = BatchSchema.safeParse({ source: [{ id: 'x', date: '2024-3-1' }] });
    expect(bad.success).toBe(false);
    expect(bad.error!.issues[0]!.path).toEqual(['source', 0, 'date']);
    const twice = BatchSchema.safeParse({
      source: [
        { id: 'x', date: '2024-03-01' },
        { id: 'x', date: '2024-03-01' },
      ],
    });
    expect(twice.error!.issues[0]!.path).toEqual(['source', 1, 'id']);
    const split = BatchSchema.safeParse({
      write: { mode: 'overwrite-partition', atomic: false },
      source: [{ id: 'x', date: '2024-03-01' }],
    });
    expect(split.error!.issues[0]!.path).toEqual(['write', 'atomic']);
    // A day the month does not have was read as the next month's (2024-02-30 as 2024-03-01):
    // outside the job's dates, the row was silently never read.
    const feb30 = BatchSchema.safeParse({
      startDate: '2023-02-29',
      source: [{ id: 'x', date: '2024-02-30' }],
    });
    expect(feb30.error!.issues.map((i) => [i.path.join('.'), i.message])).toEqual([
      ['startDate', '2023-02-29 is no date: February 2023 has 28 days'],
      ['source.0.date', '2024-02-30 is no date: February 2024 has 29 days'],
    ]);
  });
});

describe('the guarantee switch on a batch job (docs/semantics/batch.md#the-guarantee-switch)', () => {
  const job = (point: 'before-write' | 'after-write') =>
    BatchSchema.parse({ source: tenOn('2024-03-10'), faults: [{ logicalDate: 0, point }] });
  const rowsUnder = (
    g: 'at-most-once' | 'at-least-once' | 'exactly-once',
    point: 'before-write' | 'after-write',
  ) => checkBatch(simulateBatch(applyBatchGuarantee(job(point), g)), g).totals.rows;
  it('at-most-once: no retry — a crash before the write loses the day (0 rows), after it 10', () => {
    expect(rowsUnder('at-most-once', 'before-write')).toBe(0);
    expect(rowsUnder('at-most-once', 'after-write')).toBe(10);
  });
  it('at-least-once: retried appends — 10 rows, or 20 after a crash past the commit', () => {
    expect(rowsUnder('at-least-once', 'before-write')).toBe(10);
    expect(rowsUnder('at-least-once', 'after-write')).toBe(20);
  });
  it('exactly-once: retried, pinned, overwrite of the logical date — 10 rows either way', () => {
    expect(rowsUnder('exactly-once', 'before-write')).toBe(10);
    expect(rowsUnder('exactly-once', 'after-write')).toBe(10);
  });
});

describe('what the scheduler cannot do is refused, naming the field', () => {
  // periods 3: logical dates 0..2 (2024-03-10..2024-03-12); the run of date d exists from the end
  // of its interval, (d+1)·24 h. A fault, clear or backfill on any other date never fires in
  // Airflow either: there is no such run to fail, clear or backfill.
  const issues = (batch: Partial<BatchInput>) => {
    const r = BatchSchema.safeParse({
      periods: 3,
      source: [{ id: 'e1', date: '2024-03-10' }],
      ...batch,
    });
    return r.success ? [] : r.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
  };
  it('a fault, clear or backfill past the last logical date; a backfill whose range runs backwards', () => {
    expect(
      issues({
        faults: [{ logicalDate: 5, point: 'before-write' }],
        clears: [{ logicalDate: 3, atMs: 6 * DAY_MS }],
        backfills: [
          { from: 1, to: 4, atMs: 5 * DAY_MS },
          { from: 2, to: 0, atMs: 5 * DAY_MS },
        ],
      }),
    ).toEqual([
      'faults.0.logicalDate: no logical date 5: periods 3 gives 0 (2024-03-10) to 2 (2024-03-12)',
      'clears.0.logicalDate: no logical date 3: periods 3 gives 0 (2024-03-10) to 2 (2024-03-12)',
      'backfills.0.to: no logical date 4: periods 3 gives 0 (2024-03-10) to 2 (2024-03-12)',
      'backfills.1.to: a backfill runs from its first date to its last: to 0 is before from 2',
    ]);
  });
  it('a clear before the date has a run: its interval ends at (d+1)·24 h', () => {
    // Date 2's run is created when its interval ends, 2024-03-13 00:00 = 259,200,000 ms.
    expect(issues({ clears: [{ logicalDate: 2, atMs: 3 * DAY_MS - 1 }] })).toEqual([
      'clears.0.atMs: the run of 2024-03-12 exists from the end of its interval, 2024-03-13 00:00 (259,200,000 ms): there is nothing to clear at 259,199,999 ms',
    ]);
    expect(issues({ clears: [{ logicalDate: 2, atMs: 3 * DAY_MS }] })).toEqual([]);
  });
});

describe('an hourly job in the words of its SQL', () => {
  // Airflow's {{ ds }} is "the DAG run's logical date as YYYY-MM-DD": the same for the 24 hourly
  // runs of a day; {{ ts }} is the logical date-time, "2018-01-01T00:00:00+00:00"
  // (https://airflow.apache.org/docs/apache-airflow/stable/templates-ref.html). The run of hour 1
  // of 2024-03-10 starts at 02:00 and reads hour 1.
  const run = (window: 'pinned' | 'clock') =>
    simulateBatch(
      BatchSchema.parse({
        schedule: 'hourly',
        periods: 2,
        window,
        source: [{ id: 'h1', date: '2024-03-10', hour: 1 }],
      }),
    );
  it('pinned: {{ ts }} of the logical hour, not a {{ ds }} with an hour in it', () => {
    expect(windowWords(run('pinned'), 1)).toBe(
      'its window pinned to the logical date ({{ ts }} = 2024-03-10T01:00:00+00:00)',
    );
  });
  it('clock: the hour now, truncated, less clockOffset hours — not current_date()', () => {
    expect(windowWords(run('clock'), 1)).toBe(
      "its window read from the clock (date_trunc('hour', now()) - interval '1 hour' = 2024-03-10T01 at 2024-03-10 02:00)",
    );
  });
});
