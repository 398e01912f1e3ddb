/**
 * The sink's SQL script of two hand-built scenarios, against scripts written out by hand.
 */
import { describe, expect, it } from 'vitest';
import { parseScenario } from '../scenario/validate';
import { simulate } from '../simulate';
import { sinkSqlScript } from './script';

function scriptOf(raw: unknown) {
  const parsed = parseScenario(raw);
  if (!parsed.ok) throw new Error(parsed.issues[0]?.message);
  return sinkSqlScript(simulate(parsed.scenario, { sql: true }));
}

const consumer = {
  type: 'consumer',
  'enable.auto.commit': false,
  'auto.offset.reset': 'earliest',
  startAtMs: 1000,
};

describe('the sink SQL script', () => {
  it('a retried INSERT whose first answer was lost: both attempts were delivered, two rows', () => {
    // Attempt 1 reaches the database and inserts e1; fault 1 drops its answer, so after
    // statement.timeout.ms (500 ms) the writer sends it again (retries 3) and attempt 2 inserts e1
    // a second time — a plain INSERT has no key to conflict on
    // (https://www.postgresql.org/docs/current/sql-insert.html): 2 rows, sum 20.
    const script = scriptOf({
      version: 1,
      name: 'retried insert',
      workload: { topic: 'payments', events: [{ id: 'e1', amount: 10, at: 0 }] },
      producer: { 'linger.ms': 0 },
      processor: consumer,
      sink: { type: 'table', name: 'payments', 'statement.timeout.ms': 500 },
      faults: [{ kind: 'drop-response', link: 'sink' }],
    });
    expect(script.text).toBe(
      [
        '-- Delivery Lab: the SQL table sink payments sent in "retried insert" (seed 1).',
        '-- a plain INSERT, one statement per record; key column id.',
        '-- Run on a fresh database: psql -f sink.sql (see docs/sql.md).',
        '-- The engine ends with 2 row(s), sum 20.',
        'CREATE TABLE payments (',
        '  id text NOT NULL,',
        '  amount numeric NOT NULL,',
        '  src text',
        ');',
        '',
        '-- statement 1 (e1 from payments-0@0), attempt 1',
        '-- engine: 1 row(s) inserted or updated — its answer was lost to fault 1, a lost sink response: outcome unknown to the writer',
        'INSERT INTO payments (id, amount, src) VALUES',
        "  ('e1', 10, 'payments-0@0');",
        '',
        '-- statement 1 (e1 from payments-0@0), attempt 2 (a retry: attempt 1 timed out at the writer)',
        '-- engine: 1 row(s) inserted or updated',
        'INSERT INTO payments (id, amount, src) VALUES',
        "  ('e1', 10, 'payments-0@0');",
        '',
        'SELECT id, amount, src FROM payments ORDER BY length(id), id, length(src), src;',
      ].join('\n') + '\n',
    );
    expect(script.steps.map((s) => s.expect)).toEqual([
      { affected: 1, skipped: 0, sqlstate: null, outcomeUnknown: true },
      { affected: 1, skipped: 0, sqlstate: null, outcomeUnknown: false },
    ]);
  });

  it('a MERGE whose source holds one key twice fails with SQLSTATE 21000, nothing changes', () => {
    // One poll of 2 records (max.poll.records 2), one statement per batch: both source rows have
    // id e1, which the table already holds, so both are MATCHED and would update one row twice —
    // "MERGE command cannot affect row a second time", cardinality_violation 21000
    // (https://www.postgresql.org/docs/current/sql-merge.html). onStatementError halt: the
    // consumer stops; the table keeps its 1 row, sum 1.
    const script = scriptOf({
      version: 1,
      name: 'merge duplicate source key',
      workload: {
        topic: 'payments',
        events: [
          { id: 'e1', amount: 10, at: 0 },
          { id: 'e1', amount: 15, at: 10 },
        ],
      },
      producer: { 'linger.ms': 0 },
      processor: { ...consumer, 'max.poll.records': 2 },
      sink: {
        type: 'table',
        name: 'payments',
        statement: 'merge',
        statementPer: 'batch',
        initialRows: [{ id: 'e1', amount: 1 }],
      },
    });
    expect(script.text).toBe(
      [
        '-- Delivery Lab: the SQL table sink payments sent in "merge duplicate source key" (seed 1).',
        '-- MERGE, one statement per batch; key column id.',
        '-- Run on a fresh database: psql -f sink.sql (see docs/sql.md).',
        '-- The engine ends with 1 row(s), sum 1.',
        'CREATE TABLE payments (',
        '  id text NOT NULL,',
        '  amount numeric NOT NULL,',
        '  src text',
        ');',
        'INSERT INTO payments (id, amount) VALUES',
        "  ('e1', 1);",
        '',
        '-- statement 1 (e1 from payments-0@0, e1 from payments-0@1), attempt 1',
        '-- engine: fails, SQLSTATE 21000, nothing changes',
        'MERGE INTO payments AS t',
        'USING (VALUES',
        "  ('e1', 10, 'payments-0@0', 0),",
        "  ('e1', 15, 'payments-0@1', 1)",
        ') AS s(id, amount, src, ord)',
        'ON t.id = s.id',
        'WHEN MATCHED THEN UPDATE SET amount = s.amount',
        'WHEN NOT MATCHED THEN INSERT (id, amount, src) VALUES (s.id, s.amount, s.src);',
        '',
        'SELECT id, amount, src FROM payments ORDER BY length(id), id, length(src), src;',
      ].join('\n') + '\n',
    );
    expect(script.steps.map((s) => s.expect)).toEqual([
      { affected: 0, skipped: 0, sqlstate: '21000', outcomeUnknown: false },
    ]);
  });

  it('a line break in a record id or the scenario name stays inside its comment line', () => {
    // `--` comments end at a line break, \r included: an id "e1\r\nDROP TABLE x;" written as
    // is would run its second line as SQL. The comment keeps the id on one line
    // (the id's break stays inside the INSERT's string literal, where it is data).
    const script = scriptOf({
      version: 1,
      name: 'two\nlines',
      workload: { topic: 'payments', events: [{ id: 'e1\r\nDROP TABLE x;', amount: 10, at: 0 }] },
      producer: { 'linger.ms': 0 },
      processor: consumer,
      sink: { type: 'table', name: 'payments' },
    });
    const lines = script.text.split(/\r\n|\r|\n/);
    expect(lines[0]).toBe(
      '-- Delivery Lab: the SQL table sink payments sent in "two lines" (seed 1).',
    );
    expect(lines).not.toContain('DROP TABLE x; from payments-0@0), attempt 1');
    expect(lines.filter((l) => l.startsWith('-- statement 1'))).toEqual([
      '-- statement 1 (e1 DROP TABLE x; from payments-0@0), attempt 1',
    ]);
  });
});
