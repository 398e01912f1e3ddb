import { describe, expect, it } from 'vitest';
import { parseScenario, simulate } from '../../engine';
import { findPreset } from '../../scenarios';
import { indexAtTime, timeAtIndex, tokensAt } from './at';
import { formatMs } from './format';
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
    const px = (t: number) => formatMs(t).length * 7;
    const ticks = timelineTicks(v, 600, px);
    expect(ticks[0]).toEqual({ idx: 0, frac: 0, t: 0, align: 'start' });
    expect(ticks[ticks.length - 1]).toEqual({ idx: v.n, frac: 1, t: v.endTime, align: 'end' });
    for (const k of ticks) {
      expect(k.frac).toBeCloseTo(k.idx / v.n, 10);
      if (k.idx < v.n) expect(k.t).toBe(timeAtIndex(v, k.idx));
    }
    // The cuts' ends are labelled (the times a reader would otherwise never guess).
    for (const c of timelineCuts(v)) expect(ticks.some((k) => k.idx === c.idx)).toBe(true);
    // A few, not a ruler; and a narrow bar keeps only what fits: "0 ms" (28 px) and
    // "41.150 s" (56 px) with 8 px between them need 92 px.
    expect(ticks.length).toBeLessThanOrEqual(2 + 4 + 3);
    expect(timelineTicks(v, 92, px).map((k) => k.t)).toEqual([0, v.endTime]);
    expect(timelineTicks(v, 91, px).map((k) => k.t)).toEqual([0]);
  });
});

describe('timeline tick labels never overlap', () => {
  // zombie-consumer (consumer.ts): 149 engine events; the clock jumps from 1.012 s to 46.014 s at
  // event 73 and from 46.074 s to 1 min 01.012 s at event 126 (of 149: 84.6 % of the bar), and
  // the run ends at 1 min 01.039 s. Labels measured at 7 px a character.
  const z = viewOf('zombie-consumer/plain-insert');
  const px = (t: number) => formatMs(t).length * 7;
  const labels = (w: number) => timelineTicks(z, w, px).map((k) => formatMs(k.t));

  it('the 150 % zoom case: "1 min 01.012 s" and "1 min 01.039 s" do not both fit, the end stays', () => {
    // At 853 px (1280 px at 150 %) the cut's label, 98 px centred on 0.846 × 853 = 722 px, ends
    // at 771 px, past where the end's label starts (853 − 98 = 755 px): it is dropped. At
    // 1200 px it ends at 1064 px, well before 1102 px: both are shown.
    expect(labels(853)).toEqual(['0 ms', '71 ms', '46.014 s', '46.058 s', '1 min 01.039 s']);
    expect(labels(1200)).toEqual([
      '0 ms',
      '71 ms',
      '46.014 s',
      '46.058 s',
      '1 min 01.012 s',
      '1 min 01.039 s',
    ]);
  });

  it('the 400 px case: thirds instead of quarters, "46.045 s" clear of "1 min 01.039 s"', () => {
    // The widest label (98 px) and the gap fit three times in 400 px: ticks at 1/3 and 2/3.
    expect(labels(400)).toEqual(['0 ms', '91 ms', '46.014 s', '46.045 s', '1 min 01.039 s']);
  });

  // Every preset's run at several widths: ~2 s alone, several times that on a loaded machine.
  it('for every preset at every width, each label is within the bar and 8 px from the next', () => {
    for (const ref of ['zombie-consumer/plain-insert', 'at-least-once', 'retry-storm']) {
      const rv = viewOf(ref);
      for (let w = 60; w <= 1600; w += 17) {
        const boxes = timelineTicks(rv, w, px).map((k) => {
          const x = k.frac * w;
          const width = px(k.t);
          const left = k.align === 'start' ? x : k.align === 'end' ? x - width : x - width / 2;
          return { left, right: left + width };
        });
        expect(boxes.length, `${ref} at ${w} px`).toBeGreaterThanOrEqual(1);
        for (const [i, b] of boxes.entries()) {
          if (i > 0) {
            expect(b.left, `${ref} at ${w} px`).toBeGreaterThanOrEqual(0);
            expect(b.right, `${ref} at ${w} px`).toBeLessThanOrEqual(w);
            expect(b.left - boxes[i - 1]!.right, `${ref} at ${w} px`).toBeGreaterThanOrEqual(8);
          }
        }
      }
    }
  }, 60_000);
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
