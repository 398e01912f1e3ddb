/**
 * "Run on a real PostgreSQL" (docs/sql.md): the view's scenario simulated again with its SQL
 * recorded (deterministic: the same run), its sink script replayed on a database in a fresh schema,
 * and the final tables compared (src/engine/sql/compare.ts) — the page's worker passes PGlite, the
 * CLI and the tests the same functions with their own database.
 */
import { parseScenario, simulate, sinkSqlScript } from '../../engine';
import type { Conformance } from '../../engine/sql/compare';
import { conformInSchema, queryClient, type QueryDb } from '../../engine/sql/replay';
import { engineTable } from '../../engine/sql/table';

/**
 * What the page downloads to run it: pglite.wasm, initdb.wasm and pglite.data of
 * @electric-sql/pglite 0.5.17 (9.1 + 0.3 + 6.2 MB; src/cli/pgliteDownload.test.ts holds it to the
 * package).
 */
export const PGLITE_DOWNLOAD_MB = 15.7;

/** The comparison, or why there is none (invalid scenario, no table sink, prepared transactions). */
export type DatabaseCheck = { ok: true; conformance: Conformance } | { ok: false; error: string };

/** The script of `input` on `db`, compared with the engine's table. Never throws. */
export async function checkOnDatabase(input: unknown, db: QueryDb): Promise<DatabaseCheck> {
  try {
    const parsed = parseScenario(input);
    if (!parsed.ok)
      return {
        ok: false,
        error: `invalid scenario: ${parsed.issues
          .slice(0, 3)
          .map((i) => `${i.path || '(scenario)'}: ${i.message}`)
          .join('; ')}`,
      };
    if (parsed.scenario.sink.type !== 'table')
      return {
        ok: false,
        error: 'this run has no SQL table sink (its sink is not sink.type "table")',
      };
    const run = simulate(parsed.scenario, { sql: true });
    const script = sinkSqlScript(run);
    // PGlite refuses PREPARE TRANSACTION ("prepared transactions are disabled", docs/sql.md):
    // Flink's XA sink needs a server, e.g. `sim … --against postgres://…`.
    if (script.prepared)
      return {
        ok: false,
        error:
          'this script uses PREPARE TRANSACTION (the XA sink), which PGlite does not support: run it on a PostgreSQL server with `sim --against postgres://…` (docs/sql.md)',
      };
    return {
      ok: true,
      conformance: await conformInSchema(queryClient(db), script, engineTable(run)),
    };
  } catch (e) {
    return { ok: false, error: e instanceof Error ? e.message : String(e) };
  }
}
