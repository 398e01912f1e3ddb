import { describe, expect, it } from 'vitest';
import { compareExpect, parseScenario, simulate, type ScenarioInput } from '../engine';
import { applyGuarantee, findPreset } from '../scenarios';
import { computeRunView } from './computeRun';
import { pinExpect } from './pinExpect';

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

  it('a scenario without a block keeps none; an unknown id and an unknown point are dropped', () => {
    const { expect: _e, ...bare } = preset;
    expect(pinExpect(bare, viewOf(bare))).toBe(bare);
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
