import { describe, expect, it } from 'vitest';
import { findPreset } from '../../scenarios';
import { computeRunView } from './computeRun';
import { defaultPace } from './pace';
import { advance, FRAME_REAL_MS } from './playback';
import type { RunView } from './runView';

function presetView(id: string): RunView {
  const r = computeRunView(structuredClone(findPreset(id)!.variant.scenario));
  if (!r.ok) throw new Error(id);
  return r.view;
}

/** Where `frames` frames of 1/60 s each take the cursor from t = 0, and the idle time skipped. */
function at60Hz(v: RunView, speed: number, frames: number) {
  let a = advance(v, 0, 0, speed, true);
  let skipped = a.skipped;
  for (let k = 0; k < frames && !a.done; k++) {
    a = advance(v, a.t, FRAME_REAL_MS, speed, true);
    skipped += a.skipped;
  }
  return { ...a, skipped };
}

describe('advance: one frame of playback', () => {
  // The card charge at its pace: a 60 ms story played in about 30 s (src/views/run/pace.test.ts),
  // its idle stretches skipped frame by frame.
  const view = presetView('card-charge-idempotency');
  const pace = defaultPace(view);

  it('a long frame (a slow machine) lands where the 60 Hz frames of that time would', () => {
    // 10 s in one frame = 600 frames of 1/60 s, each with its own idle skip. Before, the frame
    // was clamped to 100 ms: the story ran slower than its pace on any machine under 10 fps.
    const one = advance(view, 0, 10_000, pace, true);
    const many = at60Hz(view, pace, 600);
    expect(one.t).toBeCloseTo(many.t, 9);
    expect(one.idx).toBe(many.idx);
    expect(one.skipped).toBeCloseTo(many.skipped, 9);
    expect(one.done).toBe(false);
  });

  it('a frame of more than 10 s is a pause (a sleeping laptop): it plays 10 s', () => {
    const capped = advance(view, 0, 10 * 60_000, pace, true);
    expect(capped).toEqual(advance(view, 0, 10_000, pace, true));
  });

  it('a frame of up to 100 ms is one step, as before: the speed times its real time', () => {
    // Without idle skipping, 50 ms at ×pace moves the cursor 50 × pace virtual ms.
    expect(advance(view, 0, 50, pace, false).t).toBeCloseTo(50 * pace, 12);
  });
});
