/**
 * A challenge's progress in storage: written and read back, and anything else stored under its key
 * (not JSON, another version, a wrong type) read as a fresh start, never an error.
 */
import { describe, expect, it } from 'vitest';
import {
  challengeParamOf,
  FRESH_PROGRESS,
  progressKey,
  readProgress,
  writeProgress,
} from './challengeProgress';

function memory(): Pick<Storage, 'getItem' | 'setItem'> & { items: Map<string, string> } {
  const items = new Map<string, string>();
  return {
    items,
    getItem: (k) => items.get(k) ?? null,
    setItem: (k, v) => void items.set(k, v),
  };
}

describe('challenge progress', () => {
  it('is written per challenge, versioned, and read back', () => {
    const s = memory();
    writeProgress('acks-zero-loses', { attempts: 3, solved: true, solutionShown: false }, s);
    expect(s.items.get('delivery-lab:challenge:acks-zero-loses')).toBe(
      '{"version":1,"attempts":3,"solved":true,"solutionShown":false}',
    );
    expect(readProgress('acks-zero-loses', s)).toEqual({
      attempts: 3,
      solved: true,
      solutionShown: false,
    });
    expect(readProgress('other', s)).toEqual(FRESH_PROGRESS);
  });

  it.each([
    ['not JSON', '{attempts: 3'],
    ['another version', '{"version":2,"attempts":3,"solved":true,"solutionShown":false}'],
    ['a negative count', '{"version":1,"attempts":-1,"solved":false,"solutionShown":false}'],
    [
      'a field of the wrong type',
      '{"version":1,"attempts":"3","solved":false,"solutionShown":false}',
    ],
    ['an unknown field', '{"version":1,"attempts":3,"solved":false,"solutionShown":false,"x":1}'],
    ['a missing field', '{"version":1,"attempts":3,"solved":false}'],
    ['a fraction', '{"version":1,"attempts":1.5,"solved":false,"solutionShown":false}'],
    ['too many attempts', '{"version":1,"attempts":1000001,"solved":false,"solutionShown":false}'],
    ['an array', '[1]'],
  ])('%s reads as a fresh start', (_, raw) => {
    const s = memory();
    s.items.set(progressKey('c'), raw);
    expect(readProgress('c', s)).toEqual(FRESH_PROGRESS);
  });

  it('reads ?challenge= from a query', () => {
    expect(challengeParamOf('?challenge=Acks-Zero-Loses&x=1')).toBe('acks-zero-loses');
    expect(challengeParamOf('?challenge=')).toBeNull();
    expect(challengeParamOf('')).toBeNull();
  });
});
