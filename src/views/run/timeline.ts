/**
 * The timeline's scale. The timeline gives one step to each engine event, so the stretches where
 * nothing happens (a producer waiting 30 s for a lost ack, a consumer that starts at 40 s) take
 * no room and the action stays readable. The price is that distance is not time: so the scale
 * says so — ticks labelled with the virtual time at their own position, and a cut mark wherever a
 * long idle stretch was squeezed out.
 */
import { timeAtIndex } from './at';
import type { RunView } from './runView';
import { lowerBound, upperBound } from './steps';

/** Position (0…1) of cursor index `idx` (entries applied) on the timeline. */
export function fracOfIndex(v: RunView, idx: number): number {
  return v.n === 0 ? 0 : Math.max(0, Math.min(1, idx / v.n));
}

/** The cursor index at position `frac` (0…1) of the timeline. */
export function indexAtFrac(v: RunView, frac: number): number {
  return Math.max(0, Math.min(v.n, Math.round(frac * v.n)));
}

/** An idle stretch squeezed out of the timeline: nothing happens from `from` to `to` (ms). */
export interface TimelineCut {
  /** Cursor index just after the jump (the first entry after it is applied). */
  idx: number;
  frac: number;
  from: number;
  to: number;
}

/**
 * The longest idle stretches (at most `max`): gaps between consecutive engine events that take
 * at least 8 % of the run's duration (and a second) — on an even time scale they would fill that
 * much of the bar; here they take none.
 */
export function timelineCuts(v: RunView, max = 4): TimelineCut[] {
  const time = v.cols.time;
  const min = Math.max(1000, v.endTime * 0.08);
  const found: TimelineCut[] = [];
  for (let i = 1; i < v.n; i++) {
    const d = time[i]! - time[i - 1]!;
    if (d < min) continue;
    found.push({ idx: i + 1, frac: fracOfIndex(v, i + 1), from: time[i - 1]!, to: time[i]! });
  }
  return found
    .sort((a, b) => b.to - b.from - (a.to - a.from) || a.idx - b.idx)
    .slice(0, max)
    .sort((a, b) => a.idx - b.idx);
}

/** A labelled tick of the timeline's scale. */
export interface TimelineTick {
  idx: number;
  frac: number;
  /** Virtual time at this position (ms). */
  t: number;
  /**
   * Where its label sits against its position: `start` (the first tick: the label begins there),
   * `end` (the last: it ends there) or `center`, so that no label runs past the bar's ends.
   */
  align: 'start' | 'center' | 'end';
}

/** Smallest space between two tick labels, px. */
const TICK_GAP_PX = 8;

/**
 * A few ticks, each labelled with the virtual time at its position: the start, the end, the end
 * of each cut (where the clock jumps; the longest cut first), then up to the quarters of the bar
 * — each kept only if its label, `labelPx(t)` wide (the caller measures its own font), stays
 * within the bar and at least `gapPx` clear of every label kept before it. Labels never overlap,
 * whatever their length ("1 min 01.039 s" is twice "46.050 s"), the bar's width or the text
 * size; a label that would collide is dropped.
 * @param widthPx - the bar's width, px.
 * @param labelPx - the width, px, of the label of time `t` (ms).
 */
export function timelineTicks(
  v: RunView,
  widthPx: number,
  labelPx: (t: number) => number,
  cuts: TimelineCut[] = timelineCuts(v),
  gapPx = TICK_GAP_PX,
): TimelineTick[] {
  const width = Math.max(0, widthPx);
  const at = (idx: number): TimelineTick => {
    const frac = fracOfIndex(v, idx);
    return {
      idx,
      frac,
      t: idx >= v.n ? v.endTime : timeAtIndex(v, idx),
      align: idx === 0 ? 'start' : idx >= v.n ? 'end' : 'center',
    };
  };
  const candidates: TimelineTick[] = v.n === 0 ? [at(0)] : [at(0), at(v.n)];
  for (const c of [...cuts].sort((a, b) => b.to - b.from - (a.to - a.from)))
    candidates.push(at(c.idx));
  // Quarters at most, fewer when the widest label leaves no room: a few labels a reader can take
  // in, not a ruler.
  const widest = Math.max(...candidates.map((c) => labelPx(c.t)));
  const even = Math.max(1, Math.min(4, Math.floor(width / (widest + gapPx))));
  for (let k = 1; k < even; k++) candidates.push(at(indexAtFrac(v, k / even)));
  const kept: { tick: TimelineTick; left: number; right: number }[] = [];
  for (const tick of candidates) {
    const w = labelPx(tick.t);
    const x = tick.frac * width;
    const left = tick.align === 'start' ? x : tick.align === 'end' ? x - w : x - w / 2;
    const right = left + w;
    // The first label is always shown; any other must fit within the bar.
    if (kept.length > 0 && (left < 0 || right > width)) continue;
    if (kept.some((k) => left < k.right + gapPx && k.left < right + gapPx)) continue;
    kept.push({ tick, left, right });
  }
  return kept.map((k) => k.tick).sort((a, b) => a.frac - b.frac);
}

/**
 * Where a fault's `at` (the time it is armed from) goes when nudged with the arrow keys: to the
 * time of the previous (`dir` −1) or next (+1) engine event — the timeline's own step — `steps`
 * times, within [0, the end of the run]. A time past the end counts as the end.
 */
export function nudgeTime(v: RunView, at: number, dir: -1 | 1, steps = 1): number {
  const time = v.cols.time;
  let a = Math.max(0, Math.min(at, v.endTime));
  for (let k = 0; k < steps; k++) {
    if (dir < 0) {
      const i = lowerBound(time, a, 0, v.n);
      a = i > 0 ? time[i - 1]! : 0;
    } else {
      const i = upperBound(time, a, 0, v.n);
      a = i < v.n ? time[i]! : v.endTime;
    }
  }
  return a;
}
