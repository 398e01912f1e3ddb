// @vitest-environment jsdom
/**
 * A saved workspace the lab cannot read is never written over until the user has chosen (issue 30
 * item 11): kept where it was when there is no room to copy it aside or when a newer build wrote
 * it, the edits meanwhile saved under PENDING_KEY (and restored on reload), Discard resuming
 * autosave; a quota error while autosaving loses nothing and is told once.
 */
import { describe, expect, it } from 'vitest';
import { persist } from 'zustand/middleware';
import { createStore } from 'zustand/vanilla';
import {
  PENDING_KEY,
  SET_ASIDE_KEY,
  WORKSPACE_KEY,
  discardKept,
  loadWorkspace,
  workspacePersistOptions,
  type StorageLike,
  type StorageNotice,
  type Workspace,
} from './storage';
import { createAutosave } from './storageAutosave';

/**
 * A Map-backed storage with a quota in characters (keys and values), like a browser's: a write
 * that would pass it throws QuotaExceededError and leaves the old value.
 */
function quotaStorage(quotaChars: number, initial: Record<string, string> = {}) {
  const map = new Map(Object.entries(initial));
  const used = () => [...map].reduce((n, [k, v]) => n + k.length + v.length, 0);
  const s: StorageLike & { map: Map<string, string> } = {
    map,
    getItem: (k) => map.get(k) ?? null,
    setItem: (k, v) => {
      const after = used() - (map.has(k) ? k.length + map.get(k)!.length : 0) + k.length + v.length;
      if (after > quotaChars)
        throw Object.assign(new Error('The quota has been exceeded.'), {
          name: 'QuotaExceededError',
        });
      map.set(k, v);
    },
    removeItem: (k) => void map.delete(k),
  };
  return s;
}

const ws = (name: string): Workspace => ({
  scenario: { version: 1, name, workload: { generate: { count: 1 } } },
  presetRef: null,
  prefs: {},
});
const envelope = (w: Workspace) => JSON.stringify({ state: w, version: 1 });

/** 6,000 characters of invalid JSON: a copy (6,000 more) does not fit a 10,000-character quota. */
const UNREADABLE = `{"state":${'x'.repeat(6_000)}`;

/** An autosave over `storage` with a hand-driven workspace; notices collected by kind. */
function autosaveOver(storage: StorageLike, first: Workspace, keptAtLoad = false) {
  let current = first;
  const notices: StorageNotice[] = [];
  const auto = createAutosave({
    read: () => current,
    subscribe: () => () => {},
    storage: () => storage,
    onNotice: (n) => notices.push(n),
    keptAtLoad,
  });
  return {
    auto,
    notices,
    edit(w: Workspace) {
      current = w;
      auto.flush();
    },
  };
}

describe('a saved workspace with no room to copy it aside', () => {
  it('stays where it was; autosave writes the edits under PENDING_KEY, never over it', () => {
    const s = quotaStorage(10_000, { [WORKSPACE_KEY]: UNREADABLE });
    const load = loadWorkspace(() => s);
    expect(load.workspace).toBeNull();
    expect(load.kept).toEqual({
      key: WORKSPACE_KEY,
      stored: UNREADABLE,
      raw: UNREADABLE,
      reason: 'it is not valid JSON',
      inPlace: true,
    });
    expect(load.notice?.kind).toBe('kept');
    expect(load.notice?.message).toBe(
      "Your saved workspace could not be restored: it is not valid JSON. There is no room in this browser's storage to copy it aside, so it stays where it was, untouched: autosave will not write over it. Until you choose, your edits are saved separately and come back when you reload. Export downloads it as a file; Discard deletes it, and autosave carries on as usual. The lab started from its default scenario.",
    );
    const a = autosaveOver(s, ws('default'), true);
    a.edit(ws('edit 1'));
    a.edit(ws('edit 2'));
    // The stored bytes are unchanged; the last edit is under PENDING_KEY; nothing to tell again
    // (the load's notice said it).
    expect(s.map.get(WORKSPACE_KEY)).toBe(UNREADABLE);
    expect(s.map.get(PENDING_KEY)).toBe(envelope(ws('edit 2')));
    expect(a.notices).toEqual([]);
    a.auto.dispose();
  });

  it('a reload brings the pending edits back; the kept bytes stay untouched', () => {
    const s = quotaStorage(10_000, {
      [WORKSPACE_KEY]: UNREADABLE,
      [PENDING_KEY]: envelope(ws('edit 2')),
    });
    const load = loadWorkspace(() => s);
    expect(load.workspace).toEqual(ws('edit 2'));
    expect(load.kept?.inPlace).toBe(true);
    expect(load.notice?.message).toMatch(
      /Discard deletes it, and autosave carries on as usual\. Your edits made since were restored\.$/,
    );
    expect(s.map.get(WORKSPACE_KEY)).toBe(UNREADABLE);
  });

  it('Discard: the kept bytes go, the edits move to the workspace key, autosave as usual', () => {
    const s = quotaStorage(10_000, { [WORKSPACE_KEY]: UNREADABLE });
    const { kept } = loadWorkspace(() => s);
    const a = autosaveOver(s, ws('default'), true);
    a.edit(ws('edit 1'));
    expect(discardKept(kept!, () => s)).toBe(true);
    expect(s.map.has(WORKSPACE_KEY)).toBe(false);
    a.auto.saveNow();
    expect(s.map.get(WORKSPACE_KEY)).toBe(envelope(ws('edit 1')));
    expect(s.map.has(PENDING_KEY)).toBe(false);
    a.edit(ws('edit 2'));
    expect(s.map.get(WORKSPACE_KEY)).toBe(envelope(ws('edit 2')));
    expect(loadWorkspace(() => s)).toEqual({ workspace: ws('edit 2'), notice: null });
    a.auto.dispose();
  });

  it('Discard leaves alone a workspace another tab has written there since', () => {
    const s = quotaStorage(10_000, { [WORKSPACE_KEY]: UNREADABLE });
    const { kept } = loadWorkspace(() => s);
    s.map.set(WORKSPACE_KEY, envelope(ws('other tab')));
    expect(discardKept(kept!, () => s)).toBe(true);
    expect(s.map.get(WORKSPACE_KEY)).toBe(envelope(ws('other tab')));
  });

  it('a full storage while the edits go aside: nothing lost, told once', () => {
    // The pending copy of edit 1 fits (10,000 − 6,000 − keys); a 5,000-character name does not.
    const s = quotaStorage(10_000, { [WORKSPACE_KEY]: UNREADABLE });
    loadWorkspace(() => s);
    const a = autosaveOver(s, ws('default'), true);
    a.edit(ws('edit 1'));
    a.edit(ws('y'.repeat(5_000)));
    a.edit(ws('z'.repeat(5_000)));
    expect(a.notices.map((n) => n.kind)).toEqual(['full']);
    expect(s.map.get(WORKSPACE_KEY)).toBe(UNREADABLE);
    expect(s.map.get(PENDING_KEY)).toBe(envelope(ws('edit 1')));
    a.auto.dispose();
  });
});

describe('a workspace saved by a newer Delivery Lab', () => {
  const NEWER = JSON.stringify({ state: { anything: true }, version: 2 });

  it('stays where it was even with room to copy it (the newer build opens it as it is)', () => {
    const s = quotaStorage(1_000_000, { [WORKSPACE_KEY]: NEWER });
    const load = loadWorkspace(() => s);
    expect(load.kept).toMatchObject({ key: WORKSPACE_KEY, raw: NEWER, inPlace: true });
    expect(load.notice?.message).toContain(
      'it was saved by a newer Delivery Lab (format 2, this one reads up to 1). It stays where it was, untouched, so that the newer version opens it: autosave will not write over it.',
    );
    expect(s.map.has(SET_ASIDE_KEY)).toBe(false);
    const a = autosaveOver(s, ws('default'), true);
    a.edit(ws('edit'));
    expect(s.map.get(WORKSPACE_KEY)).toBe(NEWER);
    expect(s.map.get(PENDING_KEY)).toBe(envelope(ws('edit')));
    a.auto.dispose();
  });

  it('written by another tab meanwhile: autosave does not write over it, and says so once', () => {
    const s = quotaStorage(1_000_000, { [WORKSPACE_KEY]: envelope(ws('mine')) });
    const a = autosaveOver(s, ws('mine'));
    a.edit(ws('edit 1'));
    expect(s.map.get(WORKSPACE_KEY)).toBe(envelope(ws('edit 1')));
    s.map.set(WORKSPACE_KEY, NEWER); // the newer build, in another tab, saves
    a.edit(ws('edit 2'));
    a.edit(ws('edit 3'));
    expect(s.map.get(WORKSPACE_KEY)).toBe(NEWER);
    expect(s.map.get(PENDING_KEY)).toBe(envelope(ws('edit 3')));
    expect(a.notices.map((n) => n.kind)).toEqual(['kept']);
    expect(a.notices[0]!.message).toBe(
      'Another tab saved a workspace this one cannot read (it was saved by a newer Delivery Lab (format 2, this one reads up to 1)). Autosave will not write over it: your edits here are saved separately, and come back when you reload, which offers to export or discard it.',
    );
    // Once the other tab's workspace is readable again (it saved an older format), autosave
    // writes there as usual and the pending copy goes.
    s.map.set(WORKSPACE_KEY, envelope(ws('other tab')));
    a.edit(ws('edit 4'));
    expect(s.map.get(WORKSPACE_KEY)).toBe(envelope(ws('edit 4')));
    expect(s.map.has(PENDING_KEY)).toBe(false);
    a.auto.dispose();
  });
});

describe('a workspace set aside (copied under another key)', () => {
  it('autosave writes the workspace key as usual; the copy stays, offered for export', () => {
    const s = quotaStorage(1_000_000, { [WORKSPACE_KEY]: 'not json' });
    const load = loadWorkspace(() => s);
    expect(load.kept).toMatchObject({ key: SET_ASIDE_KEY, raw: 'not json', inPlace: false });
    expect(load.kept!.stored).toBe(s.map.get(SET_ASIDE_KEY));
    const a = autosaveOver(s, ws('default'));
    a.edit(ws('edit'));
    expect(s.map.get(WORKSPACE_KEY)).toBe(envelope(ws('edit')));
    expect(JSON.parse(s.map.get(SET_ASIDE_KEY)!).raw).toBe('not json');
    expect(a.notices).toEqual([]);
    // Discard deletes the copy.
    expect(discardKept(load.kept!, () => s)).toBe(true);
    expect(s.map.has(SET_ASIDE_KEY)).toBe(false);
    a.auto.dispose();
  });

  it('with every set-aside slot taken, none is written over: the workspace stays where it was', () => {
    const slots = [SET_ASIDE_KEY, 2, 3, 4, 5].map((n) =>
      typeof n === 'number' ? `${SET_ASIDE_KEY}:${n}` : n,
    );
    const s = quotaStorage(1_000_000, {
      ...Object.fromEntries(slots.map((k) => [k, `copy ${k}`])),
      [WORKSPACE_KEY]: 'sixth',
    });
    const load = loadWorkspace(() => s);
    expect(load.kept).toMatchObject({ key: WORKSPACE_KEY, raw: 'sixth', inPlace: true });
    for (const k of slots) expect(s.map.get(k)).toBe(`copy ${k}`);
    expect(s.map.get(WORKSPACE_KEY)).toBe('sixth');
  });
});

describe('zustand persist: the same rule', () => {
  it('does not write over a workspace kept where it was', () => {
    const s = quotaStorage(10_000, { [WORKSPACE_KEY]: UNREADABLE });
    const store = createStore<{ speed: number }>()(
      persist(
        () => ({ speed: 1 }),
        workspacePersistOptions<{ speed: number }>({
          partialize: (st) => ({ ...ws('p'), prefs: { speed: st.speed } }),
          apply: (w, current) => ({ ...current, speed: Number(w.prefs.speed) }),
          storage: () => s,
        }),
      ),
    );
    store.setState({ speed: 3 });
    expect(s.map.get(WORKSPACE_KEY)).toBe(UNREADABLE);
    expect(JSON.parse(s.map.get(PENDING_KEY)!).state.prefs).toEqual({ speed: 3 });
  });
});
