/**
 * `--format sql` and `--against`: the script on stdout, and a clear refusal for what they cannot do.
 */
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { main } from './main';
import { captured } from './cliTesting';

const cli = (argv: string[]) => captured(main, argv, { join: '' });

describe('sim --format sql', () => {
  it("prints the table sink's script: DDL, then each delivered statement", () => {
    // payment-resent-by-app/on-conflict-do-nothing: the app sends e-ids again; the sink's key is
    // unique, so the script's table carries the constraint and its statements ON CONFLICT.
    const r = cli(['payment-resent-by-app/on-conflict-do-nothing', '--format', 'sql']);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/^-- Delivery Lab: the SQL table sink /);
    expect(r.out).toContain('UNIQUE (id)');
    expect(r.out).toContain('ON CONFLICT (id) DO NOTHING;');
  });
  it('refuses a sink that is not a SQL table, naming its type', () => {
    const r = cli(['flink-checkpoint-replay/2pc-read-committed', '--format', 'sql']);
    expect(r.code).toBe(2);
    expect(r.err).toBe(
      '--format sql: the scenario\'s sink is "kafka", not a SQL table (sink.type "table")',
    );
  });
  it('--against takes a postgres:// URL', () => {
    const r = cli(['payment-resent-by-app/plain-insert', '--against', 'mysql://x/y']);
    expect(r.code).toBe(2);
    expect(r.err).toBe('--against: expected a postgres:// URL, got "mysql://x/y"');
  });
  it('--format sql is one run: not with --check', () => {
    const r = cli(['payment-resent-by-app/plain-insert', '--format', 'sql', '--check']);
    expect(r.code).toBe(2);
    expect(r.err).toBe('--format sql: applies to one run, not with --check');
  });
});

/** A stand-in for psql (`PSQL`): a shell script answering as a server would. */
const fakeDir = mkdtempSync(join(tmpdir(), 'delivery-lab-fake-psql-'));
afterAll(() => rmSync(fakeDir, { recursive: true, force: true }));
function fakePsql(name: string, body: string): string {
  const path = join(fakeDir, name);
  writeFileSync(path, `#!/bin/sh\n${body}\n`);
  chmodSync(path, 0o755);
  return path;
}
const URL = 'postgres://postgres@127.0.0.1:4370/postgres';

describe('--against refuses a database it cannot use (exit 2), before running the script', () => {
  const saved = process.env.PSQL;
  afterEach(() => {
    if (saved === undefined) delete process.env.PSQL;
    else process.env.PSQL = saved;
  });
  it('a server whose max_prepared_transactions is 0, for a script with PREPARE TRANSACTION', () => {
    // The old runner ran the script anyway: every PREPARE TRANSACTION failed, unseen, and it
    // reported 250 missing rows (exit 3).
    process.env.PSQL = fakePsql('mpt0', 'echo 0');
    const r = cli(['flink-checkpoint-replay/2pc-jdbc-xa', '--against', URL]);
    expect(r.code).toBe(2);
    expect(r.err).toBe(
      "--against: the script uses PREPARE TRANSACTION (the XA sink), and the server's max_prepared_transactions is 0, which disables it: set it above 0 (e.g. -c max_prepared_transactions=16, or in postgresql.conf) and restart the server",
    );
    expect(r.out).toBe('');
  });
  it("a server that cannot be reached: psql's error and a hint about the server, not about installing psql", () => {
    process.env.PSQL = fakePsql(
      'refused',
      'echo \'psql: error: connection to server at "127.0.0.1", port 4370 failed: Connection refused\' >&2; exit 2',
    );
    const r = cli(['payment-resent-by-app/plain-insert', '--against', URL]);
    expect(r.code).toBe(2);
    expect(r.err).toBe(
      '--against: PostgreSQL could not be reached: psql: error: connection to server at "127.0.0.1", port 4370 failed: Connection refused — check that the server is running and the URL\'s host, port, user and database',
    );
  });
  it('psql that cannot be started: the install hint', () => {
    process.env.PSQL = join(fakeDir, 'no-such-psql');
    const r = cli(['payment-resent-by-app/plain-insert', '--against', URL]);
    expect(r.code).toBe(2);
    expect(r.err).toBe(
      `--against: cannot start psql ("${join(fakeDir, 'no-such-psql')}": not found): it runs PostgreSQL's psql client — install it, e.g. Debian's postgresql-client, or set PSQL to its path`,
    );
  });
});
