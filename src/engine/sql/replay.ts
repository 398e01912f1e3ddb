/**
 * Replay a sink SQL script on a real PostgreSQL through a small client interface (PGlite in the
 * tests and the page, any driver elsewhere): each step's statements in order, its outcome
 * recorded; a failed step's open transaction rolled back, as psql's ROLLBACK-on-COMMIT does.
 */
import { compareWithDatabase, type Conformance, type StepResult } from './compare';
import type { SqlScript } from './script';
import { ident, type TableRow } from './table';

/** A connection: run one statement; a failure throws an error with the SQLSTATE in `code`. */
export interface SqlClient {
  run(sql: string): Promise<{ affected: number; rows: Record<string, unknown>[] }>;
}

/** Statements whose row count is not a data change. */
const CONTROL = /^(BEGIN|COMMIT|ROLLBACK|PREPARE TRANSACTION|COMMIT PREPARED|ROLLBACK PREPARED)\b/;

/**
 * The query reading the table back as `id`, `amount` (text: exact numerics) and `src`: the
 * script's own (a batch job's target names them otherwise), else the sink table's columns.
 */
export function readBackSql(script: Pick<SqlScript, 'table' | 'readBack'>): string {
  return script.readBack ?? `SELECT id, amount::text AS amount, src FROM ${ident(script.table)}`;
}

/** Rows read back with {@link readBackSql}. */
export function tableRowsOf(rows: Record<string, unknown>[]): TableRow[] {
  return rows.map((r) => ({
    id: String(r.id),
    amount: Number(r.amount),
    src: r.src === null || r.src === undefined ? null : String(r.src),
  }));
}

/** Run the script's DDL and steps on `db` (a fresh schema); returns each step's result and the final table. */
async function replay(
  script: SqlScript,
  db: SqlClient,
): Promise<{ results: StepResult[]; real: TableRow[] }> {
  for (const d of script.ddl) await db.run(d);
  const results: StepResult[] = [];
  for (const step of script.steps) {
    if (step.sql.length === 0) {
      results.push({ affected: null, sqlstate: null });
      continue;
    }
    let affected = 0;
    let sqlstate: string | null = null;
    for (const q of step.sql) {
      try {
        const r = await db.run(q);
        if (!CONTROL.test(q)) affected += r.affected;
      } catch (e) {
        sqlstate = String((e as { code?: unknown }).code ?? 'XX000');
        if (step.sql[0] === 'BEGIN') await db.run('ROLLBACK');
        break;
      }
    }
    results.push({ affected, sqlstate });
  }
  const real = tableRowsOf((await db.run(readBackSql(script))).rows);
  return { results, real };
}

/** A PGlite-like database: `query` runs one statement with the simple protocol (https://pglite.dev/docs/api). */
export interface QueryDb {
  query(sql: string): Promise<{ affectedRows?: number; rows: unknown[] }>;
}

/** `db` as a {@link SqlClient}. */
export function queryClient(db: QueryDb): SqlClient {
  return {
    async run(sql) {
      const r = await db.query(sql);
      return { affected: r.affectedRows ?? 0, rows: r.rows as Record<string, unknown>[] };
    },
  };
}

let schemas = 0;

/**
 * Replay `script` in a new schema (created, then dropped) through `db`, and compare with the
 * engine's `engineRows`. For PGlite: it has no prepared transactions ("prepared transactions are
 * disabled"), so a script with PREPARE TRANSACTION needs a native server.
 */
export async function conformInSchema(
  db: SqlClient,
  script: SqlScript,
  engineRows: readonly TableRow[],
): Promise<Conformance> {
  const schema = `delivery_lab_${++schemas}`;
  await db.run(`CREATE SCHEMA ${schema}`);
  await db.run(`SET search_path TO ${schema}`);
  try {
    const { results, real } = await replay(script, db);
    return compareWithDatabase(script, engineRows, results, real);
  } finally {
    await db.run('SET search_path TO public');
    await db.run(`DROP SCHEMA ${schema} CASCADE`);
  }
}
