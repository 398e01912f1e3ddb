/** The atlas's time estimate (issue #23.2, "progress bar"): runs left at the rate of late. */
import { describe, expect, it } from 'vitest';
import { timeLeftEstimator } from './timeLeft';

describe('the fault atlas time estimate', () => {
  it('says the runs left at the rate since the first report, only a second after it', () => {
    const pace = timeLeftEstimator();
    // The first report (20 runs at 10 s): the runs' start, nothing said.
    expect(pace(20, 650, 10_000)).toBeNull();
    // Half a second later: still nothing.
    expect(pace(45, 650, 10_500)).toBeNull();
    // A second after it, 70 done: 50 runs in 1 s, 580 left → 11.6 s, said as ~12 s.
    expect(pace(70, 650, 11_000)).toBe('~12 s left');
    // 2 s after it, 100 done: 80 runs in 2 s (40/s), 550 left → 13.75 → ~14 s.
    expect(pace(100, 650, 12_000)).toBe('~14 s left');
    // All done: nothing said.
    expect(pace(650, 650, 12_500)).toBeNull();
  });

  it('leaves out the time before the first run (finding the placements, a cold worker)', () => {
    // Explore clicked at 0; the placements found and the first run reported at 2.8 s; the 2,770
    // runs then go at about 185 a second. Timed from the click, 1 run in 2.8 s said "~129 min".
    const pace = timeLeftEstimator();
    expect(pace(1, 2_770, 2_800)).toBeNull();
    // 1.2 s after it, 223 done: 222 runs in 1.2 s = 185/s; 2,547 left → 13.8 s, said as ~14 s.
    expect(pace(223, 2_770, 4_000)).toBe('~14 s left');
  });

  it('takes the rate of the last 3 s once there are 3 s: runs that speed up are not underrated', () => {
    const pace = timeLeftEstimator();
    pace(1, 2_770, 2_800);
    // 70 done at 5.3 s: since the first report, 69 in 2.5 s = 27.6/s; 2,700 left → 97.8 s → ~2 min.
    expect(pace(70, 2_770, 5_300)).toBe('~2 min left');
    expect(pace(248, 2_770, 6_200)).not.toBeNull();
    // 663 done at 8.9 s: the latest report 3 s before is 5.3 s's (70): 593 in 3.6 s = 164.7/s;
    // 2,107 left → 12.8 s, said as ~13 s (from the first report it would be 36 s).
    expect(pace(663, 2_770, 8_900)).toBe('~13 s left');
    // 1,013 done at 10.6 s: the latest 3 s before is 6.2 s's (248): 765 in 4.4 s = 173.9/s;
    // 1,757 left → 10.1 s, said as ~11 s.
    expect(pace(1_013, 2_770, 10_600)).toBe('~11 s left');
  });

  it('says minutes from 90 s on, and nothing while no run was done since the first report', () => {
    const pace = timeLeftEstimator();
    pace(0, 20_000, 0);
    expect(pace(0, 20_000, 1_500)).toBeNull();
    // 100 of 20,000 pairs 2 s after the first report: 19,900 left at 50/s → 398 s ≈ 7 min.
    expect(pace(100, 20_000, 2_000)).toBe('~7 min left');
    const near = timeLeftEstimator();
    near(0, 99, 0);
    // 10 runs in 10 s (1/s): 89 left is still said in seconds; 90 in minutes (2, rounded).
    expect(near(10, 99, 10_000)).toBe('~89 s left');
    const edge = timeLeftEstimator();
    edge(0, 100, 0);
    expect(edge(10, 100, 10_000)).toBe('~2 min left');
  });
});
