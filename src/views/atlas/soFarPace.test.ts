import { describe, expect, it } from 'vitest';
import { SO_FAR_PACE, soFarDue } from './soFarPace';

describe("a running atlas's map so far: when it is redrawn", () => {
  const { firstMs, everyMs } = SO_FAR_PACE;

  it('not before firstMs after the start: a short atlas shows its final map only', () => {
    expect(soFarDue(1000 + firstMs - 1, 1000, -Infinity)).toBe(false);
    expect(soFarDue(1000 + firstMs, 1000, -Infinity)).toBe(true);
  });

  it('then at most every everyMs', () => {
    const last = 1000 + firstMs;
    expect(soFarDue(last + everyMs - 1, 1000, last)).toBe(false);
    expect(soFarDue(last + everyMs, 1000, last)).toBe(true);
  });
});
