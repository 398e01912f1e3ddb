/**
 * How the sink's statement is named, in one place, in the three forms the app shows it: in an
 * explanation's sentence ("a plain INSERT"), on a diagram's arrow ("INSERT ON CONFLICT DO
 * NOTHING"), and as the SQL shape under the sink's table ("INSERT … ON CONFLICT (id) DO
 * NOTHING"). PostgreSQL's forms: https://www.postgresql.org/docs/current/sql-insert.html and
 * https://www.postgresql.org/docs/current/sql-merge.html.
 */
import type { SinkConfig, TableSinkConfig } from '../scenario/schema';
import { columnSql, keyColumn } from '../sinks/keyColumns';

/** The table sink's statement as a sentence names it ("a plain INSERT", "MERGE"). */
export function sqlName(statement: TableSinkConfig['statement']): string {
  switch (statement) {
    case 'insert':
      return 'a plain INSERT';
    case 'on-conflict-do-nothing':
      return 'INSERT … ON CONFLICT DO NOTHING';
    case 'on-conflict-do-update':
      return 'INSERT … ON CONFLICT DO UPDATE';
    default:
      return 'MERGE';
  }
}

/** The SQL (or Delta, file, Kafka, service) words for one write of the sink, as a diagram labels it. */
export function sinkWriteLabel(k: SinkConfig): string {
  switch (k.type) {
    case 'table':
      switch (k.statement) {
        case 'insert':
          return 'INSERT';
        case 'on-conflict-do-nothing':
          return 'INSERT ON CONFLICT DO NOTHING';
        case 'on-conflict-do-update':
          return 'INSERT ON CONFLICT DO UPDATE';
        case 'merge':
          return 'MERGE';
      }
      return 'write';
    case 'delta':
      return k.mode === 'merge' ? 'Delta MERGE' : 'Delta append';
    case 'file':
      return 'write file';
    case 'kafka':
      return 'produce';
    case 'effect':
      return k.service === 'email' ? 'send email' : 'charge';
  }
}

/**
 * The table sink's statement as its SQL shape, with the key column it conflicts on as the SQL the
 * sink runs names it (src/engine/sql/table.ts `keyColumn`: `id`, `uuid`, `src`, or the content
 * columns), as the explanations do.
 */
export function sqlShape(k: TableSinkConfig): string {
  const name = k.name;
  const key = keyColumn(k);
  switch (k.statement) {
    case 'insert':
      return `INSERT INTO ${name} …`;
    case 'on-conflict-do-nothing':
      return `INSERT … ON CONFLICT (${key}) DO NOTHING`;
    case 'on-conflict-do-update': {
      const amount = columnSql(k, 'amount');
      return `INSERT … ON CONFLICT (${key}) DO UPDATE SET ${amount} = ${k.set === 'excluded' ? `EXCLUDED.${amount}` : `t.${amount} + EXCLUDED.${amount}`}`;
    }
    case 'merge':
      return `MERGE INTO ${name} USING … ON ${key}`;
  }
}
