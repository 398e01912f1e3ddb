// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { WORKSPACE_KEY, type KeptWorkspace, type StorageLike } from '../../platform/storage';
import { KEPT_FILE_NAME, keptWorkspaceActions } from './keptWorkspace';
import { createNotices } from './notices';

const RAW = '{"state": not json é';
const kept: KeptWorkspace = {
  key: WORKSPACE_KEY,
  stored: RAW,
  raw: RAW,
  reason: 'it is not valid JSON',
  inPlace: true,
};

function memory(initial: Record<string, string>) {
  const map = new Map(Object.entries(initial));
  const s: StorageLike = {
    getItem: (k) => map.get(k) ?? null,
    setItem: (k, v) => void map.set(k, v),
    removeItem: (k) => void map.delete(k),
  };
  return { map, s };
}

afterEach(() => vi.restoreAllMocks());

describe('the choice for a saved workspace that could not be restored', () => {
  it('Export downloads the stored bytes as they were, and keeps them (the notice stays)', async () => {
    const blobs: Blob[] = [];
    vi.spyOn(URL, 'createObjectURL').mockImplementation((b) => (blobs.push(b as Blob), 'blob:x'));
    vi.spyOn(URL, 'revokeObjectURL').mockReturnValue(undefined);
    const names: string[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (
      this: HTMLAnchorElement,
    ) {
      names.push(this.download);
    });
    const { map, s } = memory({ [WORKSPACE_KEY]: RAW });
    const resume = vi.fn();
    const [exp] = keptWorkspaceActions(kept, resume, () => s);
    expect(exp!.label).toBe('Export');
    expect(exp!.run()).toBe(false);
    expect(names).toEqual([KEPT_FILE_NAME]);
    expect(blobs).toHaveLength(1);
    expect(await blobs[0]!.text()).toBe(RAW);
    expect(map.get(WORKSPACE_KEY)).toBe(RAW);
    expect(resume).not.toHaveBeenCalled();
  });

  it('Discard deletes it, then autosave saves at once (the notice goes)', () => {
    const { map, s } = memory({ [WORKSPACE_KEY]: RAW });
    const resume = vi.fn();
    const [, discard] = keptWorkspaceActions(kept, resume, () => s);
    expect(discard!.label).toBe('Discard');
    expect(discard!.run()).toBe(true);
    expect(map.has(WORKSPACE_KEY)).toBe(false);
    expect(resume).toHaveBeenCalledTimes(1);
  });

  it('a storage that refuses: Discard says not done, nothing resumes', () => {
    const refusing: StorageLike = {
      getItem: () => {
        throw new Error('SecurityError');
      },
      setItem: () => {},
      removeItem: () => {},
    };
    const resume = vi.fn();
    const [, discard] = keptWorkspaceActions(kept, resume, () => refusing);
    expect(discard!.run()).toBe(false);
    expect(resume).not.toHaveBeenCalled();
  });

  it('a notice waiting for a choice is not pushed out by five newer ones', () => {
    const actions = keptWorkspaceActions(kept, () => {});
    const notices = createNotices([{ tone: 'warn', text: 'kept', actions }]);
    for (let i = 1; i <= 6; i++) notices.push({ tone: 'info', text: `n${i}` });
    // At most 5: the kept notice and the 4 newest plain ones (n1 and n2 went, oldest first).
    expect(notices.store.getState().items.map((n) => n.text)).toEqual([
      'kept',
      'n3',
      'n4',
      'n5',
      'n6',
    ]);
  });
});
