/**
 * A run's pace: the playback speed (virtual ms per real ms) that plays its story in about
 * {@link PACE_TARGET_REAL_MS} of wall time with idle stretches cut (src/views/run/playback.ts), so a
 * card charge of 60 ms is not gone in 4 s and a Flink job of 2,500 events does not take 150 s.
 *
 * A scenario may set its own (`display.pace`); otherwise {@link defaultPace} computes one from the
 * run: the speed at which the time playback spends on it — each busy gap played at that speed,
 * each idle gap skipped to its lead (`idleSpan`, `leadSpan`) — comes to the target. Pure, so tested per preset.
 */
import type { ScenarioInput } from '../../engine';
import { FRAME_REAL_MS, idleSpan, leadSpan, SPEED_MAX, SPEED_MIN } from './playback';
import type { RunView } from './runView';

/** The wall time a story should take at its pace (ms): the middle of 20–40 s. */
export const PACE_TARGET_REAL_MS = 30_000;

/** Above this many entries and messages, {@link activityTimes} counts the trace entries only. */
const HUGE_RUN = 500_000;

const activityCache = new WeakMap<RunView, Float64Array>();

/**
 * Every moment something happens in the run, sorted, without repeats: each trace entry and each
 * message's arrival (what `nextActivity` stops at), and the run's end.
 */
function activityTimes(v: RunView): Float64Array {
  let a = activityCache.get(v);
  if (a) return a;
  // A huge run's arrivals are left out (the trace's own times are already sorted): sorting
  // millions of them would delay its first frame more than the estimate is worth.
  const msgs = v.n + v.msgs.length <= HUGE_RUN ? v.msgs.length : 0;
  const all = new Float64Array(v.n + msgs + 2);
  let k = 0;
  all[k++] = 0;
  for (let i = 0; i < v.n; i++) all[k++] = v.cols.time[i]!;
  for (let q = 0; q < msgs; q++) all[k++] = v.cols.until[v.msgs[q]!]!;
  all[k++] = v.endTime;
  all.sort();
  let m = 0;
  for (let i = 0; i < all.length; i++) if (i === 0 || all[i] !== all[m - 1]) all[m++] = all[i]!;
  a = all.slice(0, m);
  activityCache.set(v, a);
  return a;
}

/** About how long (real ms) playback with idle skipping takes from 0 to the end at `speed`. */
export function playRealMs(v: RunView, speed: number): number {
  const a = activityTimes(v);
  const idle = idleSpan(speed);
  // A skip costs at least one frame.
  const skipped = leadSpan(speed) / speed + FRAME_REAL_MS;
  let real = 0;
  for (let i = 1; i < a.length; i++) {
    const gap = a[i]! - a[i - 1]!;
    real += gap > idle ? skipped : gap / speed;
  }
  return real;
}

/**
 * The speed that plays `v` in about {@link PACE_TARGET_REAL_MS} (bisection on a log scale:
 * playback time falls as speed rises), within the page's speed range.
 */
export function defaultPace(v: RunView): number {
  let lo = Math.log10(SPEED_MIN);
  let hi = Math.log10(SPEED_MAX);
  if (playRealMs(v, SPEED_MIN) <= PACE_TARGET_REAL_MS) return SPEED_MIN;
  if (playRealMs(v, SPEED_MAX) >= PACE_TARGET_REAL_MS) return SPEED_MAX;
  for (let k = 0; k < 30; k++) {
    const mid = (lo + hi) / 2;
    if (playRealMs(v, 10 ** mid) > PACE_TARGET_REAL_MS) lo = mid;
    else hi = mid;
  }
  // Three significant digits: a speed the slider and a scenario file can say.
  return Number((10 ** hi).toPrecision(3));
}

/** The pace to play a scenario's run at: its own `display.pace`, else the computed default. */
export function paceOf(scenario: ScenarioInput, v: RunView): number {
  return scenario.display?.pace ?? defaultPace(v);
}
