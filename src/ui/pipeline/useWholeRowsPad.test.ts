import { describe, expect, it } from 'vitest';
import { wholeRowsPad } from './useWholeRowsPad';

describe('wholeRowsPad', () => {
  it('pads a scrolling table to a whole number of rows under its header', () => {
    // A 100 px box, a 24 px header and 24 px rows: 76 px under the header, 3 rows and 4 px. Ten
    // rows (24 + 240 = 264 px) padded by 4 end at 264 + 4 − 100 = 168 = 7 rows: rows 8..10 whole
    // under the header, the last one's bottom at the box's.
    expect(wholeRowsPad(100, 264, 24, 24)).toBe(4);
    // Its end without the pad, 164, was 20 px into row 7: 4 px of it under the header.
    expect((264 - 100) % 24).toBe(20);
  });

  it('adds nothing to a box already a whole number of rows tall', () => {
    // 124 − 25 = 99 px under a 25 px header: not whole (24 px over 3 rows of 25), padded by 24;
    // 125 − 25 = 100 = 4 rows: nothing.
    expect(wholeRowsPad(124, 25 + 10 * 25, 25, 25)).toBe(24);
    expect(wholeRowsPad(125, 25 + 10 * 25, 25, 25)).toBe(0);
  });

  it('pads at a text scale whose rows are a fraction of a pixel', () => {
    // Rows of 24 × 9/7 ≈ 30.86 px (the projector's 18 px over the page's 14), the header one of
    // them: 200 − 30.86 = 169.14 px under it, 5 rows and 14.86 px — the pad; the end is then a
    // whole number of rows.
    const row = (24 * 9) / 7;
    const content = row + 30 * row;
    const pad = wholeRowsPad(200, content, row, row);
    expect(pad).toBeCloseTo(200 - row - 5 * row, 9);
    const end = content + pad - 200;
    expect(end / row).toBeCloseTo(Math.round(end / row), 9);
  });

  it('pads nothing while the table does not scroll, nor before its box is measured', () => {
    expect(wholeRowsPad(100, 96, 24, 24)).toBe(0);
    expect(wholeRowsPad(100, 100, 24, 24)).toBe(0);
    expect(wholeRowsPad(0, 264, 24, 24)).toBe(0);
  });
});
