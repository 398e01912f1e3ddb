/**
 * The sink table's key columns as the SQL the sink runs names them (src/engine/sql/table.ts
 * builds its DDL and statements with them), apart from that module so the sink's card and the
 * explanations name them without the SQL script coming along (an embed loads none).
 */
import type { TableSinkConfig } from '../scenario/schema';
import { CONTENT_COLUMN_SQL } from '../batch/contentColumns';

/**
 * The columns holding the statement's key: the business id, a per-attempt UUID, the source
 * coordinate, or the content columns of a content key (`["time", "amount"]` → event_time, amount).
 */
export function keyColumns(c: TableSinkConfig): string[] {
  if (typeof c.key !== 'string') return c.key.map((k) => CONTENT_COLUMN_SQL[k]);
  return [c.key === 'business-id' ? 'id' : c.key === 'uuid-per-attempt' ? 'uuid' : 'src'];
}

/** The key columns as a conflict target or a column list names them: `id`, `event_time, amount`. */
export function keyColumn(c: TableSinkConfig): string {
  return keyColumns(c).join(', ');
}
