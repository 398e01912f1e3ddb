/**
 * `sim <scenario> --format sql`: the table sink's statements as a PostgreSQL script
 * (src/engine/sql/script.ts); `--against postgres://…`: that script run on the user's own
 * database through psql, in a fresh schema created and dropped (src/cli/psql.ts), and the
 * comparison with the engine's table printed. Exit 0 when PostgreSQL agrees, 3 when it differs
 * (an error the engine does not predict included), 2 when psql or the server cannot be used.
 * A batch job's `--format sql` is the SQL its writes ran (src/views/batch/batchExport.ts); the
 * runner refuses `--against` for it (Spark SQL and Delta, not PostgreSQL).
 */
import { simulate, type Scenario, type SimulateOptions } from '../engine';
import { conformanceText } from '../engine/sql/compare';
import { sinkSqlScript } from '../engine/sql/script';
import { engineTable } from '../engine/sql/table';
import { AgainstRefusal, conformWithPsql } from './psql';
import { scenarioKind } from './scenarioEngine';
import { batchSql } from '../views/batch/batchExport';

export function runSql(
  scenario: Scenario,
  limits: Pick<SimulateOptions, 'maxTraceEntries'>,
  against: string | undefined,
  out: (s: string) => void,
  err: (s: string) => void,
): number {
  // A batch job: the SQL its writes ran, as the page's Export → Job SQL writes it.
  if (scenarioKind(scenario) === 'batch') {
    out(batchSql(scenario));
    return 0;
  }
  let run;
  try {
    run = simulate(scenario, { ...limits, sql: true });
  } catch (e) {
    err(`internal error: ${(e as Error).stack ?? String(e)}`);
    return 1;
  }
  const script = sinkSqlScript(run);
  if (against === undefined) {
    out(script.text);
    return 0;
  }
  let result;
  try {
    result = conformWithPsql(process.env.PSQL ?? 'psql', [against], script, engineTable(run));
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
