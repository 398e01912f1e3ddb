/**
 * `--format sql` and `--against`: the script on stdout, and a clear refusal for what they cannot do.
 */
import { describe, expect, it } from 'vitest';
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
