/**
 * The `batch` part of a scenario: a scheduled job over a partitioned source table, its scheduler
 * (logical dates, execution times, retries, clears, backfills), its read window, its write, an
 * optional dedupe store in front of the write, and its faults. Absent in streaming scenarios, so
 * every existing scenario parses and runs exactly as before.
 *
 * Semantics and sources: docs/semantics/batch.md (Airflow DAG runs and best practices, dbt
 * incremental models, Delta `replaceWhere`, Redis `SET … NX EX`).
 */
import { z } from 'zod';
import { LIMITS } from '../scenario/limits';
import { int, ms, name } from '../scenario/schemaFields';
import { groupDigits } from '../groupDigits';
import { DATE_PATTERN, calendarOf, dateOf, dayNumber, periodLabel } from './calendar';
import { CONTENT_COLUMNS, dedupeKeyIssue } from './contentColumns';

export { CONTENT_COLUMNS, EVENT_CONTENT_COLUMNS } from './contentColumns';

const MONTH_NAMES = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];

/** A calendar date, YYYY-MM-DD, of a day its month has (2024-02-30 is none). */
const date = () =>
  z
    .string()
    .regex(DATE_PATTERN, { message: 'a date is written YYYY-MM-DD, e.g. "2024-03-10"' })
    .superRefine((d, ctx) => {
      if (!DATE_PATTERN.test(d) || dateOf(dayNumber(d)) === d) return;
      const [y, m] = d.split('-').map(Number) as [number, number];
      const days =
        dayNumber(`${m === 12 ? y + 1 : y}-${String((m % 12) + 1).padStart(2, '0')}-01`) -
        dayNumber(`${d.slice(0, 8)}01`);
      ctx.addIssue({
        code: 'custom',
        message: `${d} is no date: ${MONTH_NAMES[m - 1]} ${y} has ${days} days`,
      });
    });

/**
 * What identifies "the same event" for a dedupe mechanism: the producer's event id, or a tuple
 * of content columns (two real events with equal content then merge: a false merge).
 */
export const DedupeKeySchema = z.union(
  [z.literal('event-id'), z.array(z.enum(CONTENT_COLUMNS)).min(1).max(CONTENT_COLUMNS.length)],
  {
    error: (iss) =>
      iss.code === 'invalid_union'
        ? dedupeKeyIssue(iss.input, ['event-id'], CONTENT_COLUMNS)
        : undefined,
  },
);

/** Content columns (free text), e.g. an event time "09:15:00", a user and an item. */
export const contentFields = () => ({
  time: z.string().max(LIMITS.stringLength).optional(),
  user: z.string().max(LIMITS.stringLength).optional(),
  item: z.string().max(LIMITS.stringLength).optional(),
});

/** One row of the source table. */
const SourceRowSchema = z.strictObject({
  id: name(),
  /** The event's date: its partition in the source and, rightly, in the target. */
  date: date(),
  /** Hourly schedules: the event's hour (0–23) within its date. */
  hour: int(0, 23).default(0),
  amount: z.number().min(-1e12).max(1e12).default(10),
  ...contentFields(),
  /**
   * Virtual time (ms) the row lands in the source table; default: the start of its own period.
   * A row that lands after its period's run has read is a late-arriving row.
   */
  addedAtMs: ms().optional(),
});

/** A task crash on an attempt, matched by logical date and Airflow's try number for that date. */
const BatchFaultSchema = z.strictObject({
  /** Index of the logical date (0 = `startDate`, 1 = the next period, …). */
  logicalDate: int(0, 1000),
  /** Airflow's try_number for that logical date: 1 = the first attempt ever, counting clears. */
  tryNumber: int(1, 100).default(1),
  /**
   * `before-write`: the task dies after reading; `mid-write`: after `afterRows` rows (with a
   * two-step dedupe, between the two steps of the next row); `after-write`: the write committed
   * but the task dies before it is marked success (e.g. a failed post-load check).
   */
  point: z.enum(['before-write', 'mid-write', 'after-write']),
  afterRows: int(0, LIMITS.explicitEvents).default(0),
});

export const BatchSchema = z
  .strictObject({
    /** `@daily` or `@hourly`: one logical date (data interval) per day or per hour. */
    schedule: z.enum(['daily', 'hourly']).default('daily'),
    /** The first logical date (`start_date`); virtual time 0 is its midnight. */
    startDate: date().default('2024-03-10'),
    /** How many logical dates the DAG has up to the end of the run (the last data interval). */
    periods: int(1, 168).default(1),
    /**
     * `catchup`: when the DAG is switched on at `deployedAtMs`, one run for every completed
     * interval not yet run; off: only the latest completed interval, then the schedule.
     * https://airflow.apache.org/docs/apache-airflow/stable/core-concepts/dag-run.html
     * Default true, Airflow 2's; Airflow 3's `[scheduler] catchup_by_default` is False
     * (docs/semantics/batch.md, "Airflow 2 or 3").
     */
    catchup: z.boolean().default(true),
    deployedAtMs: ms().default(0),
    task: z
      .strictObject({
        /** `retries`: attempts after the first within one run. */
        retries: int(0, 20).default(0),
        /** `retry_delay` (ms): Airflow's default is 5 minutes. */
        retryDelayMs: ms().default(300_000),
        /** Time from the start of an attempt to its write (the query), ms. */
        readMs: ms().default(60_000),
        /** Time per written row (non-atomic writes show rows landing one by one), ms. */
        rowMs: ms().default(1_000),
      })
      .default({ retries: 0, retryDelayMs: 300_000, readMs: 60_000, rowMs: 1_000 }),
    /**
     * The read window: `pinned` (`WHERE event_date = '{{ ds }}'`, the run's data interval) or
     * `clock` (`current_date() - clockOffset`, evaluated when the attempt runs).
     */
    window: z.enum(['pinned', 'clock']).default('pinned'),
    clockOffset: int(0, 168).default(1),
    write: z
      .strictObject({
        /**
         * `append`: INSERT INTO. `overwrite-partition`: replace the target partition (see `as`).
         * `merge`: MERGE ON the dedupe key. `dbt-incremental`: dbt's incremental materialization
         * (see `uniqueKey`, `strategy`).
         */
        mode: z
          .enum(['append', 'overwrite-partition', 'merge', 'dbt-incremental'])
          .default('append'),
        /** How the overwrite is written (the same outcome): INSERT OVERWRITE, Delta replaceWhere, DELETE+INSERT. */
        as: z
          .enum(['insert-overwrite', 'replace-where', 'delete-insert'])
          .default('insert-overwrite'),
        /** dbt: whether the model sets `unique_key` (the dedupe key below). */
        uniqueKey: z.boolean().default(false),
        /** dbt `incremental_strategy`. */
        strategy: z.enum(['append', 'merge', 'delete+insert', 'insert_overwrite']).default('merge'),
        /** The target partition: the run's logical date, the clock's date, or each row's own date. */
        partitionBy: z.enum(['logical-date', 'clock', 'event-date']).default('logical-date'),
        /** One table commit for the whole write, or rows (and the DELETE) committed one by one. */
        atomic: z.boolean().default(true),
      })
      .default({
        mode: 'append',
        as: 'insert-overwrite',
        uniqueKey: false,
        strategy: 'merge',
        partitionBy: 'logical-date',
        atomic: true,
      }),
    /** The key every dedupe mechanism here uses: MERGE / unique_key, and the dedupe store. */
    dedupeKey: DedupeKeySchema.default('event-id'),
    /**
     * A dedupe store in front of the write: Redis `SET dedupe:{key} 1 NX EX <ttl>`, or a dedupe
     * table whose retention job deletes claims older than `ttlMs`. `order`: claim then write, write
     * then claim, or both in one transaction (a dedupe table in the sink's database only).
     */
    dedupe: z
      .strictObject({
        store: z.enum(['redis', 'table']).default('redis'),
        ttlMs: ms(1).default(86_400_000),
        order: z
          .enum(['claim-then-write', 'write-then-claim', 'one-transaction'])
          .default('claim-then-write'),
        /**
         * `per-row`: each row claimed and written on its own. `batch`: every row claimed (or
         * checked) first, then one statement writes the rows whose claim succeeded — a crash
         * between the two then catches every claimed row at once.
         */
        write: z.enum(['per-row', 'batch']).default('per-row'),
      })
      .refine((d) => d.order !== 'one-transaction' || d.store === 'table', {
        message: 'order "one-transaction" needs store "table": Redis is not in the sink database',
        path: ['order'],
      })
      .optional(),
    source: z.array(SourceRowSchema).min(1).max(LIMITS.explicitEvents),
    /** Clear a past logical date's task at `atMs`: Airflow runs it again (a new try, fresh retries). */
    clears: z
      .array(z.strictObject({ logicalDate: int(0, 1000), atMs: ms() }))
      .max(LIMITS.faults)
      .default([]),
    /** A backfill (Airflow 3: `airflow backfill create`; 2: `airflow dags backfill`) of logical dates `from`..`to` started at `atMs`, one run after another. */
    backfills: z
      .array(
        z.strictObject({
          from: int(0, 1000),
          to: int(0, 1000),
          atMs: ms(),
        }),
      )
      .max(LIMITS.faults)
      .default([]),
    faults: z.array(BatchFaultSchema).max(LIMITS.faults).default([]),
  })
  .superRefine((b, ctx) => {
    const seen = new Set<string>();
    b.source.forEach((row, i) => {
      if (seen.has(row.id))
        ctx.addIssue({
          code: 'custom',
          path: ['source', i, 'id'],
          message: `event id "${row.id}" is listed twice in the source table`,
        });
      seen.add(row.id);
    });
    // A fault, clear or backfill names a DAG run: one of the logical dates the job has, and a
    // clear one whose run exists (from the end of its interval) — else it would never fire, in
    // Airflow as here (https://airflow.apache.org/docs/apache-airflow/stable/core-concepts/dag-run.html).
    const cal = calendarOf(b.schedule, b.startDate);
    const last = b.periods - 1;
    const noSuchDate = (d: number) =>
      `no logical date ${d}: periods ${b.periods} gives 0 (${periodLabel(cal, 0)}) to ${last} (${periodLabel(cal, last)})`;
    const dateIssue = (d: number, path: (string | number)[]) => {
      if (d > last) ctx.addIssue({ code: 'custom', path, message: noSuchDate(d) });
      return d > last;
    };
    b.faults.forEach((f, i) => dateIssue(f.logicalDate, ['faults', i, 'logicalDate']));
    b.clears.forEach((c, i) => {
      if (dateIssue(c.logicalDate, ['clears', i, 'logicalDate'])) return;
      const exists = (c.logicalDate + 1) * cal.periodMs;
      if (c.atMs < exists) {
        const day = Math.floor(exists / 86_400_000);
        const hh = String(Math.floor((exists - day * 86_400_000) / 3_600_000)).padStart(2, '0');
        ctx.addIssue({
          code: 'custom',
          path: ['clears', i, 'atMs'],
          message: `the run of ${periodLabel(cal, c.logicalDate)} exists from the end of its interval, ${periodLabel({ ...cal, hourly: false }, day)} ${hh}:00 (${groupDigits(exists)} ms): there is nothing to clear at ${groupDigits(c.atMs)} ms`,
        });
      }
    });
    b.backfills.forEach((f, i) => {
      if (dateIssue(f.from, ['backfills', i, 'from'])) return;
      if (dateIssue(f.to, ['backfills', i, 'to'])) return;
      if (f.to < f.from)
        ctx.addIssue({
          code: 'custom',
          path: ['backfills', i, 'to'],
          message: `a backfill runs from its first date to its last: to ${f.to} is before from ${f.from}`,
        });
    });
    // INSERT OVERWRITE and replaceWhere are one commit; only DELETE then INSERT can be split.
    if (b.write.mode === 'overwrite-partition' && !b.write.atomic && b.write.as !== 'delete-insert')
      ctx.addIssue({
        code: 'custom',
        path: ['write', 'atomic'],
        message: `write.as "${b.write.as}" is one atomic commit; only "delete-insert" can be written non-atomically`,
      });
  });

export type BatchConfig = z.output<typeof BatchSchema>;
export type BatchInput = z.input<typeof BatchSchema>;
export type SourceRow = z.output<typeof SourceRowSchema>;
export type BatchFault = z.output<typeof BatchFaultSchema>;
export type DedupeKey = z.output<typeof DedupeKeySchema>;
