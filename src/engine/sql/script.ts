/**
 * The sink's SQL as a runnable PostgreSQL script, derived from a run recorded with
 * `simulate(s, { sql: true })` (src/engine/sql/recorder.ts): the table's DDL, then every statement
 * the database executed, in order, each with a comment naming its rows, its attempt, the fault
 * that touched it and what the engine says the database did; a request that never reached the
 * database is listed as a comment only. `psql -f` on a fresh database reproduces the engine's
 * final table (docs/sql.md).
 */
import type { Run } from '../simulate';
import type { TableSinkConfig } from '../scenario/schema';
import { K, MESSAGE_TYPES } from '../trace';
import { describeFault } from '../faultWords';
import { sqlName } from '../sinks/statementWords';
import type { SqlAttempt, SqlStatement, SqlStep } from './recorder';
import { sqlstateOf } from './sqlstate';
import { statementSql } from './statements';
import { columnSql, keyColumn } from '../sinks/keyColumns';
import { engineTable, hasUniqueKey, ident, renamedReadBack, srcOf, tableDdl, text } from './table';

/** What the engine says one step did at the database. */
export interface StepExpect {
  /** Rows the statement(s) inserted or updated (PostgreSQL's row count), or null: not checked. */
  affected: number | null;
  /** Rows that conflicted or were skipped (ON CONFLICT, MERGE matched, dedupe table). */
  skipped: number;
  /** The SQLSTATE the statement fails with, or null. */
  sqlstate: string | null;
  /** Executed, but the writer never heard the answer. */
  outcomeUnknown: boolean;
}

/** One step of the script. */
export interface ScriptStep {
  /** Comment lines (without `-- `). */
  comment: string[];
  /** The statements to run, in order; empty for a request that never reached the database. */
  sql: string[];
  expect: StepExpect;
  /** Virtual time (ms). */
  at: number;
  /** Uses PREPARE TRANSACTION / COMMIT PREPARED / ROLLBACK PREPARED (needs max_prepared_transactions > 0). */
  prepared: boolean;
}

/** The sink's SQL for a run. */
export interface SqlScript {
  table: string;
  /** The table's DDL and its rows from before the run. */
  ddl: string[];
  steps: ScriptStep[];
  /** Whether any step needs prepared transactions. */
  prepared: boolean;
  /** The whole runnable script. */
  text: string;
  /**
   * The query reading the table back as `id`, `amount` (as text: exact numerics) and `src`, for
   * the comparison (src/engine/sql/replay.ts `readBackSql` by default: the sink table's columns).
   */
  readBack?: string;
}

const SINK_RESPONSE = MESSAGE_TYPES.indexOf('sink-response');
const NO_CHECK: StepExpect = { affected: null, skipped: 0, sqlstate: null, outcomeUnknown: false };

/**
 * The sink's SQL script of `run`.
 * @throws when the run has no table sink or was not recorded with `{ sql: true }`.
 */
export function sinkSqlScript(run: Run): SqlScript {
  const c = run.scenario.sink;
  const rec = run.state.sink?.sql;
  if (c.type !== 'table' || !rec)
    throw new Error(
      'sink SQL: needs a table sink and a run recorded with simulate(s, { sql: true })',
    );
  const numbers = new Map<SqlStatement, number>();
  const numberOf = (s: SqlStatement) => {
    let n = numbers.get(s);
    if (n === undefined) numbers.set(s, (n = numbers.size + 1));
    return n;
  };
  const steps: ScriptStep[] = [];
  for (const step of rec.steps) {
    const out = scriptStep(run, c, step, numberOf);
    if (out) steps.push(out);
  }
  const ddl = tableDdl(c);
  const prepared = steps.some((s) => s.prepared);
  const readBack = renamedReadBack(c);
  return {
    table: c.name,
    ddl,
    steps,
    prepared,
    text: scriptText(run, c, ddl, steps, prepared),
    ...(readBack === undefined ? {} : { readBack }),
  };
}

/** xid → the gid PREPARE TRANSACTION names it by. */
export function gid(xid: number): string {
  return text(`delivery-lab-xid-${xid}`);
}

function scriptStep(
  run: Run,
  c: TableSinkConfig,
  step: SqlStep,
  numberOf: (s: SqlStatement) => number,
): ScriptStep | null {
  switch (step.kind) {
    case 'send': {
      if (step.attempt.delivered) return null;
      const comment = [
        `${label(run, step.statement, step.attempt, numberOf)}: NOT DELIVERED — ${requestFate(run, step.attempt)}`,
      ];
      return { comment, sql: [], expect: NO_CHECK, at: step.attempt.sentAt, prepared: false };
    }
    case 'execute': {
      const { statement: s, attempt: a } = step;
      // A statement of an XA branch runs inside it: shown with its PREPARE TRANSACTION.
      if (s.xid >= 0) return null;
      const expect = outcome(run, a);
      const comment = [
        `${label(run, s, a, numberOf)}${a.attempt > 1 ? ` (a retry: ${requestFate(run, s.attempts[a.attempt - 2]!)})` : ''}`,
        `engine: ${outcomeWords(expect)}${expect.outcomeUnknown ? ` — ${responseFate(run, a)}` : ''}`,
      ];
      return {
        comment,
        sql: statementSql(run, c, s.rows, step.at),
        expect,
        at: step.at,
        prepared: false,
      };
    }
    case 'prepare': {
      const sql = ['BEGIN'];
      const comment = [`XA transaction ${step.xid}: its statements, then PREPARE TRANSACTION`];
      for (const s of step.statements) {
        sql.push(...statementSql(run, c, s.rows, step.at));
        comment.push(`  ${label(run, s, s.attempts[s.attempts.length - 1]!, numberOf)}`);
      }
      sql.push(`PREPARE TRANSACTION ${gid(step.xid)}`);
      return { comment, sql, expect: NO_CHECK, at: step.at, prepared: true };
    }
    case 'commit': {
      const t = run.trace;
      let inserted = 0;
      for (let i = step.from; i < step.to; i++) if (t.kind[i] === K['row-insert']) inserted++;
      return {
        comment: [
          `COMMIT PREPARED: XA transaction ${step.xid} (engine: ${inserted} row(s) appear)`,
        ],
        sql: [`COMMIT PREPARED ${gid(step.xid)}`],
        expect: NO_CHECK,
        at: step.at,
        prepared: true,
      };
    }
    case 'rollback':
      if (step.prepared)
        return {
          comment: [`ROLLBACK PREPARED: XA transaction ${step.xid}, its rows discarded`],
          sql: [`ROLLBACK PREPARED ${gid(step.xid)}`],
          expect: NO_CHECK,
          at: step.at,
          prepared: true,
        };
      return {
        comment: [
          `XA transaction ${step.xid} rolled back before it was prepared: its ${step.statements.length} statement(s) leave nothing`,
        ],
        sql: [],
        expect: NO_CHECK,
        at: step.at,
        prepared: false,
      };
    case 'crash':
      return {
        comment: [
          `the database crashed: open XA transaction(s) ${step.xids.map((x) => x.xid).join(', ')} ended with their sessions, rolled back`,
        ],
        sql: [],
        expect: NO_CHECK,
        at: step.at,
        prepared: false,
      };
  }
}

/** "statement 3 (e2 from payments-0@1, …), attempt 2". */
function label(
  run: Run,
  s: SqlStatement,
  a: SqlAttempt,
  numberOf: (s: SqlStatement) => number,
): string {
  const shown = s.rows
    .slice(0, 4)
    .map((r) => `${run.events.id(r.event)} from ${srcOf(run, r.topic, r.partition, r.offset)}`);
  if (s.rows.length > 4) shown.push(`… ${s.rows.length} rows`);
  return `statement ${numberOf(s)} (${shown.join(', ')}), attempt ${a.attempt}`;
}

/** What the engine says attempt `a` did at the database (from the entries its execution added). */
function outcome(run: Run, a: SqlAttempt): StepExpect {
  const t = run.trace;
  let affected = 0;
  let skipped = 0;
  for (let i = a.from; i < a.to; i++) {
    const k = t.kind[i];
    if (k === K['row-insert'] || k === K['row-update']) affected++;
    else if (k === K['row-skip']) skipped++;
  }
  const sqlstate = sqlstateOf(a.error);
  return {
    affected: sqlstate ? 0 : affected,
    skipped: sqlstate ? 0 : skipped,
    sqlstate,
    outcomeUnknown: !a.answered,
  };
}

function outcomeWords(e: StepExpect): string {
  if (e.sqlstate) return `fails, SQLSTATE ${e.sqlstate}, nothing changes`;
  const words = [`${e.affected} row(s) inserted or updated`];
  if (e.skipped) words.push(`${e.skipped} conflict(s) or skip(s)`);
  return words.join(', ');
}

/** Why a request did not reach the database, or "delivered" (its answer is another matter). */
function requestFate(run: Run, a: SqlAttempt): string {
  const t = run.trace;
  if (a.delivered) return `attempt ${a.attempt} timed out at the writer`;
  if (t.kind[a.request] === K['msg-lost']) return `lost to ${faultOf(run, t.cause[a.request]!)}`;
  return 'the database was down when it arrived';
}

/** Why the writer never heard attempt `a`'s answer: its response (caused by the request, or by a fault the request set off). */
function responseFate(run: Run, a: SqlAttempt): string {
  const t = run.trace;
  for (let i = a.to; i < Math.min(t.length, a.to + 10_000); i++) {
    if (t.aux[i] !== SINK_RESPONSE || (t.kind[i] !== K['msg-lost'] && t.kind[i] !== K.msg))
      continue;
    const c = t.cause[i]!;
    const byFault = c >= 0 && t.kind[c] === K['fault'] && t.cause[c] === a.request;
    if (c !== a.request && !byFault) continue;
    if (byFault) return `its answer was lost to ${faultOf(run, c)}: outcome unknown to the writer`;
    break;
  }
  return 'the writer was no longer waiting for its answer: outcome unknown to the writer';
}

function faultOf(run: Run, entry: number): string {
  const t = run.trace;
  if (entry >= 0 && t.kind[entry] === K['fault']) {
    const i = t.aux[entry]!;
    return `fault ${i + 1}, ${describeFault(run.scenario.faults[i])}`;
  }
  return 'a fault';
}

function scriptText(
  run: Run,
  c: TableSinkConfig,
  ddl: string[],
  steps: ScriptStep[],
  prepared: boolean,
): string {
  const rows = engineTable(run);
  const sum = rows.reduce((n, r) => n + r.amount, 0);
  const head = [
    sqlComment(
      `Delivery Lab: the SQL table sink ${c.name} sent in "${run.scenario.name}" (seed ${run.scenario.seed}).`,
    ),
    `-- ${sqlName(c.statement)}, one statement per ${c.statementPer}; key column${typeof c.key === 'string' ? '' : 's'} ${keyColumn(c)}${hasUniqueKey(c) ? ' (unique)' : ''}${c.dedupe ? `; dedupe table ${c.name}_processed` : ''}.`,
    '-- Run on a fresh database: psql -f sink.sql (see docs/sql.md).',
    ...(prepared
      ? [
          '-- Uses PREPARE TRANSACTION: the server needs max_prepared_transactions > 0 (its default is 0).',
        ]
      : []),
    `-- The engine ends with ${rows.length} row(s), sum ${sum}.`,
    ...[...ddl.map((d) => `${d};`), ''],
  ];
  const body = steps.map(stepText);
  const [id, amount, src] = (['id', 'amount', 'src'] as const).map((x) => columnSql(c, x));
  // Ids in their natural order: by length first, so e2 comes before e10 (text order: e1, e10, e2).
  const tail = [
    `SELECT ${id}, ${amount}, ${src} FROM ${ident(c.name)} ORDER BY length(${id}), ${id}, length(${src}), ${src};`,
  ];
  return `${[...head, ...body, ...tail].join('\n')}\n`;
}

/**
 * A line of text as one SQL comment line. A comment names records by their ids and the scenario
 * by its name, which may hold a line break; `--` ends at the line's end (\r too, for psql), so the
 * rest would run as SQL (https://www.postgresql.org/docs/current/sql-syntax-lexical.html#SQL-SYNTAX-COMMENTS).
 */
export function sqlComment(line: string): string {
  return `-- ${line.replace(/[\r\n]+/g, ' ')}`;
}

/** One step as script text: its comment, then its statements. */
function stepText(s: ScriptStep): string {
  const lines = s.comment.map(sqlComment);
  for (const q of s.sql) lines.push(`${q};`);
  return `${lines.join('\n')}\n`;
}
