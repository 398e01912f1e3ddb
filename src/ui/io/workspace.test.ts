import { describe, expect, it } from 'vitest';
import type { ScenarioInput } from '../../engine';
import type { LabState } from '../../store/labStore';
import { checkWorkspace } from '../../platform/storage';
import { presetLab } from '../testLab';
import { resolvePresetParam } from '../../platform/presetUrl';
import { chooseStart, replacedUndoStep } from './startup';
import {
  presentParamOf,
  prefsState,
  restorePageState,
  restoreReplacedPageState,
  subscribeWorkspace,
  workspaceOf,
} from './workspace';

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
      atlas: {},
      compare: null,
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

describe('the atlas choice and Compare in the saved workspace (issue #23)', () => {
  /** A workspace through storage as autosave writes it and start-up reads it. */
  const throughStorage = (ws: unknown) => {
    const checked = checkWorkspace(JSON.parse(JSON.stringify(ws)));
    if (!checked.ok) throw new Error(checked.reason);
    return chooseStart({
      share: null,
      preset: null,
      saved: { workspace: checked.workspace, notice: null },
    });
  };

  it('are saved as the share link writes them, and come back on reload', () => {
    const lab = presetLab('lost-ack-retry');
    let saves = 0;
    const off = subscribeWorkspace(lab, () => saves++);
    const atlas = { kinds: ['crash', 'zombie'], pairs: true };
    const compare = { lanes: [{ guarantee: 'exactly-once' as const }] };
    lab.actions.setAtlas(atlas, 'Fault atlas: kinds');
    lab.actions.setCompare(compare);
    // "Explored" changes the choice alone (not the scenario): autosave hears it too.
    lab.actions.noteAtlasExplored();
    expect(saves).toBe(3);
    off();
    const saved = workspaceOf(lab.app.getState());
    expect(saved.atlas).toMatch(/^1\.[\w-]+$/);
    expect(saved.compare).toMatch(/^1\.[\w-]+$/);
    const start = throughStorage(saved);
    expect(start.source).toBe('workspace');
    const reloaded = presetLab('lost-ack-retry');
    const said: string[] = [];
    restorePageState(reloaded, { push: (n) => said.push(n.text) }, start.pageState!);
    expect(reloaded.app.getState().atlas).toEqual({ ...atlas, explored: true });
    expect(reloaded.app.getState().compare).toEqual(compare);
    expect(said).toEqual([]);
    // A page in its default state saves neither (a workspace as before them).
    expect(workspaceOf(presetLab('lost-ack-retry').app.getState())).not.toHaveProperty('atlas');
    expect(
      throughStorage(workspaceOf(presetLab('lost-ack-retry').app.getState())),
    ).not.toHaveProperty('pageState');
  });

  it('a bad stored value is refused naming its field; the workspace opens without it, its other part kept', () => {
    const lab = presetLab('lost-ack-retry');
    lab.actions.setAtlas({ kinds: ['crash'] }, 'Fault atlas: kinds');
    lab.actions.setCompare({ lanes: [{ guarantee: 'exactly-once' }] });
    const saved = { ...workspaceOf(lab.app.getState()), compare: '1.e3' };
    const start = throughStorage(saved);
    // The scenario is restored: the work is kept, not set aside.
    expect(start.initial).toEqual(lab.app.getState().scenario);
    const reloaded = presetLab('lost-ack-retry');
    const said: string[] = [];
    restorePageState(reloaded, { push: (n) => said.push(n.text) }, start.pageState!);
    expect(reloaded.app.getState().atlas).toEqual({ kinds: ['crash'] });
    expect(reloaded.app.getState().compare).toBeNull();
    expect(said).toEqual([
      'saved workspace, compare (c=): the data is damaged. Your workspace opened without it.',
    ]);
    // Not a string at all (storage is data from anywhere): named the same way.
    said.length = 0;
    restorePageState(reloaded, { push: (n) => said.push(n.text) }, { atlas: 42 } as never);
    expect(said).toEqual([
      'saved workspace, fault atlas (a=): expected <version>.<data>. Your workspace opened without it.',
    ]);
  });
});

describe('the saved workspace a link replaced: one Undo brings it back as left (issue #23)', () => {
  /** The page's start on `?preset=at-most-once` over a saved workspace, as ./bootLab.ts makes it. */
  const linkOver = (ws: unknown) => {
    const checked = checkWorkspace(JSON.parse(JSON.stringify(ws)));
    if (!checked.ok) throw new Error(checked.reason);
    const start = chooseStart({
      share: null,
      preset: resolvePresetParam('at-most-once'),
      saved: { workspace: checked.workspace, notice: null },
    });
    const lab = presetLab('at-most-once');
    lab.app.setState({ past: [replacedUndoStep(start.previous!)] });
    return { lab, previous: start.previous! };
  };

  it('its scenario, preset, atlas choice and lanes', () => {
    const mine = presetLab('lost-ack-retry');
    const atlas = { kinds: ['crash', 'zombie'], pairs: true };
    const compare = { lanes: [{ guarantee: 'exactly-once' as const }] };
    mine.actions.setAtlas(atlas, 'Fault atlas: kinds');
    mine.actions.setCompare(compare);
    const left = mine.app.getState();
    const { lab, previous } = linkOver(workspaceOf(left));
    const said: string[] = [];
    restoreReplacedPageState(lab, { push: (n) => said.push(n.text) }, previous);
    // The link's preset on screen, in its own default state.
    expect(lab.app.getState()).toMatchObject({ presetRef: 'at-most-once/default', atlas: {} });
    expect(lab.app.getState().compare).toBeNull();
    lab.actions.undo();
    expect(lab.app.getState().scenario).toEqual(left.scenario);
    expect(lab.app.getState().presetRef).toBe(left.presetRef);
    expect(lab.app.getState().atlas).toEqual(atlas);
    expect(lab.app.getState().compare).toEqual(compare);
    expect(said).toEqual([]);
  });

  it('a bad stored value is refused naming its field; Undo brings back the rest', () => {
    const mine = presetLab('lost-ack-retry');
    mine.actions.setAtlas({ kinds: ['crash'] }, 'Fault atlas: kinds');
    mine.actions.setCompare({ lanes: [{ guarantee: 'exactly-once' }] });
    const { lab, previous } = linkOver({ ...workspaceOf(mine.app.getState()), compare: '1.e3' });
    const said: string[] = [];
    restoreReplacedPageState(lab, { push: (n) => said.push(n.text) }, previous);
    expect(said).toEqual([
      'saved workspace, compare (c=): the data is damaged. Undo brings back your workspace without it.',
    ]);
    lab.actions.undo();
    expect(lab.app.getState().atlas).toEqual({ kinds: ['crash'] });
    expect(lab.app.getState().compare).toBeNull();
  });
});

describe('a link or a file opened, then a reload: its outcome still waits for its end', () => {
  /** A workspace through storage as autosave writes it and start-up reads it. */
  const reloaded = (ws: unknown) => {
    const checked = checkWorkspace(JSON.parse(JSON.stringify(ws)));
    if (!checked.ok) throw new Error(checked.reason);
    return chooseStart({
      share: null,
      preset: null,
      saved: { workspace: checked.workspace, notice: null },
    });
  };
  const opened = () => {
    const lab = presetLab('at-least-once');
    const file = structuredClone(lab.app.getState().scenario);
    lab.actions.loadScenario(file, { presetRef: null, opened: true, replay: true });
    return lab;
  };

  it('reopens as the replay while its end was not seen; autosave hears the end seen', () => {
    const lab = opened();
    expect(reloaded(workspaceOf(lab.app.getState()))).toMatchObject({
      source: 'workspace',
      replay: true,
    });
    // Compare opened and closed: a copy of the same run, still the replay not yet seen.
    lab.actions.setCompare({ lanes: [{ guarantee: 'exactly-once' }] });
    lab.actions.setCompare(null);
    expect(workspaceOf(lab.app.getState())).toHaveProperty('replay', true);
    // Its end seen (PredictionContext keeps it under the run the copies came from).
    let saves = 0;
    const off = subscribeWorkspace(lab, () => saves++);
    const { replay } = lab.app.getState();
    lab.app.setState({ replaySeen: replay });
    off();
    expect(saves).toBe(1);
    expect(workspaceOf(lab.app.getState())).not.toHaveProperty('replay');
    expect(reloaded(workspaceOf(lab.app.getState()))).not.toHaveProperty('replay');
  });

  it('an edit of it, a preset, or a stored value that is not `true`: where it was', () => {
    const lab = opened();
    lab.actions.setSeed(7);
    expect(workspaceOf(lab.app.getState())).not.toHaveProperty('replay');
    expect(workspaceOf(presetLab('at-least-once').app.getState())).not.toHaveProperty('replay');
    const ws = { ...workspaceOf(presetLab('at-least-once').app.getState()), replay: 'yes' };
    expect(reloaded(ws)).not.toHaveProperty('replay');
  });
});
