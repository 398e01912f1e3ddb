/**
 * The engine's sink against a real PostgreSQL: the final table row for row (id, amount, source,
 * then count and sum), and each checked step's outcome — the SQLSTATE of a statement the engine
 * says fails, the row count of one it says succeeds (0 for a conflict).
 */
import type { SqlScript } from './script';
import type { TableRow } from './table';

/** What the real database did with one step of the script. */
export interface StepResult {
  /** Rows inserted or updated (PostgreSQL's command tags, summed over the step), or null: not run. */
  affected: number | null;
  /** The SQLSTATE it failed with, or null. */
  sqlstate: string | null;
}

/** The comparison: `ok` when nothing differs. */
export interface Conformance {
  ok: boolean;
  /** One sentence per difference. */
  differences: string[];
  engine: TableRow[];
  real: TableRow[];
}

/** Rows sorted for comparison: by id, then source, then amount. */
function sortRows(rows: readonly TableRow[]): TableRow[] {
  return [...rows].sort(
    (a, b) => cmp(a.id, b.id) || cmp(a.src ?? '', b.src ?? '') || a.amount - b.amount,
  );
}

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Amounts agree up to the float rounding of a sum (the engine adds doubles, PostgreSQL numerics). */
function sameAmount(a: number, b: number): boolean {
  return Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(a), Math.abs(b));
}

function rowWords(r: TableRow): string {
  return `(${r.id}, ${r.amount}, ${r.src ?? 'no source'})`;
}

/** Compare the engine's table and steps with what the real database did. */
export function compareWithDatabase(
  script: SqlScript,
  engineRows: readonly TableRow[],
  results: readonly StepResult[],
  realRows: readonly TableRow[],
): Conformance {
  const differences: string[] = [];
  script.steps.forEach((step, i) => {
    const want = step.expect;
    const got = results[i];
    if (want.affected === null || !got) return;
    const what = step.comment[0] ?? `step ${i + 1}`;
    if (want.sqlstate !== got.sqlstate) {
      differences.push(
        `${what}: the engine says ${want.sqlstate ? `it fails with SQLSTATE ${want.sqlstate}` : 'it succeeds'}, PostgreSQL ${got.sqlstate ? `failed with SQLSTATE ${got.sqlstate}` : 'ran it'}`,
      );
      return;
    }
    if (!want.sqlstate && got.affected !== want.affected)
      differences.push(
        `${what}: the engine says ${want.affected} row(s) inserted or updated, PostgreSQL ${got.affected}`,
      );
  });
  const engine = sortRows(engineRows);
  const real = sortRows(realRows);
  if (engine.length !== real.length)
    differences.push(`the engine's table has ${engine.length} row(s), PostgreSQL's ${real.length}`);
  const sum = (rows: TableRow[]) => rows.reduce((n, r) => n + r.amount, 0);
  if (!sameAmount(sum(engine), sum(real)))
    differences.push(`the engine's sum is ${sum(engine)}, PostgreSQL's ${sum(real)}`);
  for (let i = 0; i < Math.max(engine.length, real.length); i++) {
    const e = engine[i];
    const r = real[i];
    if (e && r && e.id === r.id && e.src === r.src && sameAmount(e.amount, r.amount)) continue;
    differences.push(
      `row ${i + 1}: the engine has ${e ? rowWords(e) : 'none'}, PostgreSQL ${r ? rowWords(r) : 'none'}`,
    );
    if (differences.length > 20) break;
  }
  return { ok: differences.length === 0, differences, engine, real };
}

/** The comparison in a few lines: ✓, or each difference. */
export function conformanceText(c: Conformance): string {
  if (c.ok)
    return `✓ PostgreSQL agrees: ${c.real.length} row(s), the same as the engine's, and every statement's outcome\n`;
  return `✗ PostgreSQL differs from the engine:\n${c.differences.map((d) => `  - ${d}`).join('\n')}\n`;
}
