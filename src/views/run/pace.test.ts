import { describe, expect, it } from 'vitest';
import { parseScenario, simulate, traceHash, type ScenarioInput } from '../../engine';
import { findPreset, presets } from '../../scenarios';
import { computeRunView } from './computeRun';
import { defaultPace, paceOf, PACE_TARGET_REAL_MS, playRealMs } from './pace';
import { advance } from './playback';
import type { RunView } from './runView';

const FRAME = 1000 / 60;

function viewOf(s: ScenarioInput): RunView {
  const r = computeRunView(s);
  if (!r.ok) throw new Error('issues' in r ? JSON.stringify(r.issues) : r.error);
  return r.view;
}

/** Real ms the page's frame loop (60 Hz, idle skipped) takes from t = 0 to the run's end. */
function framesToEnd(v: RunView, speed: number): number {
  let t = 0;
  let real = 0;
  for (;;) {
    const a = advance(v, t, FRAME, speed, true);
    real += FRAME;
    t = a.t;
    if (a.done) return real;
  }
}

describe('pace', () => {
  // The issue's measure: every preset plays to its end in 20–40 s at its pace, idle cut. Played
  // here with the page's own frame arithmetic (advance), frame by frame, at 60 Hz.
  it.each(presets.map((p) => p.id))(
    '%s plays to its end in 20–40 s at its pace',
    (id) => {
      const view = viewOf(structuredClone(findPreset(id)!.variant.scenario));
      const real = framesToEnd(view, defaultPace(view));
      expect(real).toBeGreaterThanOrEqual(20_000);
      expect(real).toBeLessThanOrEqual(40_000);
    },
    120_000,
  );

  it('the old default (×0.01) plays the card charge in a few seconds: why a pace per story', () => {
    const view = viewOf(structuredClone(findPreset('card-charge-idempotency')!.variant.scenario));
    expect(playRealMs(view, 0.01)).toBeLessThan(PACE_TARGET_REAL_MS);
  });

  it("a scenario's own display.pace wins over the computed one, and does not change its run", () => {
    const s = structuredClone(presets[0]!.variants[0]!.scenario);
    const view = viewOf(s);
    expect(paceOf(s, view)).toBe(defaultPace(view));
    const own = { ...s, display: { pace: 0.5 } };
    expect(paceOf(own, view)).toBe(0.5);
    const a = parseScenario(s);
    const b = parseScenario(own);
    if (!a.ok || !b.ok) throw new Error('refused');
    expect(traceHash(simulate(b.scenario).trace)).toBe(traceHash(simulate(a.scenario).trace));
  });

  it('a pace out of range is refused, naming the field', () => {
    const s = { ...structuredClone(presets[0]!.variants[0]!.scenario), display: { pace: 0 } };
    const r = parseScenario(s);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.issues[0]!.path).toBe('display.pace');
  });
});
