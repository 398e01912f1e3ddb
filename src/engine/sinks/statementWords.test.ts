import { describe, expect, it } from 'vitest';
import { parseScenario } from '../scenario/validate';
import type { TableSinkConfig } from '../scenario/schema';
import { sinkWriteLabel, sqlName, sqlShape } from './statementWords';

function tableSink(sink: Record<string, unknown>): TableSinkConfig {
  const r = parseScenario({
    version: 1,
    name: 't',
    workload: { events: [{ id: 'e1', amount: 10, at: 0 }] },
    sink: { type: 'table', ...sink },
  });
  if (!r.ok || r.scenario.sink.type !== 'table') throw new Error('bad test sink');
  return r.scenario.sink;
}

describe('the sink statement in its three forms', () => {
  it('names the key column as the SQL the sink runs does (id, the business id), on any table', () => {
    const orders = tableSink({ name: 'orders', statement: 'on-conflict-do-nothing' });
    expect([sqlName(orders.statement), sinkWriteLabel(orders), sqlShape(orders)]).toEqual([
      'INSERT … ON CONFLICT DO NOTHING',
      'INSERT ON CONFLICT DO NOTHING',
      'INSERT … ON CONFLICT (id) DO NOTHING',
    ]);
    expect(sqlShape(tableSink({ name: 'kv', statement: 'merge' }))).toBe(
      'MERGE INTO kv USING … ON id',
    );
  });

  it('a plain INSERT', () => {
    const t = tableSink({ name: 'payments', statement: 'insert' });
    expect([sqlName(t.statement), sinkWriteLabel(t), sqlShape(t)]).toEqual([
      'a plain INSERT',
      'INSERT',
      'INSERT INTO payments …',
    ]);
  });

  it("names the columns as the user's statement did when the scenario came from it", () => {
    const theirs = tableSink({
      name: 'payments',
      statement: 'on-conflict-do-update',
      columns: { id: 'payment_id', amount: 'amt' },
    });
    expect(sqlShape(theirs)).toBe(
      'INSERT … ON CONFLICT (payment_id) DO UPDATE SET amt = EXCLUDED.amt',
    );
    expect(sqlShape(tableSink({ statement: 'merge', columns: { id: 'pid' } }))).toBe(
      'MERGE INTO sink USING … ON pid',
    );
  });
});
