/**
 * A streaming table sink keyed by a content tuple instead of the event id (docs/semantics/sinks.md#content-keys):
 * two real events with equal content share one key, so the second merges into the first's row —
 * a loss of a real event (a false merge), not a duplicate. The key is built by the same rule as
 * the batch job's dedupe key (src/engine/dedupe/dedupeStore.ts dedupeKeyOf).
 *
 * The workload of every case, four real payments one record each, written one statement per
 * record by a consumer with no fault:
 *   p1 09:15:00 25 · p2 09:15:00 25 (another customer's payment, same second, same amount)
 *   p3 09:15:00 30 · p4 09:16:00 25
 * Keyed by (event_time, amount), p2 has p1's key; p3 and p4 differ in one column each.
 */
import { describe, expect, it } from 'vitest';
import { countsById, runScenario, totals } from '../testing';
import { parseScenario } from '../scenario/validate';
import { simulate } from '../simulate';
import { sinkSqlScript } from '../sql/script';

const payments = [
  { id: 'p1', amount: 25, at: 0, time: '09:15:00' },
  { id: 'p2', amount: 25, at: 1, time: '09:15:00' },
  { id: 'p3', amount: 30, at: 2, time: '09:15:00' },
  { id: 'p4', amount: 25, at: 3, time: '09:16:00' },
];
type Input = Parameters<typeof runScenario>[0];
const scenario = (sink: Record<string, unknown>): Input => ({
  workload: { topic: 'payments', events: payments },
  processor: {
    type: 'consumer',
    'enable.auto.commit': false,
    'auto.offset.reset': 'earliest',
    startAtMs: 1000,
  },
  sink: { type: 'table', name: 'payments', ...sink } as Input['sink'],
});
const run = (sink: Record<string, unknown>) => runScenario(scenario(sink));

describe('a streaming sink keyed by content merges two real events (a false merge)', () => {
  it('ON CONFLICT (event_time, amount) DO NOTHING: p2 is skipped into p1’s row — 3 rows, sum 80, p2 lost, named a false merge', () => {
    // PostgreSQL: "ON CONFLICT DO NOTHING simply avoids inserting a row as its alternative action"
    // (https://www.postgresql.org/docs/current/sql-insert.html#SQL-ON-CONFLICT): p1, p3, p4 insert,
    // p2 conflicts with p1's (09:15:00, 25). Rows 3, sum 25+30+25 = 80 of the true 105.
    const r = run({ statement: 'on-conflict-do-nothing', key: ['time', 'amount'] });
    expect(countsById(r)).toEqual({ p1: 1, p2: 0, p3: 1, p4: 1 });
    expect(totals(r)).toMatchObject({ rows: 3, duplicates: 0, lost: 1, sum: 80 });
    expect(r.verdict.observed).toBe('at-most-once');
    expect(r.verdict.falseMerges).toEqual([{ id: 'p2', into: 'p1' }]);
    const lost = r.verdict.explanations.filter((x) => x.fate === 'lost');
    expect(lost.map((x) => [x.events, x.sentence])).toEqual([
      [
        ['p2'],
        "p2 was merged into p1's row: the sink's key is (event_time, amount), not the event id, and both have event_time '09:15:00', amount 25 → ON CONFLICT (event_time, amount) DO NOTHING skipped p2; a real event lost (a false merge), not a duplicate",
      ],
    ]);
  });

  it('the same sink keyed by the event id keeps all four: 4 rows, sum 105, exactly-once, no false merge', () => {
    const r = run({ statement: 'on-conflict-do-nothing' });
    expect(totals(r)).toMatchObject({ rows: 4, duplicates: 0, lost: 0, sum: 105 });
    expect(r.verdict.observed).toBe('exactly-once');
    expect(r.verdict.falseMerges).toEqual([]);
  });

  it('DO UPDATE and MERGE fold p2 into p1’s row; a dedupe table keyed by (event_time) drops p2 and p3', () => {
    // DO UPDATE SET amount = EXCLUDED.amount: p2 updates p1's row (same amount 25): 3 rows, 80.
    const upd = run({ statement: 'on-conflict-do-update', key: ['time', 'amount'] });
    expect(totals(upd)).toMatchObject({ rows: 3, lost: 1, sum: 80 });
    expect(upd.verdict.falseMerges).toEqual([{ id: 'p2', into: 'p1' }]);
    // MERGE … WHEN MATCHED THEN UPDATE: the same.
    const mrg = run({
      statement: 'merge',
      merge: { whenMatched: 'update' },
      key: ['time', 'amount'],
    });
    expect(totals(mrg)).toMatchObject({ rows: 3, lost: 1, sum: 80 });
    expect(mrg.verdict.falseMerges).toEqual([{ id: 'p2', into: 'p1' }]);
    // A dedupe table keyed by event_time alone: p2 and p3 share p1's 09:15:00 → rows p1, p4: 50.
    const dd = run({ dedupe: { retentionMs: 60_000 }, key: ['time'] });
    expect(countsById(dd)).toEqual({ p1: 1, p2: 0, p3: 0, p4: 1 });
    expect(totals(dd)).toMatchObject({ rows: 2, lost: 2, sum: 50 });
    expect(dd.verdict.falseMerges).toEqual([
      { id: 'p2', into: 'p1' },
      { id: 'p3', into: 'p1' },
    ]);
  });

  it('the SQL export names the real statement: the content columns, UNIQUE and ON CONFLICT (event_time, amount)', () => {
    const parsed = parseScenario({
      version: 1,
      name: 'content key',
      ...scenario({ statement: 'on-conflict-do-nothing', key: ['time', 'amount'] }),
    });
    if (!parsed.ok) throw new Error(JSON.stringify(parsed.issues));
    const script = sinkSqlScript(simulate(parsed.scenario, { sql: true }));
    expect(script.ddl[0]).toBe(
      'CREATE TABLE payments (\n  id text NOT NULL,\n  amount numeric NOT NULL,\n  src text,\n  event_time text,\n  CONSTRAINT payments_key UNIQUE (event_time, amount)\n)',
    );
    expect(script.text).toContain(
      `INSERT INTO payments (id, amount, src, event_time) VALUES\n  ('p2', 25, 'payments-0@1', '09:15:00')\nON CONFLICT (event_time, amount) DO NOTHING;`,
    );
    expect(script.text).toContain('key columns event_time, amount (unique)');
  });

  it('a content column that is not a content column is refused, naming the field', () => {
    const parsed = parseScenario({
      version: 1,
      name: 'bad key',
      ...scenario({ statement: 'on-conflict-do-nothing', key: ['time', 'colour'] }),
    });
    expect(parsed.ok).toBe(false);
    expect(!parsed.ok && parsed.issues[0]!.path).toBe('sink.key');
  });
});
