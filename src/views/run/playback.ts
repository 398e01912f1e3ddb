/**
 * Playback arithmetic: where the cursor goes after one animation frame. Pure, so the frame loop
 * (src/platform/frameLoop.ts) stays a dumb clock and this is unit-tested.
 *
 * Speed is virtual milliseconds per real millisecond (×0.01: a 2 ms network hop takes 0.2 s on
 * screen). Runs are mostly idle — a producer waiting 30 s for a lost ack, a consumer that starts
 * at 40 s — so when nothing happens for a while (no trace entry and no message arriving within
 * `IDLE_REAL_MS` of real time) the cursor jumps to just before the next activity.
 */
import { PACE_MAX, PACE_MIN } from '../../engine';
import { indexAtTime, tokensAt, type Token } from './at';
import type { RunView } from './runView';

/** A gap longer than this much real time (ms) at the current speed is skipped. */
const IDLE_REAL_MS = 400;
/** After a skip, the next activity is this much real time (ms) ahead. */
const LEAD_REAL_MS = 150;

/** Slowest and fastest speeds (virtual ms per real ms), a logarithmic range. */
export const SPEED_MIN = PACE_MIN;
export const SPEED_MAX = PACE_MAX;
export const SPEED_DEFAULT = 0.01;

/**
 * Virtual ms without activity that count as idle at `speed`, and the virtual ms kept before the
 * next activity after a skip. Below ×0.01 both stay the spans they are at ×0.01 (4 ms, 1.5 ms):
 * a slower pace shows the same moments longer (a 2 ms hop takes 2 s at ×0.001) rather than
 * cutting more of them (at ×0.001 every hop would be "idle", and a record would jump to its end).
 */
export function idleSpan(speed: number): number {
  return Math.max(speed, SPEED_DEFAULT) * IDLE_REAL_MS;
}
/** See {@link idleSpan}. */
export function leadSpan(speed: number): number {
  return Math.max(speed, SPEED_DEFAULT) * LEAD_REAL_MS;
}

const scratch: Token[] = [];

/** Time of the next thing that happens after `t`: a trace entry or a message arriving. */
function nextActivity(v: RunView, t: number): number {
  const idx = indexAtTime(v, t);
  let next = idx < v.n ? v.cols.time[idx]! : v.endTime;
  for (const tok of tokensAt(v, t, idx, scratch, 2000))
    if (tok.until > t) next = Math.min(next, tok.until);
  return next;
}

/** The result of one frame. */
export interface Advance {
  t: number;
  idx: number;
  /** The run's end was reached (playback stops). */
  done: boolean;
  /** Virtual ms jumped over as idle (0 if none). */
  skipped: number;
}

/** One animation frame at 60 Hz (real ms): the step a long frame is played in. */
export const FRAME_REAL_MS = 1000 / 60;
/** Up to this much real time (ms) a frame is one step, as it always was. */
const ONE_STEP_REAL_MS = 100;
/**
 * A frame longer than this (real ms) is not play time but a pause — a sleeping laptop, a stalled
 * machine — and plays only this much. (A background tab draws no frames; the frame loop counts
 * the first frame after it shows again as 0: src/platform/frameLoop.ts.)
 */
const MAX_FRAME_REAL_MS = 10_000;

/**
 * Move the cursor by one frame. A long frame (a slow machine, a projector laptop at a few frames
 * a second) is played as 60 Hz steps, each with its own idle skip: the story takes the same wall
 * time at any frame rate (src/views/run/pace.ts counts it at 60 Hz).
 * @param t - current virtual time (ms).
 * @param dtReal - real ms since the last frame (at most {@link MAX_FRAME_REAL_MS} counts).
 * @param speed - virtual ms per real ms.
 * @param skipIdle - jump over idle stretches.
 */
export function advance(
  v: RunView,
  t: number,
  dtReal: number,
  speed: number,
  skipIdle: boolean,
): Advance {
  const real = Math.min(Math.max(dtReal, 0), MAX_FRAME_REAL_MS);
  if (real <= ONE_STEP_REAL_MS) return step(v, t, real, speed, skipIdle);
  const steps = Math.ceil(real / FRAME_REAL_MS);
  let a = step(v, t, real / steps, speed, skipIdle);
  let skipped = a.skipped;
  for (let k = 1; k < steps && !a.done; k++) {
    a = step(v, a.t, real / steps, speed, skipIdle);
    skipped += a.skipped;
  }
  return { ...a, skipped };
}

/** One step of {@link advance}: play `dtReal` at `speed`, or skip to just before the next activity. */
function step(v: RunView, t: number, dtReal: number, speed: number, skipIdle: boolean): Advance {
  const dt = dtReal * speed;
  let next = t + dt;
  let skipped = 0;
  if (skipIdle) {
    const activity = nextActivity(v, t);
    if (activity - t > idleSpan(speed)) {
      const target = activity - leadSpan(speed);
      if (target > next) {
        skipped = target - next;
        next = target;
      }
    }
  }
  const done = next >= v.endTime;
  if (done) next = v.endTime;
  return { t: next, idx: done ? v.n : indexAtTime(v, next), done, skipped };
}

/** Slider position in [0, 1] ↔ speed, on a log scale. */
export function speedFromSlider(x: number): number {
  const lo = Math.log10(SPEED_MIN);
  const hi = Math.log10(SPEED_MAX);
  return 10 ** (lo + Math.min(1, Math.max(0, x)) * (hi - lo));
}

/** Speed → slider position in [0, 1]. */
export function sliderFromSpeed(speed: number): number {
  const lo = Math.log10(SPEED_MIN);
  const hi = Math.log10(SPEED_MAX);
  return (Math.log10(Math.min(SPEED_MAX, Math.max(SPEED_MIN, speed))) - lo) / (hi - lo);
}
