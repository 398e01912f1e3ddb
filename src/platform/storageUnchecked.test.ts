/**
 * A saved workspace read while the page's validation did not load (a failed download: the lab
 * loads zod on demand, issue 24): nothing says it is wrong, so it stays where it was, untouched,
 * not set aside, and the next load checks it.
 */
import { describe, expect, it, vi } from 'vitest';
import { loadWorkspace, SET_ASIDE_KEY, WORKSPACE_KEY, WORKSPACE_VERSION } from './storage';

vi.mock('../views/run/validationOnDemand', () => ({ parseInHand: () => undefined }));

describe('a saved workspace the validation could not check', () => {
  it('stays under its key, and the notice says to reload', () => {
    const raw = JSON.stringify({
      state: { scenario: { version: 1, name: 'Saved' }, presetRef: null, prefs: {} },
      version: WORKSPACE_VERSION,
    });
    const map = new Map([[WORKSPACE_KEY, raw]]);
    const loaded = loadWorkspace(() => ({
      getItem: (k) => map.get(k) ?? null,
      setItem: (k, v) => void map.set(k, v),
      removeItem: (k) => void map.delete(k),
    }));
    expect(loaded.workspace).toBeNull();
    expect(loaded.kept).toMatchObject({ key: WORKSPACE_KEY, inPlace: true, raw });
    expect(loaded.notice).toEqual({
      kind: 'kept',
      message: expect.stringContaining(
        "the page's validation did not load, so it could not be checked. It stays where it was, untouched: reload the page to try again",
      ),
    });
    expect([...map.keys()]).toEqual([WORKSPACE_KEY]);
    expect(map.has(SET_ASIDE_KEY)).toBe(false);
  });
});
