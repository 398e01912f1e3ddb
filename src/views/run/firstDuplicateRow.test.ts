import { describe, expect, it } from 'vitest';
import { findPreset } from '../../scenarios';
import { rowId } from './at';
import { computeRunView } from './computeRun';
import { firstDuplicateRow } from './firstDuplicateRow';

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
