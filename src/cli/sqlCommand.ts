/**
 * `sim <scenario> --format sql`: the table sink's statements as a PostgreSQL script
 * (src/engine/sql/script.ts); `--against postgres://…`: that script run on the user's own
 * database through psql, in a fresh schema created and dropped (src/cli/psql.ts), and the
 * comparison with the engine's table printed. Exit 0 when PostgreSQL agrees, 3 when it differs
 * (an error the engine does not predict included), 2 when psql or the server cannot be used.
 * A batch job's `--format sql` is the SQL its writes ran (src/views/batch/batchExport.ts: Spark's
 * and Delta's); its `--against`, the same writes in PostgreSQL's dialect
 * (src/views/batch/batchPostgres.ts) and its target table compared, each row with its partition.
 */
import { runBatch, simulate, type Scenario, type SimulateOptions } from '../engine';
import { conformanceText } from '../engine/sql/compare';
import { sinkSqlScript, type SqlScript } from '../engine/sql/script';
import { engineTable, type TableRow } from '../engine/sql/table';
import { AgainstRefusal, conformWithPsql } from './psql';
import { scenarioKind } from './scenarioEngine';
import { batchSql } from '../views/batch/batchExport';
import { batchEngineTable, batchPostgresScript } from '../views/batch/batchPostgres';

export function runSql(
  scenario: Scenario,
  limits: Pick<SimulateOptions, 'maxTraceEntries'>,
  against: string | undefined,
  out: (s: string) => void,
  err: (s: string) => void,
): number {
  let script: SqlScript;
  let engineRows: TableRow[];
  if (scenarioKind(scenario) === 'batch') {
    const r = runBatch(scenario);
    // The SQL its writes ran (Spark's and Delta's), as the page's Export → Job SQL writes it;
    // against a database, the same writes as PostgreSQL runs them.
    if (against === undefined) {
      out(batchSql(scenario, r));
      return 0;
    }
    script = batchPostgresScript(scenario, r);
    engineRows = batchEngineTable(r);
  } else {
    let run;
    try {
      run = simulate(scenario, { ...limits, sql: true });
    } catch (e) {
      err(`internal error: ${(e as Error).stack ?? String(e)}`);
      return 1;
    }
    script = sinkSqlScript(run);
    if (against === undefined) {
      out(script.text);
      return 0;
    }
    engineRows = engineTable(run);
  }
  let result;
  try {
    result = conformWithPsql(process.env.PSQL ?? 'psql', [against], script, engineRows);
  } catch (e) {
    // psql missing, the server unreachable or misconfigured: not a difference from the engine.
    if (e instanceof AgainstRefusal) {
      err(`--against: ${e.message}`);
      return 2;
    }
    err(`--against: ${(e as Error).message}`);
    return 1;
  }
  out(
    `${script.steps.filter((s) => s.sql.length > 0).length} step(s) run on ${against.replace(/\/\/[^@/]*@/, '//…@')}\n${conformanceText(result)}`,
  );
  return result.ok ? 0 : 3;
}
