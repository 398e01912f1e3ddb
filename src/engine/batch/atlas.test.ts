/**
 * The batch fault atlas over S21 (airflow-retry-append: try 1 of 2024-03-10 commits e1..e10, then
 * fails after the write; retries=1). Its space, from the first run: try 1 already has a fault, so
 * try 2 gets before-write, mid-write after 0..9 rows and after-write (12); one clear of the only
 * logical date (1); each of the 10 rows landing late, just after try 1 started reading (10): 23.
 */
import { describe, expect, it } from 'vitest';
import { parseScenario } from '../scenario/validate';
import { batchAtlas, batchPlacements } from './atlas';

/** S21's job (src/scenarios/library/batch.ts, airflow-retry-append) with the given write. */
const s21 = (mode: 'append' | 'overwrite-partition') => {
  const parsed = parseScenario({
    version: 1,
    name: 'S21',
    batch: {
      task: { retries: 1 },
      write: { mode },
      source: Array.from({ length: 10 }, (_, k) => ({
        id: `e${k + 1}`,
        date: '2024-03-10',
        amount: 10 * (k + 1),
      })),
      faults: [{ logicalDate: 0, tryNumber: 1, point: 'after-write' }],
    },
  });
  if (!parsed.ok || !parsed.scenario.batch) throw new Error('refused');
  return parsed.scenario.batch;
};
const tally = (cells: ReturnType<typeof batchAtlas>) => {
  const out: Record<string, number> = {};
  for (const c of cells) out[c.observed] = (out[c.observed] ?? 0) + 1;
  return out;
};

describe('the batch fault atlas', { timeout: 30_000 }, () => {
  it('enumerates crashes at every point of each attempt, a clear per date and each late row', () => {
    const kinds = batchPlacements(s21('append')).map((p) => p.kind);
    expect(kinds.filter((k) => k === 'crash')).toHaveLength(12);
    expect(kinds.filter((k) => k === 'clear')).toHaveLength(1);
    expect(kinds.filter((k) => k === 'late-row')).toHaveLength(10);
  });

  it('no clear past the 7 days a scenario may hold: the placement could not be opened', () => {
    // Seven daily dates: the first run ends at 7 d + 61 s (the run of 2024-03-16 starts at 7 d,
    // reads 60 s, writes 1 row), so a clear an hour later is past LIMITS.timeMs (604,800,000) —
    // refused as batch.clears.0.atMs. Crashes (7 × 3: before, after 0 rows, after) and late rows
    // (one per row) stay.
    const parsed = parseScenario({
      version: 1,
      name: 'a week',
      batch: {
        periods: 7,
        source: Array.from({ length: 7 }, (_, k) => ({ id: `d${k}`, date: `2024-03-1${k}` })),
      },
    });
    if (!parsed.ok || !parsed.scenario.batch) throw new Error('refused');
    const kinds = batchPlacements(parsed.scenario.batch).map((p) => p.kind);
    expect(kinds.filter((k) => k === 'clear')).toHaveLength(0);
    expect(kinds.filter((k) => k === 'crash')).toHaveLength(21);
    expect(kinds.filter((k) => k === 'late-row')).toHaveLength(7);
  });

  it('append: a crash of try 2 before its commit leaves one copy; after it, a clear or a late row duplicates', () => {
    // before-write, mid-write ×10 (an atomic write lands nothing): try 1's 10 rows only — 11 exact.
    // after-write: 20 rows; the clear: try 3 appends again, 30 rows; a late e_k: try 1 wrote 9,
    // try 2 appends 10 — 19 rows, 9 duplicates: 12 at-least-once.
    const cells = batchAtlas(s21('append'), 'exactly-once');
    expect(tally(cells)).toEqual({ 'exactly-once': 11, 'at-least-once': 12 });
    const late = cells.find((c) => c.placement.kind === 'late-row')!;
    expect([late.duplicates, late.lost]).toEqual([9, 0]);
  });

  it('an atomic overwrite of the pinned logical date is exact under every single fault', () => {
    // Every attempt replaces partition 2024-03-10 with the day as it reads it; the last one to
    // commit read all 10 (try 2 starts 5 min after the late row landed).
    // https://airflow.apache.org/docs/apache-airflow/stable/best-practices.html#creating-a-task
    const cells = batchAtlas(s21('overwrite-partition'), 'exactly-once');
    expect(cells).toHaveLength(23);
    expect(tally(cells)).toEqual({ 'exactly-once': 23 });
  });
});
