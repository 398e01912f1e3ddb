import { describe, expect, it } from 'vitest';
import type { ScenarioInput } from '../../engine';
import type { LabState } from '../../store/labStore';
import { presentParamOf, prefsState, workspaceOf } from './workspace';

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
      present: true,
      theme: 'dark',
    }) as unknown as LabState;

  it('is the scenario on screen when the lab accepts it', () => {
    expect(workspaceOf(state(valid, valid))).toEqual({
      scenario: valid,
      presetRef: 'x/y',
      // The speed is not kept: each scenario opened plays at its own pace.
      // Projector mode and the colour scheme are remembered (issue 24).
      prefs: { skipIdle: true, fontStep: 2, tab: 'ledger', present: true, theme: 'dark' },
    });
  });

  it('restores projector mode and the colour scheme, ignoring values that are none', () => {
    expect(prefsState({ present: true, theme: 'light' })).toEqual({
      present: true,
      theme: 'light',
    });
    expect(prefsState({ present: 'yes', theme: 'blue' })).toEqual({});
  });

  it('reads ?present=1 / ?present=0 from the address, and nothing else', () => {
    expect(presentParamOf('?present=1')).toBe(true);
    expect(presentParamOf('?preset=x&present=0')).toBe(false);
    expect(presentParamOf('?present=maybe')).toBeNull();
    expect(presentParamOf('?preset=x')).toBeNull();
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
