import { describe, expect, it, vi } from 'vitest';
import { persist } from 'zustand/middleware';
import { createStore } from 'zustand/vanilla';
import type { ScenarioInput } from '../engine';
import {
  SET_ASIDE_KEY,
  WORKSPACE_KEY,
  WORKSPACE_MIGRATIONS,
  WORKSPACE_VERSION,
  checkWorkspace,
  loadWorkspace,
  migrateWorkspace,
  restoreWorkspace,
  saveWorkspace,
  workspacePersistOptions,
  type StorageLike,
  type Workspace,
  type WorkspaceCodec,
} from './storage';

const SCENARIO: ScenarioInput = {
  version: 1,
  name: 'Saved',
  workload: { events: [{ id: 'p-1', amount: 10, at: 0 }] },
  faults: [{ kind: 'crash', target: 'consumer-0', at: 5 }],
};
const WORKSPACE: Workspace = {
  scenario: SCENARIO,
  presetRef: 'at-least-once/default',
  prefs: { speed: 2, skipIdle: true },
};
const envelope = (state: unknown, version = WORKSPACE_VERSION) =>
  JSON.stringify({ state, version });

/** A Map-backed Storage; `failOn` makes a method throw like a real browser would. */
function memoryStorage(
  initial: Record<string, string> = {},
  failOn: { get?: Error; set?: Error } = {},
) {
  const map = new Map(Object.entries(initial));
  const storage: StorageLike & { map: Map<string, string> } = {
    map,
    getItem: (k) => {
      if (failOn.get) throw failOn.get;
      return map.get(k) ?? null;
    },
    setItem: (k, v) => {
      if (failOn.set) throw failOn.set;
      map.set(k, v);
    },
    removeItem: (k) => void map.delete(k),
  };
  return storage;
}

const quota = () =>
  Object.assign(new Error('The quota has been exceeded.'), { name: 'QuotaExceededError' });

/**
 * Synthetic old formats, declared here only to exercise the migration mechanism (this app never
 * saved them): format 0 kept the scenario under `current` and the speed at the top level;
 * format 1 is today's. A codec with a format 2 checks that steps chain.
 */
const OLD: WorkspaceCodec = {
  version: 1,
  migrations: {
    0: (s) => ({ scenario: s.current, presetRef: null, prefs: { speed: s.speed } }),
  },
};
const CHAINED: WorkspaceCodec = {
  version: 2,
  migrations: {
    ...OLD.migrations,
    1: (s) => ({ ...s, prefs: { ...(s.prefs as object), theme: 'light' } }),
  },
};

describe('migrations', () => {
  it('this build writes format 1 and has no migration yet', () => {
    expect(WORKSPACE_VERSION).toBe(1);
    expect(WORKSPACE_MIGRATIONS).toEqual({});
  });

  it('format 0 → 1 (synthetic): each step in turn', () => {
    expect(migrateWorkspace({ current: SCENARIO, speed: 4 }, 0, OLD)).toEqual({
      scenario: SCENARIO,
      presetRef: null,
      prefs: { speed: 4 },
    });
  });

  it('format 0 → 2 (synthetic): the steps chain', () => {
    expect(migrateWorkspace({ current: SCENARIO, speed: 4 }, 0, CHAINED)).toEqual({
      scenario: SCENARIO,
      presetRef: null,
      prefs: { speed: 4, theme: 'light' },
    });
  });

  it('refuses a newer format, a missing step, a failing step', () => {
    expect(() => migrateWorkspace({}, 2)).toThrow(
      'saved by a newer Delivery Lab (format 2, this one reads up to 1)',
    );
    expect(() => migrateWorkspace({}, 0)).toThrow('no migration from format 0');
    const failing: WorkspaceCodec = {
      version: 1,
      migrations: {
        0: () => {
          throw new Error('boom');
        },
      },
    };
    expect(() => migrateWorkspace({}, 0, failing)).toThrow('migration from format 0 failed: boom');
  });
});

describe('restoreWorkspace (pure)', () => {
  it('restores a valid workspace, filling absent optional parts', () => {
    expect(restoreWorkspace(envelope(WORKSPACE))).toEqual({
      status: 'restored',
      workspace: WORKSPACE,
      fromVersion: 1,
    });
    expect(restoreWorkspace(envelope({ scenario: SCENARIO }))).toEqual({
      status: 'restored',
      workspace: { scenario: SCENARIO, presetRef: null, prefs: {} },
      fromVersion: 1,
    });
    expect(restoreWorkspace(null)).toEqual({ status: 'empty' });
  });

  it('reports corrupt JSON, foreign JSON, a newer version, an invalid scenario', () => {
    expect(restoreWorkspace('{"state": {"scen')).toMatchObject({
      status: 'unusable',
      reason: 'it is not valid JSON',
    });
    expect(restoreWorkspace('[1,2]')).toMatchObject({
      status: 'unusable',
      reason: 'it is not a saved workspace',
    });
    expect(restoreWorkspace('{"state": {}}')).toMatchObject({
      status: 'unusable',
      reason: 'it is not a saved workspace',
    });
    expect(restoreWorkspace(envelope(WORKSPACE, 7))).toMatchObject({
      status: 'unusable',
      version: 7,
    });
    const bad = restoreWorkspace(
      envelope({ ...WORKSPACE, scenario: { ...SCENARIO, producer: { acks: 2 } } }),
    );
    expect(bad).toMatchObject({ status: 'unusable' });
    if (bad.status === 'unusable') expect(bad.reason).toContain('producer.acks');
  });

  it('checks the preferences: flat, small, primitive', () => {
    expect(checkWorkspace({ ...WORKSPACE, prefs: { a: { nested: 1 } } })).toMatchObject({
      ok: false,
    });
    expect(checkWorkspace({ ...WORKSPACE, prefs: { a: 'x'.repeat(500) } })).toMatchObject({
      ok: false,
    });
    expect(checkWorkspace({ ...WORKSPACE, presetRef: 42 })).toMatchObject({ ok: false });
  });

  it('keeps a refused edit saved on top of a valid scenario (an object), drops anything else', () => {
    const refused = { ...SCENARIO, producer: { acks: 2 } };
    expect(checkWorkspace({ ...WORKSPACE, refused })).toMatchObject({
      ok: true,
      workspace: { scenario: WORKSPACE.scenario, refused },
    });
    const notObject = checkWorkspace({ ...WORKSPACE, refused: 'x' });
    expect(notObject.ok && 'refused' in notObject.workspace).toBe(false);
  });
});

describe('checkWorkspace: the claim question of imported files (claimAsked)', () => {
  it('keeps a claim the lab knows with its workload; leaves out anything else, the workspace opening', () => {
    const claimAsked = { value: 'exactly-once', workload: 'lost-ack-retry/idempotence-on' };
    const kept = checkWorkspace({ ...WORKSPACE, claimAsked });
    expect(kept.ok && kept.workspace.claimAsked).toEqual(claimAsked);
    for (const bad of [
      { value: 'twice-only', workload: 'x' },
      { value: 'exactly-once', workload: '' },
      { value: 'exactly-once', workload: 'x'.repeat(201) },
      { value: 'exactly-once' },
      'exactly-once',
      ['exactly-once', 'x'],
      null,
    ]) {
      const r = checkWorkspace({ ...WORKSPACE, claimAsked: bad });
      expect(r.ok).toBe(true);
      expect(r.ok && 'claimAsked' in r.workspace).toBe(false);
    }
  });
});

describe('loadWorkspace / saveWorkspace (store-agnostic)', () => {
  it('saves and loads a workspace', () => {
    const s = memoryStorage();
    expect(saveWorkspace(WORKSPACE, () => s)).toBeNull();
    expect(JSON.parse(s.map.get(WORKSPACE_KEY)!)).toEqual({ state: WORKSPACE, version: 1 });
    expect(loadWorkspace(() => s)).toEqual({ workspace: WORKSPACE, notice: null });
  });

  it('sets a corrupt saved state aside, keeps it, and says so', () => {
    const raw = '{"state": {"scenario": ';
    const s = memoryStorage({ [WORKSPACE_KEY]: raw });
    const r = loadWorkspace(() => s);
    expect(r.workspace).toBeNull();
    expect(r.notice).toEqual({
      kind: 'set-aside',
      message: `Your saved workspace could not be restored: it is not valid JSON. It was kept under "${SET_ASIDE_KEY}" in this browser's storage, and the lab started from its default scenario. Export downloads it as a file; Discard deletes it.`,
    });
    expect(s.map.has(WORKSPACE_KEY)).toBe(false);
    expect(JSON.parse(s.map.get(SET_ASIDE_KEY)!)).toMatchObject({
      reason: 'it is not valid JSON',
      version: null,
      raw,
    });
    // The next start is clean.
    expect(loadWorkspace(() => s)).toEqual({ workspace: null, notice: null });
  });

  it('keeps a workspace from a newer app where it was (that app opens it as it is)', () => {
    const raw = envelope(WORKSPACE, 5);
    const s = memoryStorage({ [WORKSPACE_KEY]: raw });
    expect(loadWorkspace(() => s).notice?.kind).toBe('kept');
    expect(s.map.get(WORKSPACE_KEY)).toBe(raw);
    expect(s.map.has(SET_ASIDE_KEY)).toBe(false);
  });

  it('a second failure keeps the first copy: the next goes under :2', () => {
    // A newcomer's second corrupted workspace replaced the first one set aside.
    const s = memoryStorage({ [WORKSPACE_KEY]: 'first' });
    loadWorkspace(() => s);
    s.map.set(WORKSPACE_KEY, '{"version":"x"}');
    const r = loadWorkspace(() => s);
    expect(r.notice?.message).toBe(
      `Your saved workspace could not be restored: it is not a saved workspace. It was kept under "${SET_ASIDE_KEY}:2" in this browser's storage, and the lab started from its default scenario. Export downloads it as a file; Discard deletes it.`,
    );
    expect(JSON.parse(s.map.get(SET_ASIDE_KEY)!)).toMatchObject({ raw: 'first' });
    expect(JSON.parse(s.map.get(`${SET_ASIDE_KEY}:2`)!)).toMatchObject({
      raw: '{"version":"x"}',
      version: null,
    });
    // A newer build's envelope is said so, whatever its shape.
    s.map.set(WORKSPACE_KEY, '{"version":999}');
    expect(loadWorkspace(() => s).notice?.message).toContain(
      'it was saved by a newer Delivery Lab (format 999, this one reads up to 1). It stays where it was',
    );
  });

  it('migrates an old format on load (synthetic format 0)', () => {
    const s = memoryStorage({ [WORKSPACE_KEY]: envelope({ current: SCENARIO, speed: 3 }, 0) });
    expect(loadWorkspace(() => s, OLD)).toEqual({
      workspace: { scenario: SCENARIO, presetRef: null, prefs: { speed: 3 } },
      notice: null,
    });
  });

  it('tells when storage is unavailable or full, never throws', () => {
    const blocked = memoryStorage({}, { get: new Error('SecurityError: access denied') });
    expect(loadWorkspace(() => blocked).notice?.kind).toBe('unavailable');
    expect(
      loadWorkspace(() => {
        throw new Error('no localStorage');
      }).notice?.kind,
    ).toBe('unavailable');
    const full = memoryStorage({}, { set: quota() });
    expect(saveWorkspace(WORKSPACE, () => full)?.kind).toBe('full');
  });
});

describe('workspacePersistOptions (zustand persist)', () => {
  interface State {
    scenario: ScenarioInput;
    presetRef: string | null;
    speed: number;
    cursor: number;
    setSpeed(speed: number): void;
  }
  const DEFAULT: ScenarioInput = {
    version: 1,
    name: 'Default',
    workload: { events: [{ id: 'd', amount: 1, at: 0 }] },
  };

  function store(storage: StorageLike, codec?: WorkspaceCodec) {
    const onNotice = vi.fn();
    const s = createStore<State>()(
      persist(
        (set) => ({
          scenario: DEFAULT,
          presetRef: null,
          speed: 1,
          cursor: 0,
          setSpeed: (speed) => set({ speed }),
        }),
        workspacePersistOptions<State>({
          partialize: (st) => ({
            scenario: st.scenario,
            presetRef: st.presetRef,
            prefs: { speed: st.speed },
          }),
          apply: (ws, current) => ({
            ...current,
            scenario: ws.scenario,
            presetRef: ws.presetRef,
            speed: typeof ws.prefs.speed === 'number' ? ws.prefs.speed : current.speed,
          }),
          onNotice,
          storage: () => storage,
          ...(codec ? { codec } : {}),
        }),
      ),
    );
    return { s, onNotice };
  }

  it('restores the saved workspace on creation and saves changes', () => {
    const storage = memoryStorage({ [WORKSPACE_KEY]: envelope(WORKSPACE) });
    const { s, onNotice } = store(storage);
    expect(s.getState()).toMatchObject({
      scenario: SCENARIO,
      presetRef: 'at-least-once/default',
      speed: 2,
    });
    expect(onNotice).not.toHaveBeenCalled();
    s.getState().setSpeed(8);
    expect(JSON.parse(storage.map.get(WORKSPACE_KEY)!)).toEqual({
      state: { scenario: SCENARIO, presetRef: 'at-least-once/default', prefs: { speed: 8 } },
      version: 1,
    });
  });

  it('a corrupt saved state: defaults, a notice, the old text set aside; the app keeps saving', () => {
    const storage = memoryStorage({ [WORKSPACE_KEY]: 'not json at all' });
    const { s, onNotice } = store(storage);
    expect(s.getState()).toMatchObject({ scenario: DEFAULT, speed: 1 });
    expect(onNotice).toHaveBeenCalledWith(expect.objectContaining({ kind: 'set-aside' }));
    expect(JSON.parse(storage.map.get(SET_ASIDE_KEY)!).raw).toBe('not json at all');
    s.getState().setSpeed(3);
    expect(JSON.parse(storage.map.get(WORKSPACE_KEY)!).state.prefs).toEqual({ speed: 3 });
  });

  it('an invalid scenario in storage is set aside too (the page never gets it)', () => {
    const storage = memoryStorage({
      [WORKSPACE_KEY]: envelope({ ...WORKSPACE, scenario: { version: 1, name: '' } }),
    });
    const { s, onNotice } = store(storage);
    expect(s.getState().scenario).toBe(DEFAULT);
    expect(onNotice.mock.calls[0]![0].message).toContain('the saved scenario is invalid');
  });

  it('an old format goes through migrate and is written back in the current format', () => {
    const storage = memoryStorage({
      [WORKSPACE_KEY]: envelope({ current: SCENARIO, speed: 5 }, 0),
    });
    const { s, onNotice } = store(storage, OLD);
    expect(onNotice).not.toHaveBeenCalled();
    expect(s.getState()).toMatchObject({ scenario: SCENARIO, speed: 5 });
    expect(JSON.parse(storage.map.get(WORKSPACE_KEY)!)).toEqual({
      state: { scenario: SCENARIO, presetRef: null, prefs: { speed: 5 } },
      version: 1,
    });
  });

  it('a full storage is reported once, and the store goes on', () => {
    const storage = memoryStorage({}, { set: quota() });
    const { s, onNotice } = store(storage);
    s.getState().setSpeed(2);
    s.getState().setSpeed(3);
    expect(onNotice).toHaveBeenCalledTimes(1);
    expect(onNotice).toHaveBeenCalledWith(expect.objectContaining({ kind: 'full' }));
    expect(s.getState().speed).toBe(3);
  });

  it('does not rewrite an unchanged workspace (the cursor is not part of it)', () => {
    const saved = { ...WORKSPACE, prefs: { speed: 2 } };
    const storage = memoryStorage({ [WORKSPACE_KEY]: envelope(saved) });
    const setItem = vi.spyOn(storage, 'setItem');
    const { s } = store(storage);
    s.setState({ cursor: 10 });
    s.setState({ cursor: 20 });
    expect(setItem).not.toHaveBeenCalled();
    s.getState().setSpeed(4);
    expect(setItem).toHaveBeenCalledTimes(1);
  });
});
