/**
 * The dedupe-key editor's rules, apart from the page: a key is one identifying column (the
 * producer's event id, a generated id, the source offset) or a tuple of the event's content
 * columns — as `ON CONFLICT (event_time, amount)`, a MERGE's `ON` or a dedupe table's key may be
 * (https://www.postgresql.org/docs/current/sql-insert.html#SQL-ON-CONFLICT: the conflict target
 * names "one or more" columns). Two real events with equal content then share one key: a false
 * merge (docs/semantics/sinks.md#content-keys).
 */

/** A key as the scenario writes it: an identifying column's name, or the content columns. */
export type KeyValue = string | readonly string[];

/** The tuple a key switched to "content" starts with: event time and amount (S-style payments). */
const DEFAULT_CONTENT_KEY: readonly string[] = ['time', 'amount'];

/** The select's option for a content tuple (the identifying columns are their own options). */
export const CONTENT_TUPLE = 'content-tuple';

/** Whether `value` is a content tuple. */
export function isContentKey(value: unknown): value is readonly string[] {
  return Array.isArray(value);
}

/**
 * The key after the select chose `option`: an identifying column as itself; the content tuple
 * keeps the tuple it had, else starts from the default one (of the columns this sink offers).
 */
export function keyForOption(
  option: string,
  current: unknown,
  columns: readonly string[],
): KeyValue {
  if (option !== CONTENT_TUPLE) return option;
  if (isContentKey(current)) return current;
  return DEFAULT_CONTENT_KEY.filter((c) => columns.includes(c));
}

/**
 * The tuple with `column` turned on or off, in the columns' own order (the order the schema
 * lists them, so one tuple has one spelling). The last column cannot be turned off: a key has
 * at least one column — null then, no edit.
 */
export function toggleColumn(
  tuple: readonly string[],
  column: string,
  on: boolean,
  columns: readonly string[],
): string[] | null {
  const next = columns.filter((c) => (c === column ? on : tuple.includes(c)));
  return next.length === 0 ? null : next;
}

/**
 * A key typed as text (Compare's lane, `--compare sink.key=…`): one of `options`, or content
 * columns separated by commas, with or without the conflict target's parentheses
 * (`(time, amount)`), put in the columns' order. Null when it is neither.
 */
export function parseKeyText(
  text: string,
  options: readonly string[],
  columns: readonly string[],
): KeyValue | null {
  const t = text.trim();
  if (options.includes(t)) return t;
  const parts = t
    .replace(/^\((.*)\)$/, '$1')
    .split(',')
    .map((c) => c.trim());
  if (parts.length === 0 || parts.some((c) => !columns.includes(c))) return null;
  return columns.filter((c) => parts.includes(c));
}
