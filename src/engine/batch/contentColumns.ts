/**
 * The content columns a dedupe key may be built from, as plain data, and their names in SQL: the
 * batch schema (./schema.ts) builds its enums from them, the knob panels list them without
 * building any schema (issue 24: zod off the page's first path), and a sink statement's words
 * name them without the SQL script's module (issue 31: the embed ≤ 150 KB gzip).
 */

/** The content columns a dedupe key may be built from (the event id is `id`). */
export const CONTENT_COLUMNS = ['date', 'hour', 'time', 'user', 'item', 'amount'] as const;

/**
 * The content columns a streaming event may carry (the workload's `events`): a streaming event
 * has no date partition, so its dedupe key is built from these only.
 */
export const EVENT_CONTENT_COLUMNS = ['time', 'user', 'item', 'amount'] as const;

/** A content column's name in a table: the batch job's target and the streaming sink alike. */
export const CONTENT_COLUMN_SQL = {
  date: 'event_date',
  hour: 'event_hour',
  time: 'event_time',
  user: 'user_id',
  item: 'item',
  amount: 'amount',
} as const;
