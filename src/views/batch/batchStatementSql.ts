/**
 * A batch job's write statements (recorded as data by the batch engine, src/engine/batch/table.ts)
 * as SQL, in two dialects:
 * - `spark`, what the job's writes ran (the SQL export, src/views/batch/batchExport.ts):
 *   `insert`, `insert-overwrite` … `PARTITION` as Spark SQL INSERT
 *   (https://spark.apache.org/docs/latest/sql-ref-syntax-dml-insert-table.html), `replace-where`
 *   as Delta's `INSERT INTO … REPLACE WHERE`
 *   (https://docs.databricks.com/aws/en/sql/language-manual/sql-ref-syntax-dml-insert-into);
 * - `postgres`, the same writes as PostgreSQL runs them (`--against`, src/views/batch/batchPostgres.ts):
 *   an overwrite of partitions is what Spark's and Delta's docs say it is, the partitions' rows
 *   deleted and the new ones inserted, as one transaction.
 * `delete-partition`, `delete-keys` and `merge` read the same in both: DELETE and MERGE as
 * PostgreSQL and Delta both accept them (https://www.postgresql.org/docs/current/sql-merge.html).
 */
import { text as sqlText } from '../../engine/sql/table';
import {
  CONTENT_COLUMN_SQL,
  periodLabel,
  type BatchResult,
  type DedupeKey,
  type SourceRow,
  type Statement,
} from '../../engine';

/** The target table's name. */
export const TARGET = 'target';
/** The partition column (Airflow's `ds`). */
export const PART = 'ds';
/** A source row's content column in the target, by the dedupe key's column name. */
const COLUMN = CONTENT_COLUMN_SQL;

/** The target's content columns after the event id: the date (and hour), the key's, the amount. */
function columnsOf(hourly: boolean, key: DedupeKey): (keyof typeof COLUMN)[] {
  const content: (keyof typeof COLUMN)[] = ['date', ...(hourly ? (['hour'] as const) : [])];
  if (key !== 'event-id') for (const c of key) if (!content.includes(c)) content.push(c);
  if (!content.includes('amount')) content.push('amount');
  return content;
}

/** The SQL of a job's statements. */
export interface BatchStatementSql {
  /** The target's columns: the event id, its content columns, the partition column last. */
  columns: string[];
  /** The MERGE key's columns (the dedupe key's). */
  keyColumns: string[];
  /** `CREATE TABLE` of the target, PostgreSQL's types (amount exact, hour a number). */
  ddl: string;
  /** One statement in `dialect`: one SQL text, or (a PostgreSQL overwrite) a DELETE and an INSERT. */
  sql(st: Statement, dialect: 'spark' | 'postgres'): string[];
}

/** The SQL writer of `r`'s job. */
export function batchStatementSql(r: BatchResult): BatchStatementSql {
  const run = r.run;
  const label = (p: number) => periodLabel(run.calendar, p);
  const byId = new Map(run.config.source.map((s) => [s.id, s]));
  const cols = columnsOf(run.calendar.hourly, run.config.dedupeKey);
  const names = ['event_id', ...cols.map((c) => COLUMN[c])];
  const valueOf = (s: SourceRow, c: keyof typeof COLUMN): string =>
    c === 'hour' || c === 'amount' ? String(s[c]) : sqlText(s[c] ?? '');
  const own = new Map(r.verdict.events.map((e) => [e.id, e.partition]));
  /** A row's values: its content, then (unless the partition is static) its partition. */
  const tuple = (id: string, st: Statement, withPart: boolean) => {
    const s = byId.get(id)!;
    const part = st.partitions.length === 1 ? st.partitions[0]! : (own.get(s.id) ?? 0);
    const vals = [sqlText(id), ...cols.map((c) => valueOf(s, c))];
    return `(${[...vals, ...(withPart ? [sqlText(label(part))] : [])].join(', ')})`;
  };
  const values = (st: Statement, withPart: boolean) =>
    `VALUES\n  ${st.rows.map((id) => tuple(id, st, withPart)).join(',\n  ')}`;
  const where = (st: Statement) =>
    st.partitions.length === 1
      ? `${PART} = ${sqlText(label(st.partitions[0]!))}`
      : `${PART} IN (${st.partitions.map((p) => sqlText(label(p))).join(', ')})`;
  const keyColumns =
    run.config.dedupeKey === 'event-id' ? ['event_id'] : run.config.dedupeKey.map((c) => COLUMN[c]);
  const all = [...names, PART];
  const noRows = `SELECT ${all.join(', ')} FROM source WHERE false -- its window read no rows`;
  const insert = (st: Statement) =>
    st.rows.length === 0
      ? `-- INSERT INTO ${TARGET}: no rows read`
      : `INSERT INTO ${TARGET} (${all.join(', ')})\n${values(st, true)};`;
  const type = (c: string) => (c === 'amount' ? 'numeric' : c === COLUMN.hour ? 'integer' : 'text');
  const ddl = `CREATE TABLE ${TARGET} (${all.map((c) => `${c} ${type(c)}`).join(', ')})`;

  const sql = (st: Statement, dialect: 'spark' | 'postgres'): string[] => {
    const empty = st.rows.length === 0;
    switch (st.kind) {
      case 'insert':
        return [insert(st)];
      case 'insert-overwrite': {
        if (dialect === 'postgres')
          return [`DELETE FROM ${TARGET} WHERE ${where(st)};`, insert(st)];
        const fixed = st.partitions.length === 1;
        const spec = fixed ? `PARTITION (${where(st)})` : `PARTITION (${PART})`;
        const cs = fixed ? names : all;
        return [
          `INSERT OVERWRITE TABLE ${TARGET} ${spec} (${cs.join(', ')})\n${
            empty
              ? `SELECT ${cs.join(', ')} FROM source WHERE false -- its window read no rows`
              : values(st, !fixed)
          };`,
        ];
      }
      case 'replace-where':
        if (dialect === 'postgres')
          return [`DELETE FROM ${TARGET} WHERE ${where(st)};`, insert(st)];
        return [
          `INSERT INTO ${TARGET} REPLACE WHERE ${where(st)}\n${empty ? noRows : values(st, true)};`,
        ];
      case 'delete-partition':
        return [`DELETE FROM ${TARGET} WHERE ${where(st)};`];
      case 'delete-keys': {
        const key = keyColumns.length === 1 ? keyColumns[0]! : `(${keyColumns.join(', ')})`;
        const keys = st.rows.map((id) => {
          const s = byId.get(id)!;
          const v =
            run.config.dedupeKey === 'event-id'
              ? [sqlText(id)]
              : run.config.dedupeKey.map((c) => valueOf(s, c));
          return v.length === 1 ? v[0]! : `(${v.join(', ')})`;
        });
        // dbt: `where (key) in (select distinct key from source)`, each key once.
        return [
          empty
            ? `-- DELETE FROM ${TARGET}: no keys`
            : `DELETE FROM ${TARGET} WHERE ${key} IN (${[...new Set(keys)].join(', ')});`,
        ];
      }
      case 'merge':
        return [
          empty
            ? `-- MERGE INTO ${TARGET}: no rows read`
            : [
                `MERGE INTO ${TARGET} AS t`,
                `USING (${values(st, true)}) AS s (${all.join(', ')})`,
                `ON ${keyColumns.map((k) => `t.${k} = s.${k}`).join(' AND ')}`,
                `WHEN MATCHED THEN UPDATE SET ${all.map((c) => `${c} = s.${c}`).join(', ')}`,
                `WHEN NOT MATCHED THEN INSERT (${all.join(', ')}) VALUES (${all.map((c) => `s.${c}`).join(', ')});`,
              ].join('\n'),
        ];
    }
  };
  return { columns: all, keyColumns, ddl, sql };
}
