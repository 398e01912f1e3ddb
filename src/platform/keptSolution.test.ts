/** The challenge tab's kept solution: written beside the progress, validated when read back. */
import { describe, expect, it } from 'vitest';
import { keepSolution, keptSolutionKey, readKeptSolution } from './keptSolution';

function memoryStorage(): Pick<Storage, 'getItem' | 'setItem'> {
  const items = new Map<string, string>();
  return {
    getItem: (k) => items.get(k) ?? null,
    setItem: (k, v) => void items.set(k, v),
  };
}
const SOLUTION = { knobs: [{ path: 'sink.statement', value: 'upsert' }], faults: [] };

describe('the kept solution', () => {
  it('is kept beside the challenge’s progress, versioned, and read back', () => {
    const storage = memoryStorage();
    keepSolution('fix-at-least-once', SOLUTION, storage);
    expect(keptSolutionKey('fix-at-least-once')).toBe(
      'delivery-lab:challenge:fix-at-least-once:solution',
    );
    expect(JSON.parse(storage.getItem(keptSolutionKey('fix-at-least-once'))!)).toEqual({
      version: 1,
      ...SOLUTION,
    });
    expect(readKeptSolution('fix-at-least-once', storage)).toEqual(SOLUTION);
    expect(readKeptSolution('acks-one-loses', storage)).toBeNull();
  });

  it('reads anything else stored there as no solution', () => {
    const storage = memoryStorage();
    const key = keptSolutionKey('c');
    for (const stored of [
      'not json',
      '[]',
      'null',
      JSON.stringify({ version: 2, ...SOLUTION }),
      JSON.stringify({ ...SOLUTION }),
      JSON.stringify({ version: 1, knobs: [{ path: 'a b', value: 1 }], faults: [] }),
      JSON.stringify({ version: 1, ...SOLUTION, by: 'someone' }),
    ]) {
      storage.setItem(key, stored);
      expect(readKeptSolution('c', storage), stored).toBeNull();
    }
    expect(readKeptSolution('c', null)).toBeNull();
    const throwing = {
      getItem: () => {
        throw new Error('SecurityError');
      },
    };
    expect(readKeptSolution('c', throwing)).toBeNull();
  });
});
