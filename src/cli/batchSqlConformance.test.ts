/**
 * A batch job's writes replayed on a real PostgreSQL (PGlite, PostgreSQL 17 in WebAssembly): for
 * every batch preset variant, the statements the batch engine recorded, as PostgreSQL runs them
 * (src/views/batch/batchPostgres.ts), must leave the engine's target table row for row — each
 * row's event, amount and partition. A difference is a bug in the model, not the test.
 */
import { PGlite } from '@electric-sql/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseScenario, runBatch, type Scenario } from '../engine';
import { conformInSchema, queryClient } from '../engine/sql/replay';
import { batchPresets } from '../scenarios';
import { batchEngineTable, batchPostgresScript } from '../views/batch/batchPostgres';

let pg: PGlite;
beforeAll(async () => {
  pg = await PGlite.create();
}, 180_000);
afterAll(async () => {
  await pg?.close();
});

const cases = batchPresets.flatMap((p) =>
  p.variants.map((v) => {
    const r = parseScenario(v.scenario);
    if (!r.ok) throw new Error(`${p.id}/${v.id} does not parse`);
    return [`${p.id}/${v.id}`, r.scenario] as const;
  }),
);

async function conform(s: Scenario) {
  const r = runBatch(s);
  return conformInSchema(queryClient(pg), batchPostgresScript(s, r), batchEngineTable(r));
}

describe('PostgreSQL agrees with the batch engine', () => {
  it('covers every batch preset variant', () => {
    expect(cases.length).toBe(20);
  });

  it.each(cases)(
    '%s',
    async (_name, s) => {
      const result = await conform(s);
      expect(result.differences).toEqual([]);
    },
    60_000,
  );

  it('airflow-retry-append: the retried INSERT lands twice on PostgreSQL too (20 rows, by hand)', async () => {
    // Try 1 inserts e1..e10 into 2024-03-10 and crashes after its commit; try 2 inserts them
    // again: 20 rows, amounts 2 × (10 + … + 100) = 1,100.
    const s = cases.find(([n]) => n.startsWith('airflow-retry-append/'))![1];
    const result = await conform(s);
    expect(result.real.length).toBe(20);
    expect(result.real.reduce((n, row) => n + row.amount, 0)).toBe(1100);
    expect(new Set(result.real.map((row) => row.src))).toEqual(new Set(['2024-03-10']));
  }, 60_000);

  it('dbt delete+insert on a content key: both events with one key keep a row on PostgreSQL (3 rows)', async () => {
    // dbt: DELETE the source's keys, then INSERT every source row, not deduplicated. a1 and a2
    // share (event_time, amount); the retry deletes the 3 rows and inserts the 3 again.
    const r = parseScenario({
      version: 1,
      name: 'dbt delete+insert, content key',
      batch: {
        task: { retries: 1 },
        write: { mode: 'dbt-incremental', uniqueKey: true, strategy: 'delete+insert' },
        dedupeKey: ['time', 'amount'],
        source: [
          { id: 'a1', date: '2024-03-10', time: '09:00', amount: 5 },
          { id: 'a2', date: '2024-03-10', time: '09:00', amount: 5 },
          { id: 'a3', date: '2024-03-10', time: '10:00', amount: 9 },
        ],
        faults: [{ logicalDate: 0, tryNumber: 1, point: 'after-write' }],
      },
    });
    if (!r.ok) throw new Error('does not parse');
    const result = await conform(r.scenario);
    expect(result.differences).toEqual([]);
    expect(result.real.map((row) => row.id).sort()).toEqual(['a1', 'a2', 'a3']);
  }, 60_000);

  it('dbt merge retried on a key two events share: PostgreSQL refuses the MERGE as the engine does (21000), the table kept', async () => {
    // Try 1's MERGE inserts e1 and e2 (the target lacks amount 10); try 2's matches each of their
    // rows with both new rows: "MERGE command cannot affect row a second time" (cardinality_violation).
    // The refused MERGE was not replayed: the engine's refusal went unchecked.
    const r = parseScenario({
      version: 1,
      name: 'dbt merge, shared key',
      batch: {
        task: { retries: 1 },
        write: { mode: 'dbt-incremental', uniqueKey: true, strategy: 'merge' },
        dedupeKey: ['amount'],
        source: [
          { id: 'e1', date: '2024-03-10', amount: 10 },
          { id: 'e2', date: '2024-03-10', amount: 10 },
        ],
        faults: [{ logicalDate: 0, tryNumber: 1, point: 'after-write' }],
      },
    });
    if (!r.ok) throw new Error('does not parse');
    const script = batchPostgresScript(r.scenario);
    expect(script.steps.map((s) => s.expect.sqlstate)).toEqual([null, '21000']);
    const result = await conform(r.scenario);
    // A step whose SQLSTATE differs from the engine's is a difference (src/engine/sql/compare.ts).
    expect(result.differences).toEqual([]);
    expect(result.real.map((row) => row.id).sort()).toEqual(['e1', 'e2']);
  }, 60_000);
});
