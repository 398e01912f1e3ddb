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

/**
 * Why a value is no dedupe key (a batch job's `dedupeKey`, a table sink's `key`): its ids (`ids`)
 * or a list of content `columns`, with the one meant when the value is a column's SQL name
 * (`event_time` for `time`) or an id misspelt (`event_id`). Undefined when there is nothing
 * better to say than the schema's own words (an empty list).
 */
export function dedupeKeyIssue(
  input: unknown,
  ids: readonly string[],
  columns: readonly string[],
): string | undefined {
  const takes = `a key is ${ids.map((k) => `"${k}"`).join(', ')} or a list of ${columns.join(', ')}`;
  const echo = (v: unknown) => (typeof v === 'string' ? `"${v.slice(0, 200)}"` : JSON.stringify(v));
  /** The content column whose SQL name `v` is (`event_time` → `time`). */
  const columnOf = (v: unknown) =>
    typeof v !== 'string'
      ? undefined
      : columns.find(
          (k) => CONTENT_COLUMN_SQL[k as keyof typeof CONTENT_COLUMN_SQL] === v.toLowerCase(),
        );
  const sqlOf = (c: string) => CONTENT_COLUMN_SQL[c as keyof typeof CONTENT_COLUMN_SQL];
  if (Array.isArray(input)) {
    const bad = input.find((v) => typeof v !== 'string' || !columns.includes(v));
    if (bad === undefined) return undefined;
    const c = columnOf(bad);
    const meant = c === undefined ? '' : `; did you mean "${c}" (the table's ${sqlOf(c)})?`;
    return `${echo(bad)} is no content column: ${takes}${meant}`;
  }
  if (typeof input === 'string') {
    const id = ids.find((k) => k === input.toLowerCase().replaceAll('_', '-'));
    const c = columns.includes(input) ? input : columnOf(input);
    const meant =
      id !== undefined
        ? `; did you mean "${id}"?`
        : c !== undefined
          ? `; a content key is a list: ["${c}"]${c === input ? '' : ` (the table's ${sqlOf(c)})`}`
          : '';
    return `${echo(input)} is no key: ${takes}${meant}`;
  }
  return undefined;
}
