import { describe, expect, it } from 'vitest';
import type { ScenarioInput } from '../../engine';
import type { LabState } from '../../store/labStore';
import { prefsState, workspaceOf } from './workspace';

describe('the saved workspace', () => {
  const valid: ScenarioInput = { version: 1, name: 'mine', workload: { generate: { count: 2 } } };
  const refused = { ...valid, producer: { acks: 7 } } as unknown as ScenarioInput;
  const state = (scenario: ScenarioInput, viewFor: ScenarioInput | null) =>
    ({
      scenario,
      viewFor,
      presetRef: 'x/y',
      speed: 1,
      skipIdle: true,
      fontStep: 2,
      tab: 'ledger',
    }) as unknown as LabState;

  it('is the scenario on screen when the lab accepts it', () => {
    expect(workspaceOf(state(valid, valid))).toEqual({
      scenario: valid,
      presetRef: 'x/y',
      // The speed is not kept: each scenario opened plays at its own pace.
      prefs: { skipIdle: true, fontStep: 2, tab: 'ledger' },
    });
  });

  it('saves a refused edit on top of the last valid scenario (the run on screen)', () => {
    expect(workspaceOf(state(refused, valid))).toMatchObject({
      scenario: valid,
      refused,
      presetRef: null,
    });
    // Nothing valid to fall back on (the first scenario refused): saved as it is.
    expect(workspaceOf(state(refused, null))).toMatchObject({ scenario: refused });
    expect(workspaceOf(state(refused, null))).not.toHaveProperty('refused');
  });
});

describe('saved preferences', () => {
  it('are applied when valid and ignored otherwise', () => {
    // A speed saved by an older version is ignored: the scenario's pace sets it.
    expect(prefsState({ speed: 0.1, skipIdle: false, fontStep: 3, tab: 'knobs' })).toEqual({
      skipIdle: false,
      fontStep: 3,
      tab: 'knobs',
    });
    expect(prefsState({ speed: 1e6, skipIdle: 'yes', fontStep: 99, tab: '<script>' })).toEqual({});
  });
});
