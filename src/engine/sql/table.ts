/**
 * The sink table as PostgreSQL sees it: its columns, the key column the scenario's `key` names,
 * its DDL (with the unique constraint the key implies, the dedupe table, the rows from before the
 * run), SQL literals, and the engine's final table as comparable rows.
 */
import type { Run } from '../simulate';
import type { TableSinkConfig } from '../scenario/schema';
import type { SinkRow } from '../sinks/table';
import { CONTENT_COLUMN_SQL } from '../batch/contentColumns';
import { columnSql, keyColumn, keyColumns } from '../sinks/keyColumns';
import { identifierSql } from '../sinks/sqlIdentifier';

/** A row of the sink table as both sides compare it: business id, amount, source coordinate. */
export interface TableRow {
  id: string;
  amount: number;
  /** `topic-partition@offset` of the record that wrote it; null for a row from before the run. */
  src: string | null;
}

/** The content columns a content key adds to the table (amount is always there). */
export function contentColumns(c: TableSinkConfig): ('time' | 'user' | 'item')[] {
  return typeof c.key === 'string'
    ? []
    : c.key.flatMap((k) => (k === 'amount' ? [] : [k])).filter((k, i, a) => a.indexOf(k) === i);
}

/**
 * Whether the key column has a unique constraint: ON CONFLICT needs one as its arbiter
 * (https://www.postgresql.org/docs/current/sql-insert.html#SQL-ON-CONFLICT); otherwise as set.
 * The same rule as the engine's SinkActor.
 */
export function hasUniqueKey(c: TableSinkConfig): boolean {
  if (c.uniqueKey !== undefined) return c.uniqueKey;
  return c.statement === 'on-conflict-do-nothing' || c.statement === 'on-conflict-do-update';
}

/**
 * A table's or constraint's name as a statement writes it: by the one rule its columns follow
 * (../sinks/sqlIdentifier.ts), bare when PostgreSQL reads it back unchanged (`payments`), else
 * quoted — as the user's own SQL names it, where every name was quoted before.
 */
export const ident = identifierSql;

/** A string literal. */
export function text(v: string): string {
  return `'${v.replace(/'/g, "''")}'`;
}

/** A numeric literal (amounts are finite numbers; JS prints the shortest exact decimal). */
export function num(v: number): string {
  return Object.is(v, -0) ? '0' : String(v);
}

/** The name of the dedupe table beside `table`. */
export function dedupeTable(table: string): string {
  return `${table}_processed`;
}

/** The source coordinate of a row, as its `src` column holds it. */
export function srcOf(run: Run, topic: number, partition: number, offset: number): string {
  return `${run.trace.topics[topic] ?? topic}-${partition}@${offset}`;
}

/** The values a sink row puts in the table's columns (the key column's value included). */
export function rowValues(
  run: Run,
  r: SinkRow,
): { id: string; amount: number; src: string; uuid: string | null } {
  const ev = run.events;
  return {
    id: ev.id(r.event),
    amount: ev.amount[r.event]!,
    src: srcOf(run, r.topic, r.partition, r.offset),
    uuid: typeof r.key === 'string' ? r.key : null,
  };
}

/** CREATE TABLE (and the dedupe table, and the rows from before the run) for a table sink. */
export function tableDdl(c: TableSinkConfig): string[] {
  const t = ident(c.name);
  const col = (name: Parameters<typeof columnSql>[1]) => columnSql(c, name);
  const cols = [
    `${col('id')} text NOT NULL`,
    `${col('amount')} numeric NOT NULL`,
    `${col('src')} text`,
  ];
  if (c.key === 'uuid-per-attempt') cols.push(`${col('uuid')} text`);
  for (const k of contentColumns(c)) cols.push(`${col(CONTENT_COLUMN_SQL[k])} text`);
  if (hasUniqueKey(c)) cols.push(`CONSTRAINT ${ident(`${c.name}_key`)} UNIQUE (${keyColumn(c)})`);
  const out = [`CREATE TABLE ${t} (\n  ${cols.join(',\n  ')}\n)`];
  if (c.dedupe)
    out.push(
      `CREATE TABLE ${ident(dedupeTable(c.name))} (${dedupeKeyDdl(c)}, seen_ms bigint NOT NULL)`,
    );
  if (c.initialRows.length > 0)
    out.push(
      `INSERT INTO ${t} (${col('id')}, ${col('amount')}) VALUES\n  ${c.initialRows
        .map((r) => `(${text(r.id)}, ${num(r.amount)})`)
        .join(',\n  ')}`,
    );
  return out;
}

/** The dedupe table's key: the business id, or the content key's columns. */
function dedupeKeyDdl(c: TableSinkConfig): string {
  if (typeof c.key === 'string') return `${columnSql(c, 'id')} text PRIMARY KEY`;
  const cols = keyColumns(c);
  const amount = columnSql(c, 'amount');
  return `${cols.map((k) => `${k} ${k === amount ? 'numeric' : 'text'}`).join(', ')}, PRIMARY KEY (${cols.join(', ')})`;
}

/** The engine's final sink table, row for row (live rows, in row order). */
export function engineTable(run: Run): TableRow[] {
  const rows = run.state.sink?.rows;
  if (!rows) return [];
  const out: TableRow[] = [];
  for (let i = 0; i < rows.length; i++) {
    if (rows.live.get(i) !== 1) continue;
    const ev = rows.event.get(i);
    out.push(
      ev < 0
        ? { id: rows.labels.get(i) ?? '', amount: rows.amount.get(i), src: null }
        : {
            id: run.events.id(ev),
            amount: rows.amount.get(i),
            src: srcOf(run, rows.topic.get(i), rows.partition.get(i), rows.offset.get(i)),
          },
    );
  }
  return out;
}

/**
 * The query reading the sink table back as `id`, `amount` (text: exact numerics) and `src` when
 * its columns carry the user's names (`columns`), else undefined: the default read-back
 * (src/engine/sql/replay.ts `readBackSql`).
 */
export function renamedReadBack(c: TableSinkConfig): string | undefined {
  if (c.columns === undefined) return undefined;
  const [id, amount, src] = (['id', 'amount', 'src'] as const).map((x) => columnSql(c, x));
  return `SELECT ${id} AS id, ${amount}::text AS amount, ${src} AS src FROM ${ident(c.name)}`;
}
