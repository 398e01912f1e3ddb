/**
 * The sink's SQL of Flink's JDBC exactly-once (XA) sink replayed on a native PostgreSQL: PGlite
 * has no prepared transactions ("prepared transactions are disabled"), and the XA sink is
 * PREPARE TRANSACTION / COMMIT PREPARED / ROLLBACK PREPARED
 * (https://www.postgresql.org/docs/current/sql-prepare-transaction.html). One server for the file,
 * started by the test (src/cli/postgresServer.ts); the same assertions as sqlConformance.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { simulate } from '../engine';
import { sinkSqlScript } from '../engine/sql/script';
import { engineTable } from '../engine/sql/table';
import { startPostgres, type PostgresServer } from './postgresServer';
import { conformWithPsql } from './psql';
import { presetCases } from './sqlConformanceCases';
import { captured } from './cliTesting';
import { main } from './main';

let server: PostgresServer;
beforeAll(async () => {
  server = await startPostgres();
}, 180_000);
afterAll(() => server?.stop());

const xaCases = presetCases().filter((c) => c.scenario.sink.type === 'table' && c.scenario.sink.xa);

describe('a native PostgreSQL agrees with the engine on the XA sink', () => {
  it('has XA presets to check', () => {
    expect(xaCases.length).toBeGreaterThan(0);
  });
  it.each(xaCases.map((c) => [c.name, c] as const))(
    '%s',
    (_name, c) => {
      const run = simulate(c.scenario, { sql: true });
      const script = sinkSqlScript(run);
      // The XA sink's statements run in prepared transactions: what this suite is for.
      expect(script.prepared).toBe(true);
      const result = conformWithPsql(server.psql, server.connection, script, engineTable(run));
      expect(result.differences).toEqual([]);
    },
    120_000,
  );
});

describe('an error PostgreSQL reports is a difference, with its statement and message', () => {
  it('a statement the engine does not predict to fail', () => {
    // The old runner kept only a checked step's SQLSTATE: this step (unchecked, like the XA
    // sink's PREPARE TRANSACTION) failed unseen and the comparison passed.
    const run = simulate(xaCases[0]!.scenario, { sql: true });
    const script = sinkSqlScript(run);
    const failing = {
      comment: ['a step that fails'],
      sql: ['INSERT INTO no_such_table VALUES (1)'],
      expect: { affected: null, skipped: 0, sqlstate: null, outcomeUnknown: false },
      at: 0,
      prepared: false,
    };
    const result = conformWithPsql(
      server.psql,
      server.connection,
      { ...script, steps: [...script.steps, failing] },
      engineTable(run),
    );
    expect(result.ok).toBe(false);
    expect(result.differences).toEqual([
      'a step that fails: PostgreSQL reported ERROR 42P01: relation "no_such_table" does not exist — running INSERT INTO no_such_table VALUES (1);',
    ]);
  }, 120_000);
});

describe('sim <batch job> --against: its writes run on PostgreSQL, its table compared', () => {
  it('airflow-retry-append/overwrite: the retry replaces the partition, 10 rows as the engine says', () => {
    // Try 1 overwrites 2024-03-10 with e1..e10 and crashes after its commit; try 2 overwrites it
    // again (DELETE + INSERT in one transaction): 10 rows, not 20, on the server too.
    const [, host, , port, , user, , db] = server.connection;
    const url = `postgres://${user}@${host}:${port}/${db}`;
    const r = captured(main, ['airflow-retry-append/overwrite', '--against', url], { join: '' });
    expect(r.err).toBe('');
    expect(r.out).toBe(
      `2 step(s) run on postgres://…@${host}:${port}/${db}\n✓ PostgreSQL agrees: 10 row(s), the same as the engine's, and every statement's outcome\n`,
    );
    expect(r.code).toBe(0);
  }, 120_000);
});
