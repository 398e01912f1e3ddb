import { describe, expect, it } from 'vitest';
import { duplicatesMark, missingMark } from './counterMarks';

describe('counter marks', () => {
  it('a failure mark only beside a failure: zero lost or duplicated is neutral', () => {
    expect(missingMark(0, true)).toBe('○');
    expect(missingMark(0, false)).toBe('○');
    expect(missingMark(2, true)).toBe('✕');
    // Not over yet: on their way, not lost.
    expect(missingMark(10, false)).toBe('…');
    expect(duplicatesMark(0)).toBe('○');
    expect(duplicatesMark(1)).toBe('copy');
    expect(duplicatesMark(50)).toBe('copy');
  });
});
