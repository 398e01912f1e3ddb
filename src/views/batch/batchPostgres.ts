/**
 * A batch job's writes as a PostgreSQL script (`sim <batch job> --against postgres://…`, and the
 * conformance test on PGlite): the target's DDL, then the statements the batch engine recorded,
 * in commit order, in PostgreSQL's dialect (src/views/batch/batchStatementSql.ts: an overwrite is
 * its partitions' DELETE and the INSERT); an attempt's statements committed at one instant are one
 * transaction. Replayed on a real database, its table must be the engine's: row for row, with
 * each row's partition as its source.
 *
 * A statement the engine says PostgreSQL refuses (a dbt MERGE two new rows match one target row
 * with) is replayed too, its step expecting that error (SQLSTATE 21000).
 *
 * The dedupe store's claims are not replayed: they decided which rows each statement holds (the
 * engine recorded the statements after them), and a Redis store is no SQL. The step outcomes are
 * not checked (no row counts): the table is.
 */
import {
  attemptWords,
  batchTimeLabel,
  periodLabel,
  runBatch,
  type BatchResult,
  type Scenario,
  type Statement,
} from '../../engine';
import type { ScriptStep, SqlScript } from '../../engine/sql/script';
import type { TableRow } from '../../engine/sql/table';
import { batchStatementSql, PART, TARGET } from './batchStatementSql';

/** The batch job's writes as a PostgreSQL script. */
export function batchPostgresScript(
  scenario: Scenario,
  r: BatchResult = runBatch(scenario),
): SqlScript {
  const run = r.run;
  const writer = batchStatementSql(r);
  const steps: ScriptStep[] = [];
  // The statements in trace order, each refused one (a dbt MERGE, 21000) where it ran.
  const sts: { st: Statement; refused: boolean }[] = [];
  let ran = 0;
  let refused = 0;
  for (const e of run.trace)
    if (e.kind === 'statement') sts.push({ st: run.statements[ran++]!, refused: false });
    else if (e.kind === 'statement-failed')
      sts.push({ st: run.failedStatements[refused++]!, refused: true });
  const sameStep = (a: (typeof sts)[number], b: (typeof sts)[number]) =>
    !a.refused && !b.refused && a.st.attempt === b.st.attempt && a.st.at === b.st.at;
  for (let i = 0; i < sts.length;) {
    let j = i + 1;
    while (j < sts.length && sameStep(sts[i]!, sts[j]!)) j++;
    const sql = sts
      .slice(i, j)
      .flatMap(({ st }) => writer.sql(st, 'postgres'))
      // A statement with no rows is a comment in the export; the runner takes no ';' (it adds it).
      .filter((q) => !q.startsWith('--'))
      .map((q) => q.replace(/;$/, ''));
    const { st, refused: fails } = sts[i]!;
    const { attempt, at } = st;
    steps.push({
      comment: [
        `${attemptWords(run, attempt)}, ${fails ? 'refused' : 'committed'} ${batchTimeLabel(run, at)} (${at} ms)`,
      ],
      sql: sql.length > 1 ? ['BEGIN', ...sql, 'COMMIT'] : sql,
      // The engine's refusal is PostgreSQL's: "MERGE command cannot affect row a second time",
      // cardinality_violation (https://www.postgresql.org/docs/current/sql-merge.html).
      expect: {
        affected: null,
        skipped: 0,
        sqlstate: fails ? '21000' : null,
        outcomeUnknown: false,
      },
      at,
      prepared: false,
    });
    i = j;
  }
  const lines = [
    `-- ${scenario.name.replace(/[\r\n]+/g, ' ')}: the batch job's writes as PostgreSQL runs them.`,
    `${writer.ddl};`,
    '',
    ...steps.flatMap((s) => [...s.comment.map((c) => `-- ${c}`), ...s.sql.map((q) => `${q};`), '']),
  ];
  return {
    table: TARGET,
    ddl: [writer.ddl],
    steps,
    prepared: false,
    text: lines.join('\n'),
    readBack: `SELECT event_id AS id, amount::text AS amount, ${PART} AS src FROM ${TARGET}`,
  };
}

/** The engine's target table as the comparison reads it: event id, amount, partition as `src`. */
export function batchEngineTable(r: BatchResult): TableRow[] {
  return r.run.table.rows.map((row) => ({
    id: row.eventId,
    amount: row.amount,
    src: periodLabel(r.run.calendar, row.partition),
  }));
}
