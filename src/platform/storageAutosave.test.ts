// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { WORKSPACE_KEY, type StorageLike, type Workspace } from './storage';
import { createAutosave } from './storageAutosave';

function memory(): StorageLike & { data: Map<string, string>; writes: number } {
  const data = new Map<string, string>();
  const s = {
    data,
    writes: 0,
    getItem: (k: string) => data.get(k) ?? null,
    setItem: (k: string, v: string) => {
      s.writes++;
      data.set(k, v);
    },
    removeItem: (k: string) => void data.delete(k),
  };
  return s;
}

const ws = (name: string): Workspace => ({
  scenario: { version: 1, name, workload: {} },
  presetRef: null,
  prefs: {},
});

afterEach(() => vi.useRealTimers());

describe('autosave', () => {
  it('saves a moment after the last change, once, and not an unchanged workspace', () => {
    vi.useFakeTimers();
    const storage = memory();
    let current = ws('a');
    let listener = () => {};
    const auto = createAutosave({
      read: () => current,
      subscribe: (l) => ((listener = l), () => {}),
      storage: () => storage,
      delayMs: 100,
    });
    listener(); // nothing changed
    vi.advanceTimersByTime(200);
    expect(storage.writes).toBe(0);
    current = ws('b');
    listener();
    current = ws('c');
    listener();
    vi.advanceTimersByTime(99);
    expect(storage.writes).toBe(0);
    vi.advanceTimersByTime(1);
    expect(storage.writes).toBe(1);
    expect(JSON.parse(storage.data.get(WORKSPACE_KEY)!)).toEqual({ state: ws('c'), version: 1 });
    // Hiding the page saves at once.
    current = ws('d');
    listener();
    window.dispatchEvent(new Event('pagehide'));
    expect(storage.writes).toBe(2);
    auto.dispose();
  });

  it('a full storage is reported once, until a save succeeds again', () => {
    const notices: string[] = [];
    let fail = true;
    let current = ws('a');
    const storage: StorageLike = {
      getItem: () => null,
      removeItem: () => {},
      setItem: () => {
        if (fail) throw new DOMException('full', 'QuotaExceededError');
      },
    };
    const auto = createAutosave({
      read: () => current,
      subscribe: () => () => {},
      storage: () => storage,
      onNotice: (n) => notices.push(n.kind),
    });
    current = ws('b');
    auto.flush();
    current = ws('c');
    auto.flush();
    expect(notices).toEqual(['full']);
    fail = false;
    current = ws('d');
    auto.flush();
    fail = true;
    current = ws('e');
    auto.flush();
    expect(notices).toEqual(['full', 'full']);
    auto.dispose();
  });

  it('a full storage loses nothing: the last save stays, and the latest is written once there is room', () => {
    const storage = memory();
    let full = false;
    const setItem = storage.setItem;
    storage.setItem = (k, v) => {
      if (full) throw new DOMException('full', 'QuotaExceededError');
      setItem(k, v);
    };
    let current = ws('a');
    const notices: string[] = [];
    const auto = createAutosave({
      read: () => current,
      subscribe: () => () => {},
      storage: () => storage,
      onNotice: (n) => notices.push(n.kind),
    });
    current = ws('b');
    auto.flush();
    full = true;
    for (const name of ['c', 'd', 'e']) {
      current = ws(name);
      auto.flush();
    }
    // Three refused saves: told once; the stored workspace is still b's.
    expect(notices).toEqual(['full']);
    expect(JSON.parse(storage.data.get(WORKSPACE_KEY)!).state).toEqual(ws('b'));
    // Room again: the next flush (here the page being hidden, with no new edit) writes e.
    full = false;
    window.dispatchEvent(new Event('pagehide'));
    expect(JSON.parse(storage.data.get(WORKSPACE_KEY)!).state).toEqual(ws('e'));
    auto.dispose();
  });
});
