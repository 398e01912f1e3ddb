/**
 * Run a sink SQL script with `psql` (PostgreSQL's own client, https://www.postgresql.org/docs/current/app-psql.html)
 * in a fresh schema it creates and drops, and read back what happened: each step's command tags
 * (rows inserted/updated) and the SQLSTATE of its first error (`VERBOSITY verbose` prints it), then
 * the final table as JSON. Used by `sim --against` and the native conformance suite (prepared
 * transactions, which PGlite lacks). Needs no npm package: only a `psql` on the PATH (or `psql`).
 */
import type * as ChildProcess from 'node:child_process';
import { mkdtempSync, openSync, closeSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { compareWithDatabase, type Conformance, type StepResult } from '../engine/sql/compare';
import { gid, sqlComment, type SqlScript } from '../engine/sql/script';
import type { TableRow } from '../engine/sql/table';
import { readBackSql, tableRowsOf } from '../engine/sql/replay';

let runs = 0;

/**
 * node:child_process, loaded when psql is run: it is not among the modules node starts with, and
 * loading it cost every CLI run ~10 ms at start-up (issue 28), `--against` or not.
 */
function childProcess(): typeof ChildProcess {
  return createRequire(import.meta.url)('node:child_process') as typeof ChildProcess;
}

/** The psql input, and the statement each of its lines belongs to (psql names an error's line). */
interface PsqlInput {
  text: string;
  /** Per 1-based input line: the statement on it, or undefined (a meta-command, a comment). */
  statementAt: (string | undefined)[];
}

/** The psql input: the script's DDL and steps in schema `schema`, step markers, the table read back, cleanup. */
function psqlInput(script: SqlScript, schema: string): PsqlInput {
  const lines: string[] = [];
  const statementAt: (string | undefined)[] = [undefined];
  const meta = (...ls: string[]) => {
    for (const l of ls) {
      lines.push(l);
      statementAt.push(undefined);
    }
  };
  const statement = (sql: string) => {
    for (const l of sql.split('\n')) {
      lines.push(l);
      statementAt.push(sql);
    }
  };
  meta('\\set ON_ERROR_STOP 0', '\\set VERBOSITY verbose', '\\pset pager off');
  statement(`CREATE SCHEMA ${schema};`);
  statement(`SET search_path TO ${schema};`);
  // A statement waiting on a lock a prepared transaction holds would wait forever.
  statement("SET lock_timeout = '10s';");
  for (const d of script.ddl) statement(`${d};`);
  script.steps.forEach((s, i) => {
    // A comment names records by their ids, which may hold a line break (\r too ends a psql
    // line): kept on one line, or the rest would run as SQL.
    meta(`\\echo @@step ${i}`, ...s.comment.map(sqlComment));
    for (const q of s.sql) statement(`${q};`);
  });
  const prefix = gid(0).slice(1, -2);
  meta('\\echo @@rows', '\\pset tuples_only on', '\\pset format unaligned');
  statement(
    `SELECT coalesce(json_agg(json_build_object('id', id, 'amount', amount, 'src', src)), '[]'::json) FROM (${readBackSql(script)}) AS r;`,
  );
  meta('\\echo @@end');
  // Prepared transactions this run left in doubt hold locks on the table: end them, then drop.
  statement(
    `SELECT format('ROLLBACK PREPARED %L', gid) FROM pg_prepared_xacts WHERE database = current_database() AND gid LIKE '${prefix}%' \\gexec`,
  );
  statement('SET search_path TO public;');
  statement(`DROP SCHEMA ${schema} CASCADE;`);
  return { text: `${lines.join('\n')}\n`, statementAt };
}

/** An error psql reported: the input line, the step it ran in (-1: before the first, or after the last), SQLSTATE and message. */
interface PsqlError {
  line: number;
  step: number;
  sqlstate: string;
  message: string;
}

/** Each step's result, the final table and every error, parsed from psql's output (stdout and stderr in order). */
function parsePsqlOutput(
  output: string,
  steps: number,
): { results: StepResult[]; real: TableRow[]; errors: PsqlError[] } {
  const results: StepResult[] = Array.from({ length: steps }, () => ({
    affected: null,
    sqlstate: null,
  }));
  const errors: PsqlError[] = [];
  let current = -1;
  let real: TableRow[] | null = null;
  let inRows = false;
  for (const line of output.split('\n')) {
    const m = /^@@step (\d+)$/.exec(line);
    if (m) {
      current = Number(m[1]);
      results[current] = { affected: 0, sqlstate: null };
      continue;
    }
    if (line === '@@rows') {
      current = -1;
      inRows = true;
      continue;
    }
    if (line === '@@end') inRows = false;
    if (inRows && line.startsWith('[')) real = tableRowsOf(JSON.parse(line));
    // `VERBOSITY verbose`: "psql:<stdin>:LINE: ERROR:  SQLSTATE: message".
    const e = /^psql:[^:]*:(\d+): ERROR:\s+([0-9A-Z]{5}):\s*(.*)$/.exec(line);
    if (e) errors.push({ line: Number(e[1]), step: current, sqlstate: e[2]!, message: e[3]! });
    const r = current >= 0 ? results[current]! : null;
    if (!r) continue;
    const err = /ERROR:\s+([0-9A-Z]{5}):/.exec(line);
    if (err && r.sqlstate === null) r.sqlstate = err[1]!;
    const tag = /^(?:INSERT \d+ (\d+)|MERGE (\d+))$/.exec(line);
    if (tag && r.sqlstate === null) r.affected! += Number(tag[1] ?? tag[2]);
  }
  if (!real) throw new Error(`psql: the table could not be read back:\n${output.slice(-2000)}`);
  for (const r of results) if (r.sqlstate) r.affected = 0;
  return { results, real, errors };
}

/**
 * The errors the engine does not predict, one sentence each with the statement and PostgreSQL's
 * message: every error outside the steps (the schema, the DDL, the read-back, the cleanup), and
 * in a step every error but the SQLSTATE the engine says it fails with (and 25P02, "current
 * transaction is aborted", for the statements after it in the same transaction).
 */
function unexpectedErrors(
  script: SqlScript,
  input: PsqlInput,
  errors: readonly PsqlError[],
): string[] {
  const words: string[] = [];
  let expectedIn = -1;
  for (const e of errors) {
    const step = e.step >= 0 ? script.steps[e.step] : undefined;
    if (step && step.expect.sqlstate === e.sqlstate) {
      expectedIn = e.step;
      continue;
    }
    if (e.sqlstate === '25P02' && expectedIn === e.step && e.step >= 0) continue;
    const statement = input.statementAt[e.line] ?? `line ${e.line} of psql's input`;
    const short = statement.length > 160 ? `${statement.slice(0, 157)}…` : statement;
    const where = step ? `${step.comment[0] ?? `step ${e.step + 1}`}: ` : '';
    words.push(`${where}PostgreSQL reported ERROR ${e.sqlstate}: ${e.message} — running ${short}`);
  }
  return words;
}

/**
 * Why `--against` cannot use this database (exit 2 in the CLI: not a difference from the engine):
 * psql cannot be started, the server cannot be reached, or a setting the script needs is off.
 */
export class AgainstRefusal extends Error {}

/** Run psql with `args` and `input`; its exit status and its output (stdout and stderr in order). */
function runPsql(
  psql: string,
  args: string[],
  input: string,
): { status: number | null; output: string } {
  const dir = mkdtempSync(join(tmpdir(), 'delivery-lab-psql-'));
  const outFile = join(dir, 'out.txt');
  const fd = openSync(outFile, 'w');
  try {
    const r = childProcess().spawnSync(psql, args, {
      input,
      stdio: ['pipe', fd, fd],
      timeout: 300_000,
    });
    if (r.error) {
      if ((r.error as NodeJS.ErrnoException).code === 'ENOENT')
        throw new AgainstRefusal(
          `cannot start psql ("${psql}": not found): it runs PostgreSQL's psql client — install it, e.g. Debian's postgresql-client, or set PSQL to its path`,
        );
      throw new Error(`psql: ${r.error.message}`);
    }
    return { status: r.status, output: readFileSync(outFile, 'utf8') };
  } finally {
    closeSync(fd);
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Connect once before the script, and read the one setting a script may need: PREPARE TRANSACTION
 * fails with "prepared transactions are disabled" while `max_prepared_transactions` is 0, its
 * default (https://www.postgresql.org/docs/current/runtime-config-resource.html#GUC-MAX-PREPARED-TRANSACTIONS).
 */
function checkServer(psql: string, connection: string[], script: SqlScript): void {
  const r = runPsql(
    psql,
    [...connection, '-X', '-A', '-t', '-c', 'SHOW max_prepared_transactions'],
    '',
  );
  if (r.status !== 0)
    throw new AgainstRefusal(
      `PostgreSQL could not be reached: ${r.output.trim().replace(/\s*\n\s*/g, ' ')} — check that the server is running and the URL's host, port, user and database`,
    );
  const max = Number(r.output.trim());
  if (script.prepared && max === 0)
    throw new AgainstRefusal(
      "the script uses PREPARE TRANSACTION (the XA sink), and the server's max_prepared_transactions is 0, which disables it: set it above 0 (e.g. -c max_prepared_transactions=16, or in postgresql.conf) and restart the server",
    );
}

/**
 * Run `script` with psql on the database `connection` names (psql arguments: a URL, or -h/-p/-U/-d)
 * and compare with the engine's rows; an error PostgreSQL reports that the engine does not predict
 * is a difference too, with its statement and message. Throws an AgainstRefusal when psql cannot
 * be started, the server cannot be reached, or the script needs prepared transactions it disables.
 */
export function conformWithPsql(
  psql: string,
  connection: string[],
  script: SqlScript,
  engineRows: readonly TableRow[],
): Conformance {
  checkServer(psql, connection, script);
  const schema = `delivery_lab_${process.pid}_${++runs}`;
  const input = psqlInput(script, schema);
  const { status, output } = runPsql(psql, [...connection, '-X', '-f', '-'], input.text);
  if (status !== 0 && !output.includes('@@end'))
    throw new Error(`psql exited with ${status}:\n${output.slice(-2000)}`);
  const { results, real, errors } = parsePsqlOutput(output, script.steps.length);
  const c = compareWithDatabase(script, engineRows, results, real);
  const unexpected = unexpectedErrors(script, input, errors);
  if (unexpected.length === 0) return c;
  return { ...c, ok: false, differences: [...unexpected, ...c.differences] };
}
