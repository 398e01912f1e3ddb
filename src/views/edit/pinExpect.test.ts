import { describe, expect, it } from 'vitest';
import { compareExpect, parseScenario, simulate, type ScenarioInput } from '../../engine';
import { applyGuarantee, findPreset } from '../../scenarios';
import { computeRunView } from '../run/computeRun';
import { outgoingScenario, PINNED_IDS_MAX, pinExpect } from './pinExpect';

/** `--check`'s differences for a scenario (engine/expect.ts). */
const check = (s: ScenarioInput) => {
  const parsed = parseScenario(s);
  if (!parsed.ok) throw new Error('invalid');
  return compareExpect(simulate(parsed.scenario), parsed.scenario.expect!);
};

const viewOf = (s: ScenarioInput) => {
  const r = computeRunView(s);
  if (!r.ok) throw new Error('no run');
  return r.view;
};

describe('pinExpect: a scenario leaves the page with an expect block true to its run', () => {
  const preset = findPreset('at-least-once/default')!.variant.scenario;

  it('the at-least-once preset switched to exactly-once: the stale block fails --check, the pinned one passes, same shape', () => {
    // The preset pins 24 rows, 4 duplicates, sum 2,320, p-4/p-5/p-7 twice, observed
    // at-least-once. With the exactly-once recipe (idempotence, ON CONFLICT) the run has 20 rows,
    // no duplicate, sum 2,100: every pinned value but p-8 differs.
    const edited = applyGuarantee(preset, 'exactly-once');
    expect(check(edited).map((m) => m.path)).toEqual([
      'totals.rows',
      'totals.duplicates',
      'totals.sum',
      'rows.p-4',
      'rows.p-5',
      'rows.p-7',
      'observed',
    ]);
    const pinned = pinExpect(edited, viewOf(edited));
    expect(pinned.expect).toEqual({
      totals: { rows: 20, duplicates: 0, lost: 0, sum: 2100 },
      rows: { 'p-4': 1, 'p-5': 1, 'p-7': 1, 'p-8': 1 },
      observed: 'exactly-once',
    });
    expect(check(pinned)).toEqual([]);
    // Nothing else changes.
    expect({ ...pinned, expect: edited.expect }).toEqual(edited);
  });

  it('a pinned fault atlas leaves the page as written (only the CLI runs the atlas it pins)', () => {
    const atlas = { kinds: ['crash'], breaks: 0 };
    const withAtlas = { ...preset, expect: { ...preset.expect, atlas } };
    const pinned = pinExpect(withAtlas, viewOf(withAtlas));
    expect(pinned.expect?.atlas).toEqual(atlas);
    expect(pinned.expect?.totals).toEqual({ rows: 24, duplicates: 4, lost: 0, sum: 2320 });
  });

  it('a scenario without a block gets one, which --check passes (it could not be pinned before)', () => {
    // The at-least-once preset as if built from scratch: the run is the preset's — 20 payments
    // (sum 2,100), p-4 appended twice by the producer's retry, p-5..p-7 replayed after the crash:
    // 24 rows, 4 duplicates, nothing lost, sum 2,100 + 40 + 50 + 60 + 70 = 2,320.
    const { expect: _e, ...bare } = preset;
    const pinned = pinExpect(bare, viewOf(bare));
    expect(pinned.expect).toEqual({
      totals: { rows: 24, duplicates: 4, lost: 0, sum: 2320 },
      rows: { 'p-4': 2, 'p-5': 2, 'p-6': 2, 'p-7': 2 },
      observed: 'at-least-once',
    });
    expect(check(pinned)).toEqual([]);
    expect({ ...pinned, expect: undefined }).toEqual({ ...bare, expect: undefined });
    // Lost events are listed with 0 rows: at-most-once loses p-9 and p-10 (18 rows,
    // 2,100 − 90 − 100 = 1,910).
    const { expect: _m, ...amo } = findPreset('at-most-once')!.variant.scenario;
    expect(pinExpect(amo, viewOf(amo)).expect).toEqual({
      totals: { rows: 18, duplicates: 0, lost: 2, sum: 1910 },
      rows: { 'p-9': 0, 'p-10': 0 },
      observed: 'at-most-once',
    });
    // At most 20 ids: the Flink plain sink writes e201..e250 twice (300 rows, 50 duplicates).
    const { expect: _f, ...flink } = findPreset('flink-checkpoint-replay/plain-sink')!.variant
      .scenario;
    const many = pinExpect(flink, viewOf(flink));
    expect(PINNED_IDS_MAX).toBe(20);
    expect(Object.keys(many.expect!.rows!)).toEqual(
      Array.from({ length: 20 }, (_, k) => `e${201 + k}`),
    );
    expect(many.expect!.totals).toMatchObject({ rows: 300, duplicates: 50, lost: 0 });
    expect(check(many)).toEqual([]);
    // No run yet: nothing to write.
    expect(pinExpect(bare, null)).toBe(bare);
  });

  it('an unknown id and an unknown point are dropped', () => {
    const odd: ScenarioInput = {
      ...preset,
      expect: {
        rows: { 'p-4': 9, nope: 1 },
        points: { sink: { totals: { rows: 1 } }, 'reader:x': {} },
      },
    };
    expect(pinExpect(odd, viewOf(odd)).expect).toEqual({
      rows: { 'p-4': 2 },
      points: { sink: { totals: { rows: 24 } } },
    });
  });
});

describe('outgoingScenario: the one rule for Share, Embed and the Scenario (JSON) export', () => {
  const preset = findPreset('lost-ack-retry/idempotence-off')!.variant.scenario;
  const view = viewOf(preset);

  it('while the answer is hidden the expect block (the answer) stays out, ready or not', () => {
    for (const ready of [true, false]) {
      const out = outgoingScenario(preset, view, { ready, answerHidden: true });
      expect(out.expect).toBeUndefined();
      expect({ ...out, expect: preset.expect }).toEqual(preset);
    }
    // The scenario itself is not touched.
    expect(preset.expect).toBeDefined();
  });

  it('once shown: pinned to the run on screen when it is this scenario’s, else as written', () => {
    const edited = applyGuarantee(preset, 'exactly-once');
    expect(outgoingScenario(edited, viewOf(edited), { ready: true, answerHidden: false })).toEqual(
      pinExpect(edited, viewOf(edited)),
    );
    expect(outgoingScenario(edited, view, { ready: false, answerHidden: false })).toBe(edited);
  });
});
