/** Batch Compare's "what differs": the claim, then the job's fields each lane sets otherwise. */
import { expect, it } from 'vitest';
import { findPreset } from '../../scenarios';
import { defaultCompare } from '../compare/lanes';
import { batchCompareMarkdown, batchCompareView, diffLine } from './batchCompare';

it('redis-claim-order beside its other variants: the fields that differ, each lane in order', () => {
  const base = findPreset('redis-claim-order/claim-then-write')!.variant.scenario;
  const v = batchCompareView(base, { lanes: [{ guarantee: 'at-least-once' }] });
  expect(v.lanes).toHaveLength(2);
  // Every row names a field and gives one value per lane, and the values differ.
  expect(v.knobs.length).toBeGreaterThan(0);
  for (const k of v.knobs) {
    expect(k.values).toHaveLength(2);
    expect(new Set(k.values).size, k.name).toBeGreaterThan(1);
  }
  // The claim comes first (the guarantee switch changes it).
  expect(v.knobs[0]).toEqual({
    path: 'claim',
    name: 'claim',
    system: 'the verdict',
    values: ['exactly-once', 'at-least-once'],
  });
  // The at-least-once recipe retries the task (Airflow's retries): its path, its two values.
  expect(v.knobs).toContainEqual({
    path: 'batch.task.retries',
    name: 'batch.task.retries',
    system: 'batch job',
    values: ['1', '2'],
  });
  // The same lane twice: nothing differs.
  expect(batchCompareView(base, { lanes: [{}] }).knobs).toEqual([]);
});

it('airflow-retry-append beside at-most-once: every event differs, lane 1 says why it is twice', () => {
  // By hand (S21, src/scenarios/library/batch.ts): append, retries=1, try 1 of 2024-03-10 writes
  // e1..e10 and commits, then crashes after its write; try 2 appends them again — 2 rows each,
  // duplicated. The at-most-once recipe runs no retry: try 1's rows stay, 1 each, once. So all
  // 10 events differ, each `eN: 2 rows | 1 row`, lane 1 with the append's sentence, lane 2 none.
  const base = findPreset('airflow-retry-append/append')!.variant.scenario;
  const v = batchCompareView(base, { lanes: [{ guarantee: 'at-most-once' }] });
  expect(v.differing).toBe(10);
  expect(v.events.map(diffLine)).toEqual(
    Array.from({ length: 10 }, (_, i) => `e${i + 1}: 2 rows | 1 row`),
  );
  const e7 = v.events.find((e) => e.id === 'e7')!;
  expect(e7.cells.map((c) => c?.fate)).toEqual(['duplicated', 'once']);
  expect(e7.cells[0]!.why).toMatch(
    /^e7 \(dated 2024-03-10\) was written by try 1 of 2024-03-10 .*then by try 2 of 2024-03-10 .*: an append INSERT adds its rows again on every attempt\.$/,
  );
  // Once, exactly: nothing to explain (as the stream's diff gives no sentence to a kept event).
  expect(e7.cells[1]!.why).toBeNull();
});

it('clear-rerun-window (clock, overwrite) beside append: exactly e1..e3 differ, lost then kept', () => {
  // By hand (src/scenarios/library/batch.ts, clear-rerun-window): the re-run of 2024-03-10 reads
  // the clock's day (2024-03-12: f1, f2). Overwrite: partition 2024-03-10 now holds f1, f2, so
  // e1..e3 have 0 rows (lost) and f1, f2 2 each (own partition + the wrong one). Append (the
  // same, batch.write.mode = append): e1..e3 keep their 1 row, f1, f2 still 2. So e1, e2, e3
  // differ (`0 rows | 1 row`) and f1, f2 do not (`2 rows | 2 rows`, duplicated in both).
  const base = findPreset('clear-rerun-window/clock-overwrite')!.variant.scenario;
  const v = batchCompareView(base, {
    lanes: [{ knobs: [{ path: 'batch.write.mode', value: 'append' }] }],
  });
  expect(v.differing).toBe(3);
  expect(v.events.filter((e) => e.differs).map(diffLine)).toEqual([
    'e1: 0 rows | 1 row',
    'e2: 0 rows | 1 row',
    'e3: 0 rows | 1 row',
  ]);
  expect(v.events.filter((e) => !e.differs).map(diffLine)).toEqual([
    'f1: 2 rows | 2 rows',
    'f2: 2 rows | 2 rows',
  ]);
  const e2 = v.events.find((e) => e.id === 'e2')!;
  expect(e2.cells.map((c) => c?.fate)).toEqual(['lost', 'once']);
  // The lost row's why names the re-run that overwrote its partition from the clock.
  expect(e2.cells[0]!.why).toMatch(
    /^e2 was written by try 1 of 2024-03-10 .*then try 2 of 2024-03-10 \(cleared and re-run.*\) overwrote partition 2024-03-10 with its window read from the clock .*so e2's row is gone\.$/,
  );
  expect(e2.cells[1]!.why).toBeNull();
});

it('the Markdown section lists each lane sentence of the events that differ', () => {
  const base = findPreset('clear-rerun-window/clock-overwrite')!.variant.scenario;
  const md = batchCompareMarkdown(base, {
    lanes: [{ knobs: [{ path: 'batch.write.mode', value: 'append' }] }],
  });
  expect(md).toContain('| e1 | 0 rows, lost | 1 row, once |');
  // Three differing events, one sentence each (lane 2 keeps them once: nothing to explain).
  expect(md.match(/^- e\d, lane \d: /gm)).toEqual([
    '- e1, lane 1: ',
    '- e2, lane 1: ',
    '- e3, lane 1: ',
  ]);
});

it('a job the guarantee switch cannot change says so in each identical lane; "none" is said in words (#24.5)', () => {
  // backfill-beside-production: its 3 duplicates come from a backfill run beside the scheduled
  // one, which none of the recipes' settings touch (docs/semantics/batch.md "The guarantee
  // switch"): the at-most-once and at-least-once lanes write lane 1's 8 rows.
  const s = findPreset('backfill-beside-production')!.variant.scenario;
  const v = batchCompareView(s, defaultCompare(s));
  expect(v.lanes.map((l) => l.summary)).toEqual([
    '8 rows · 3 duplicates · 0 lost · 0 under the wrong partition · observed at-least-once',
    '8 rows · 3 duplicates · 0 lost · 0 under the wrong partition · observed at-least-once',
    '8 rows · 3 duplicates · 0 lost · 0 under the wrong partition · observed at-least-once',
  ]);
  expect(v.lanes.map((l) => l.sameAsFirst)).toEqual([
    null,
    'the same rows and fates as lane 1, event for event: the at-most-once recipe sets retries, the write mode and its atomicity, the window and the target partition, and that does not change what breaks this job',
    'the same rows and fates as lane 1, event for event: the at-least-once recipe sets retries, the write mode and its atomicity, the window and the target partition, and that does not change what breaks this job',
  ]);
  // clear-rerun-window's lane 1 loses 3 and duplicates 2: no guarantee, in words; its other
  // lanes pin the window, so they differ and say nothing of the kind.
  const c = findPreset('clear-rerun-window')!.variant.scenario;
  const w = batchCompareView(c, defaultCompare(c));
  expect(w.lanes[0]!.summary).toBe(
    '4 rows · 2 duplicates · 3 lost · 2 under the wrong partition · observed no guarantee (events lost and applied twice)',
  );
  expect(w.lanes.map((l) => l.sameAsFirst)).toEqual([null, null, null]);
});
