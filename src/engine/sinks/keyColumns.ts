/**
 * The sink table's key columns as the SQL the sink runs names them (src/engine/sql/table.ts
 * builds its DDL and statements with them), apart from that module so the sink's card and the
 * explanations name them without the SQL script coming along (an embed loads none).
 */
import type { TableSinkConfig } from '../scenario/schema';
import { CONTENT_COLUMN_SQL } from '../batch/contentColumns';
import { identifierSql } from './sqlIdentifier';

/** The sink table's columns as the lab names them: the business id, amount, source, UUID, content. */
export const TABLE_COLUMNS = [
  'id',
  'amount',
  'src',
  'uuid',
  'event_time',
  'user_id',
  'item',
] as const;
export type TableColumn = (typeof TABLE_COLUMNS)[number];

/**
 * A column as the SQL names it: the user's name when the scenario came from their statement
 * (`columns`, docs/sql.md#your-names), else the lab's.
 */
export function columnSql(c: Pick<TableSinkConfig, 'columns'>, column: TableColumn): string {
  const theirs = c.columns?.[column];
  return theirs === undefined ? column : identifierSql(theirs);
}

/**
 * The columns holding the statement's key: the business id, a per-attempt UUID, the source
 * coordinate, or the content columns of a content key (`["time", "amount"]` → event_time, amount).
 */
export function keyColumns(c: TableSinkConfig): string[] {
  if (typeof c.key !== 'string') return c.key.map((k) => columnSql(c, CONTENT_COLUMN_SQL[k]));
  return [
    columnSql(c, c.key === 'business-id' ? 'id' : c.key === 'uuid-per-attempt' ? 'uuid' : 'src'),
  ];
}

/** The key columns as a conflict target or a column list names them: `id`, `event_time, amount`. */
export function keyColumn(c: TableSinkConfig): string {
  return keyColumns(c).join(', ');
}

/**
 * The user's column names in words (`payment_id for id, amt for amount`), for the reports that
 * list a scenario's settings; null when the table has the lab's names.
 */
export function columnNamesWords(c: Pick<TableSinkConfig, 'columns'>): string | null {
  const named = TABLE_COLUMNS.flatMap((col) =>
    c.columns?.[col] === undefined ? [] : [`${columnSql(c, col)} for ${col}`],
  );
  return named.length === 0 ? null : named.join(', ');
}
