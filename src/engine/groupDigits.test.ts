import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { groupDigits } from './groupDigits';

describe('groupDigits', () => {
  it('groups by three as en-US does', () => {
    // By hand: 580 has no group; 1234567 → 1 | 234 | 567; the sign and the decimals stay.
    expect(groupDigits(580)).toBe('580');
    expect(groupDigits(1_234_567)).toBe('1,234,567');
    expect(groupDigits(-1_000)).toBe('-1,000');
    expect(groupDigits(1234.5)).toBe('1,234.5');
    expect(groupDigits(-0)).toBe('-0');
  });

  it("gives toLocaleString('en-US')'s text for any number", () => {
    const numbers = fc.oneof(
      fc.integer(),
      fc.maxSafeInteger(),
      fc.double(),
      // A few decimals, as the explanations write seconds (`30.5 s`).
      fc.integer({ min: -1e9, max: 1e9 }).map((i) => i / 10),
      fc.integer({ min: -1e9, max: 1e9 }).map((i) => i / 1000),
    );
    fc.assert(
      fc.property(numbers, (n) => groupDigits(n) === n.toLocaleString('en-US')),
      { numRuns: 2000 },
    );
  });
});
