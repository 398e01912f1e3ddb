/**
 * The sink's SQL replayed on a real PostgreSQL (PGlite, PostgreSQL 17 in WebAssembly): for every
 * preset variant and example with a table sink, and every statement × key × statementPer on a
 * small workload, the final table must equal the engine's row for row, a statement the engine
 * says fails must fail with the same SQLSTATE, and one it says conflicted must affect 0 rows
 * (src/engine/sql/compare.ts). Scripts with PREPARE TRANSACTION (Flink's XA sink) run on a native
 * server instead: sqlConformanceNative.test.ts. A difference is a bug in the model, not the test.
 */
import { PGlite } from '@electric-sql/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { simulate } from '../engine';
import { conformInSchema, queryClient } from '../engine/sql/replay';
import { sinkSqlScript } from '../engine/sql/script';
import { engineTable } from '../engine/sql/table';
import {
  combinationCases,
  presetCases,
  renamedCases,
  RENAMED_COLUMNS,
  type ConformanceCase,
} from './sqlConformanceCases';

let pg: PGlite;
beforeAll(async () => {
  pg = await PGlite.create();
}, 180_000);
afterAll(async () => {
  await pg?.close();
});

/** The case's script, or null when it needs prepared transactions (the native suite's). */
function scriptOf(c: ConformanceCase) {
  const run = simulate(c.scenario, { sql: true });
  const script = sinkSqlScript(run);
  return script.prepared ? null : { script, rows: engineTable(run) };
}

const presetsOnPglite = presetCases().filter(
  (c) => !(c.scenario.sink.type === 'table' && c.scenario.sink.xa),
);
const combos = combinationCases();
const renamed = renamedCases();

describe('PGlite agrees with the engine', () => {
  it('covers the table-sink presets and every combination the schema accepts', () => {
    // 11 statement forms × 3 keys × 2 (per record, per batch) = 66 (sqlConformanceCases.ts).
    expect(combos.length).toBe(66);
    expect(presetsOnPglite.length).toBeGreaterThan(20);
  });
  it.each([...presetsOnPglite, ...combos].map((c) => [c.name, c] as const))(
    '%s',
    async (_name, c) => {
      const s = scriptOf(c);
      if (!s) return;
      const result = await conformInSchema(queryClient(pg), s.script, s.rows);
      expect(result.differences).toEqual([]);
    },
    60_000,
  );
});

describe("PGlite runs the statements under the user's column names (sink.columns)", () => {
  it('covers every statement form and key', () => {
    // 11 statement forms × 3 keys, per record (sqlConformanceCases.ts).
    expect(renamed.length).toBe(33);
  });
  it.each(renamed.map((c) => [c.name, c] as const))(
    '%s',
    async (_name, c) => {
      const s = scriptOf(c)!;
      // The user's names in every statement, the lab's nowhere: no column list or key says id.
      expect(s.script.text).toContain(`${RENAMED_COLUMNS.id} text NOT NULL`);
      expect(s.script.text).toContain('"Amount_EUR" numeric NOT NULL');
      expect(s.script.text).toContain('"order" text');
      expect(s.script.text).not.toMatch(/\(id[,)]/);
      const result = await conformInSchema(queryClient(pg), s.script, s.rows);
      expect(result.differences).toEqual([]);
    },
    60_000,
  );
});
