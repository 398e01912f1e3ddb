import { describe, expect, it } from 'vitest';
import { zeroCount } from './zeroCount';

describe('zeroCount', () => {
  it('marks a count of 0 (projector mode folds it while a question is asked)', () => {
    expect(zeroCount(0)).toBe('zero-count');
    expect(zeroCount(0, 'num')).toBe('num zero-count');
  });

  it('leaves any other count as it was', () => {
    expect(zeroCount(1)).toBeUndefined();
    expect(zeroCount(3, 'num')).toBe('num');
  });
});
