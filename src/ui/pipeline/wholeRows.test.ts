import { describe, expect, it } from 'vitest';
import { rowRemainder } from './wholeRows';

describe('rowRemainder', () => {
  it('is what a height holds under its header beyond whole rows', () => {
    // 100 − 24 = 76 px under a 24 px header: 3 rows of 24 and 4 px.
    expect(rowRemainder(100, 24, 24)).toBe(4);
    // 124 − 25 = 99 px: 3 rows of 25 and 24 px; 125 − 25 = 100, 4 rows and nothing.
    expect(rowRemainder(124, 25, 25)).toBe(24);
    expect(rowRemainder(125, 25, 25)).toBe(0);
  });

  it('stays within a row for a height shorter than its header', () => {
    // 10 − 24 = −14 px: 14 px short of the header's end, 10 px past the row before it.
    expect(rowRemainder(10, 24, 24)).toBe(10);
  });

  it('takes a pixel either side of a row edge as a rounding, and no rows as nothing', () => {
    expect(rowRemainder(24 + 3 * 24 + 0.5, 24, 24)).toBe(0);
    expect(rowRemainder(24 + 4 * 24 - 0.5, 24, 24)).toBe(0);
    expect(rowRemainder(24 + 3 * 24 + 1, 24, 24)).toBe(1);
    expect(rowRemainder(100, 24, 0)).toBe(0);
  });
});
