import { describe, expect, it } from 'vitest';
import { wholeRowsCut } from './useWholeRowsBox';

describe('wholeRowsCut', () => {
  it('leaves under the box what is more than a whole number of rows under its header', () => {
    // A 204 px view, a 24 px header, 24 px rows: 180 px under the header, 7 rows and 12 px —
    // 12 px of an 8th row in view, half of it cut.
    expect(wholeRowsCut(204, 24, 24)).toBe(12);
    // Its view then 192 px: 24 + 7 × 24, nothing more to leave.
    expect(wholeRowsCut(192, 24, 24)).toBe(0);
  });

  it('keeps the header and one row, and ignores a pixel of rounding', () => {
    // Rows of 24 × 9/7 ≈ 30.86 px (the projector's 18 px over the page's 14), the header one of
    // them: 200 px is the header, 5 rows and 14.86 px.
    const row = (24 * 9) / 7;
    expect(wholeRowsCut(200, row, row)).toBeCloseTo(200 - 6 * row, 9);
    // 0.5 px over 5 rows, or 0.5 px short of 6: a rounding of the box's whole-pixel height.
    expect(wholeRowsCut(6 * row + 0.5, row, row)).toBe(0);
    expect(wholeRowsCut(7 * row - 0.5, row, row)).toBe(0);
    // No room for a row under the header: nothing to leave.
    expect(wholeRowsCut(40, 24, 24)).toBe(0);
  });
});
