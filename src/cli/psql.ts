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
import { gid, stepText, type SqlScript } from '../engine/sql/script';
import { ident, type TableRow } from '../engine/sql/table';
import { tableRowsOf } from '../engine/sql/replay';

let runs = 0;

/**
 * node:child_process, loaded when psql is run: it is not among the modules node starts with, and
 * loading it cost every CLI run ~10 ms at start-up (issue 28), `--against` or not.
 */
function childProcess(): typeof ChildProcess {
  return createRequire(import.meta.url)('node:child_process') as typeof ChildProcess;
}

/** The psql input: the script's DDL and steps in schema `schema`, step markers, the table read back, cleanup. */
function psqlInput(script: SqlScript, schema: string): string {
  const lines = [
    '\\set ON_ERROR_STOP 0',
    '\\set VERBOSITY verbose',
    '\\pset pager off',
    `CREATE SCHEMA ${schema};`,
    `SET search_path TO ${schema};`,
    // A statement waiting on a lock a prepared transaction holds would wait forever.
    "SET lock_timeout = '10s';",
    ...script.ddl.map((d) => `${d};`),
  ];
  script.steps.forEach((s, i) => {
    lines.push(`\\echo @@step ${i}`, stepText(s));
  });
  const prefix = gid(0).slice(1, -2);
  lines.push(
    '\\echo @@rows',
    '\\pset tuples_only on',
    '\\pset format unaligned',
    `SELECT coalesce(json_agg(json_build_object('id', id, 'amount', amount::text, 'src', src)), '[]'::json) FROM ${ident(script.table)};`,
    '\\echo @@end',
    // Prepared transactions this run left in doubt hold locks on the table: end them, then drop.
    `SELECT format('ROLLBACK PREPARED %L', gid) FROM pg_prepared_xacts WHERE database = current_database() AND gid LIKE '${prefix}%' \\gexec`,
    'SET search_path TO public;',
    `DROP SCHEMA ${schema} CASCADE;`,
  );
  return `${lines.join('\n')}\n`;
}

/** Each step's result and the final table, parsed from psql's output (stdout and stderr in order). */
function parsePsqlOutput(
  output: string,
  steps: number,
): { results: StepResult[]; real: TableRow[] } {
  const results: StepResult[] = Array.from({ length: steps }, () => ({
    affected: null,
    sqlstate: null,
  }));
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
    const r = current >= 0 ? results[current]! : null;
    if (!r) continue;
    const err = /ERROR:\s+([0-9A-Z]{5}):/.exec(line);
    if (err && r.sqlstate === null) r.sqlstate = err[1]!;
    const tag = /^(?:INSERT \d+ (\d+)|MERGE (\d+))$/.exec(line);
    if (tag && r.sqlstate === null) r.affected! += Number(tag[1] ?? tag[2]);
  }
  if (!real) throw new Error(`psql: the table could not be read back:\n${output.slice(-2000)}`);
  for (const r of results) if (r.sqlstate) r.affected = 0;
  return { results, real };
}

/**
 * Run `script` with psql on the database `connection` names (psql arguments: a URL, or -h/-p/-U/-d)
 * and compare with the engine's rows. Throws when psql cannot be run or connect.
 */
export function conformWithPsql(
  psql: string,
  connection: string[],
  script: SqlScript,
  engineRows: readonly TableRow[],
): Conformance {
  const schema = `delivery_lab_${process.pid}_${++runs}`;
  const dir = mkdtempSync(join(tmpdir(), 'delivery-lab-psql-'));
  const outFile = join(dir, 'out.txt');
  const fd = openSync(outFile, 'w');
  try {
    const r = childProcess().spawnSync(psql, [...connection, '-X', '-f', '-'], {
      input: psqlInput(script, schema),
      stdio: ['pipe', fd, fd],
      timeout: 300_000,
    });
    if (r.error) throw new Error(`psql: ${r.error.message}`);
    const output = readFileSync(outFile, 'utf8');
    if (r.status !== 0 && !output.includes('@@end'))
      throw new Error(`psql exited with ${r.status}:\n${output.slice(-2000)}`);
    const { results, real } = parsePsqlOutput(output, script.steps.length);
    return compareWithDatabase(script, engineRows, results, real);
  } finally {
    closeSync(fd);
    rmSync(dir, { recursive: true, force: true });
  }
}
