/**
 * The SQL text of one sink statement, with its rows' values inline (a runnable script needs no
 * client-side parameters), in the form the scenario's `statement` names:
 * https://www.postgresql.org/docs/current/sql-insert.html and
 * https://www.postgresql.org/docs/current/sql-merge.html
 */
import type { Run } from '../simulate';
import type { TableSinkConfig } from '../scenario/schema';
import type { SinkRow } from '../sinks/table';
import { CONTENT_COLUMN_SQL } from '../batch/contentColumns';
import { columnSql, keyColumn, keyColumns } from '../sinks/keyColumns';
import { contentColumns, dedupeTable, ident, num, rowValues, text } from './table';

/** The column list the statements insert, and one row's tuple of values for it. */
function columns(c: TableSinkConfig): string[] {
  const cols = [columnSql(c, 'id'), columnSql(c, 'amount'), columnSql(c, 'src')];
  if (c.key === 'uuid-per-attempt') cols.push(columnSql(c, 'uuid'));
  for (const k of contentColumns(c)) cols.push(columnSql(c, CONTENT_COLUMN_SQL[k]));
  return cols;
}

/**
 * A row's values for {@link columns}. A content column the event does not list is '' (as the
 * engine's key reads it), not NULL: NULLs never conflict under a unique constraint.
 */
function values(run: Run, c: TableSinkConfig, r: SinkRow): string[] {
  const v = rowValues(run, r);
  const vals = [text(v.id), num(v.amount), text(v.src)];
  if (c.key === 'uuid-per-attempt') vals.push(v.uuid === null ? 'NULL' : text(v.uuid));
  const content = run.events.content(r.event);
  for (const k of contentColumns(c)) vals.push(text(content[k] ?? ''));
  return vals;
}

function tuple(run: Run, c: TableSinkConfig, r: SinkRow, extra: string[] = []): string {
  return `(${[...values(run, c, r), ...extra].join(', ')})`;
}

/**
 * The statement writing `rows`: one SQL statement, or (with a dedupe table) a transaction of one
 * statement per row, each claiming the row's id in the dedupe table first.
 * @param now - virtual time of the execution (ms): what the dedupe table records.
 */
export function statementSql(
  run: Run,
  c: TableSinkConfig,
  rows: readonly SinkRow[],
  now: number,
): string[] {
  const t = ident(c.name);
  const cols = columns(c).join(', ');
  const values = rows.map((r) => tuple(run, c, r)).join(',\n  ');
  const key = keyColumn(c);
  const amount = columnSql(c, 'amount');
  switch (c.statement) {
    case 'insert':
      if (c.dedupe) return dedupeSql(run, c, rows, now);
      return [`INSERT INTO ${t} (${cols}) VALUES\n  ${values}`];
    case 'on-conflict-do-nothing':
      return [`INSERT INTO ${t} (${cols}) VALUES\n  ${values}\nON CONFLICT (${key}) DO NOTHING`];
    case 'on-conflict-do-update':
      return [
        `INSERT INTO ${t} AS t (${cols}) VALUES\n  ${values}\nON CONFLICT (${key}) DO UPDATE SET ${amount} = ${
          c.set === 'add-excluded' ? `t.${amount} + EXCLUDED.${amount}` : `EXCLUDED.${amount}`
        }`,
      ];
    case 'merge':
      return [mergeSql(run, c, rows)];
  }
}

/**
 * MERGE with the rows as its source (`ord`: their order, so DISTINCT ON keeps the last one of a
 * key when `merge.dedupeSource` asks).
 */
function mergeSql(run: Run, c: TableSinkConfig, rows: readonly SinkRow[]): string {
  const t = ident(c.name);
  const cols = columns(c);
  const key = keyColumn(c);
  const values = rows.map((r, i) => tuple(run, c, r, [String(i)])).join(',\n  ');
  const src = `(VALUES\n  ${values}\n) AS v(${[...cols, 'ord'].join(', ')})`;
  const using = c.merge.dedupeSource
    ? `(SELECT DISTINCT ON (${key}) * FROM ${src} ORDER BY ${key}, ord DESC) AS s`
    : src.replace(/ AS v\(/, ' AS s(');
  const on = keyColumns(c)
    .map((k) => `t.${k} = s.${k}`)
    .join(' AND ');
  const lines = [`MERGE INTO ${t} AS t\nUSING ${using}\nON ${on}`];
  if (c.merge.whenMatched === 'update')
    lines.push(
      `WHEN MATCHED THEN UPDATE SET ${columnSql(c, 'amount')} = s.${columnSql(c, 'amount')}`,
    );
  if (c.merge.whenMatched === 'do-nothing') lines.push('WHEN MATCHED THEN DO NOTHING');
  lines.push(
    `WHEN NOT MATCHED THEN INSERT (${cols.join(', ')}) VALUES (${cols.map((x) => `s.${x}`).join(', ')})`,
  );
  return lines.join('\n');
}

/**
 * A plain INSERT behind a dedupe table, in one transaction: each row first claims its business id
 * in the dedupe table — new, or last seen more than `retentionMs` before `now` — and is inserted
 * only if the claim took (an id seen within the retention is skipped).
 */
function dedupeSql(run: Run, c: TableSinkConfig, rows: readonly SinkRow[], now: number): string[] {
  const t = ident(c.name);
  const d = ident(dedupeTable(c.name));
  const retention = c.dedupe!.retentionMs;
  const cols = columns(c);
  // The dedupe table's key: the business id, or the content key's columns (table.ts dedupeKeyDdl).
  const keyCols = typeof c.key === 'string' ? [columnSql(c, 'id')] : keyColumns(c);
  const out = ['BEGIN'];
  for (const r of rows) {
    const all = values(run, c, r);
    const keyVals = keyCols.map((k) => all[cols.indexOf(k)]!);
    out.push(
      `WITH claimed AS (\n  INSERT INTO ${d} AS p (${keyCols.join(', ')}, seen_ms) VALUES (${keyVals.join(', ')}, ${now})\n  ON CONFLICT (${keyCols.join(', ')}) DO UPDATE SET seen_ms = EXCLUDED.seen_ms\n    WHERE p.seen_ms < EXCLUDED.seen_ms - ${retention}\n  RETURNING ${keyCols[0]}\n)\nINSERT INTO ${t} (${cols.join(', ')}) SELECT ${all.join(', ')} FROM claimed`,
    );
  }
  out.push('COMMIT');
  return out;
}
