import { describe, expect, it } from 'vitest';
import { parseScenario, simulate } from '../engine';
import { findPreset } from '../scenarios';
import { indexAtTime, timeAtIndex, tokensAt } from './at';
import { toRunView, type RunView } from './runView';
import { fracOfIndex, indexAtFrac, nudgeTime, timelineCuts, timelineTicks } from './timeline';

function viewOf(ref: string): RunView {
  const r = parseScenario(findPreset(ref)!.variant.scenario);
  if (!r.ok) throw new Error('invalid preset');
  return toRunView(simulate(r.scenario));
}

// The at-least-once preset (foundation.ts): 20 payments sent from 0 to 950 ms; the ack of p-4 is
// lost, so the producer waits request.timeout.ms = 30 s before it retries (≈ 30.2 s); the
// consumer starts at 40 s. Two long idle stretches, then; the run ends at 41.150 s.
const v = viewOf('at-least-once');

describe('timeline scale', () => {
  it('positions are engine events: index ↔ fraction', () => {
    expect(fracOfIndex(v, 0)).toBe(0);
    expect(fracOfIndex(v, v.n)).toBe(1);
    expect(indexAtFrac(v, 0.5)).toBe(Math.round(v.n / 2));
    expect(indexAtFrac(v, 2)).toBe(v.n);
  });

  it('cuts: the 29 s wait for the lost ack and the wait for the consumer, longest first kept', () => {
    const cuts = timelineCuts(v);
    expect(cuts).toHaveLength(2);
    const [ack, consumer] = cuts;
    expect(ack!.from).toBeLessThan(1000);
    expect(ack!.to).toBeGreaterThanOrEqual(30_000);
    expect(consumer!.to).toBeGreaterThanOrEqual(40_000);
    // Each cut sits where the clock jumps: the time at its position is the time after the jump.
    for (const c of cuts) expect(timeAtIndex(v, c.idx)).toBe(c.to);
    expect(timelineCuts(v, 1)).toEqual([ack]);
  });

  it('ticks: each labelled with the time at its own position, start and end included, spaced', () => {
    const ticks = timelineTicks(v, 0.1);
    expect(ticks[0]).toEqual({ idx: 0, frac: 0, t: 0 });
    expect(ticks[ticks.length - 1]).toEqual({ idx: v.n, frac: 1, t: v.endTime });
    for (const k of ticks) {
      expect(k.frac).toBeCloseTo(k.idx / v.n, 10);
      if (k.idx < v.n) expect(k.t).toBe(timeAtIndex(v, k.idx));
    }
    for (let i = 1; i < ticks.length; i++)
      expect(ticks[i]!.frac - ticks[i - 1]!.frac).toBeGreaterThanOrEqual(0.1);
    // The cuts' ends are labelled (the times a reader would otherwise never guess).
    for (const c of timelineCuts(v)) expect(ticks.some((k) => k.idx === c.idx)).toBe(true);
    // A few, not a ruler; and a narrow bar keeps only what fits.
    expect(ticks.length).toBeLessThanOrEqual(2 + 4 + 3);
    expect(timelineTicks(v, 0.6).map((k) => k.frac)).toEqual([0, 1]);
  });
});

describe('nudging a fault with the arrow keys', () => {
  it('moves `at` to the previous / next engine event time, within [0, end]', () => {
    const times = [...new Set(Array.from(v.cols.time))];
    expect(nudgeTime(v, 0, -1)).toBe(0);
    expect(nudgeTime(v, 0, 1)).toBe(times.find((t) => t > 0));
    const mid = times[Math.floor(times.length / 2)]!;
    const before = times[times.indexOf(mid) - 1]!;
    const after = times[times.indexOf(mid) + 1]!;
    expect(nudgeTime(v, mid, -1)).toBe(before);
    expect(nudgeTime(v, mid, 1)).toBe(after);
    // Between two event times: to the nearest one on that side.
    expect(nudgeTime(v, before + 0.5, 1)).toBe(mid);
    expect(nudgeTime(v, mid - 0.5, -1)).toBe(before);
    // Several steps at once (Shift).
    expect(nudgeTime(v, mid, 1, 2)).toBe(times[times.indexOf(mid) + 2]);
    // The end is the limit; a fault dragged past the end steps back from the end.
    expect(nudgeTime(v, v.endTime, 1)).toBe(v.endTime);
    expect(nudgeTime(v, v.endTime + 60_000, -1)).toBe(times[times.length - 2]);
    // Every step changes the time, and always in the direction asked.
    let t = 0;
    for (let k = 0; k < 40; k++) {
      const next = nudgeTime(v, t, 1);
      expect(next).toBeGreaterThan(t);
      expect(nudgeTime(v, next, -1)).toBe(t);
      t = next;
    }
  });
});

describe('messages in flight', () => {
  it('none at the end of the run: a message that would arrive after it never arrives', () => {
    const end = tokensAt(v, v.endTime, v.n);
    expect(end).toEqual([]);
    // Before the end, the same messages are drawn as usual.
    const before = tokensAt(v, v.endTime - 1, indexAtTime(v, v.endTime - 1));
    for (const tok of before) expect(tok.until).toBeGreaterThan(v.endTime - 1);
  });
});
