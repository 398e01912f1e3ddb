import { describe, expect, it } from 'vitest';
import { findPreset } from '../../scenarios';
import { rowId } from './at';
import { computeRunView } from './computeRun';
import { firstDuplicateRow, rowBeforeFirstLoss } from './firstDuplicateRow';

describe('firstDuplicateRow', () => {
  it("is at-least-once's first re-delivered row, not its last row", () => {
    const r = computeRunView(structuredClone(findPreset('at-least-once')!.variant.scenario));
    if (!r.ok) throw new Error('preset invalid');
    const table = r.view.tables[r.view.primaryTable]!;
    // By hand (src/scenarios/foundation.ts): p-4's lost ack makes the producer append p-4 again
    // at offset 4, so batch 1 writes p-1..p-4, p-4′ — row 5 (index 4) is the first duplicate;
    // batch 2 writes p-5..p-7, crashes before its commit and the restart writes them again
    // (commit after processing: https://kafka.apache.org/documentation/#semantics).
    const k = firstDuplicateRow(table, table.copy.length);
    expect(k).toBe(4);
    expect(rowId(r.view, table, k)).toBe('p-4');
    expect(table.copy[k]).toBe(2);
    // Before that row has arrived, there is none yet.
    expect(firstDuplicateRow(table, 4)).toBe(-1);
  });

  it("leaves a reader's own re-read out", () => {
    const table = { copy: Int32Array.from([1, 2, 2]), reread: Uint8Array.from([0, 1, 0]) };
    expect(firstDuplicateRow(table, 3)).toBe(2);
    expect(firstDuplicateRow(table, 2)).toBe(-1);
  });
});

describe('rowBeforeFirstLoss', () => {
  it("is at-most-once's p-8: the row above the gap where p-9 and p-10 belong", () => {
    const r = computeRunView(structuredClone(findPreset('at-most-once')!.variant.scenario));
    if (!r.ok) throw new Error('preset invalid');
    const { view } = r;
    const table = view.tables[view.primaryTable]!;
    const lost = (j: number) => view.verdict.fate[j] === 0;
    // By hand (src/scenarios/foundation.ts): the consumer commits batch 2 (p-6..p-10) as it
    // polls it, writes p-6..p-8 and crashes; the restart resumes after the commit
    // (https://kafka.apache.org/documentation/#semantics): rows p-1..p-8, then p-11..p-20.
    expect(firstDuplicateRow(table, table.copy.length)).toBe(-1);
    const k = rowBeforeFirstLoss(table, table.event.length, view.events.identity, lost);
    expect(k).toBe(7);
    expect(rowId(view, table, k)).toBe('p-8');
    expect(rowId(view, table, k + 1)).toBe('p-11');
    // Nothing lost: none.
    expect(rowBeforeFirstLoss(table, table.event.length, view.events.identity, () => false)).toBe(
      -1,
    );
  });

  it('is the first row when the very first event is lost', () => {
    const table = { event: Int32Array.from([1, 2]) };
    const identity = Int32Array.from([0, 1, 2]);
    expect(rowBeforeFirstLoss(table, 2, identity, (j) => j === 0)).toBe(0);
  });
});
