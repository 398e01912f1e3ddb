/** The atlas's time estimate (issue #23.2, "progress bar"): runs left at the rate so far. */
import { describe, expect, it } from 'vitest';
import { timeLeftWords } from './timeLeft';

describe('the fault atlas time estimate', () => {
  it('says the runs left at the rate so far, only after the first second', () => {
    // 50 of 650 runs in 1 s: 50 runs/s, 600 left → 12 s.
    expect(timeLeftWords(50, 650, 1_000)).toBe('~12 s left');
    // Rounded up: 1 run left at 3 runs/s is a third of a second, said as ~1 s.
    expect(timeLeftWords(6, 7, 2_000)).toBe('~1 s left');
    // 100 of 20,000 pairs in 2 s: 19,900 left at 50/s → 398 s ≈ 7 min.
    expect(timeLeftWords(100, 20_000, 2_000)).toBe('~7 min left');
    // 89 s is still said in seconds; 90 s in minutes (2, rounded).
    expect(timeLeftWords(10, 99, 10_000)).toBe('~89 s left');
    expect(timeLeftWords(10, 100, 10_000)).toBe('~2 min left');
    // The first second, no run done yet, all done: nothing said.
    expect(timeLeftWords(50, 650, 999)).toBeNull();
    expect(timeLeftWords(0, 650, 5_000)).toBeNull();
    expect(timeLeftWords(650, 650, 5_000)).toBeNull();
  });
});
