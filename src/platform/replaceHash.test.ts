import { describe, expect, it } from 'vitest';
import { replaceHash } from './replaceHash';

/** A history that records what replaceState was given. */
function recorder(state: unknown) {
  const calls: unknown[][] = [];
  return { calls, hist: { state, replaceState: (...a: unknown[]) => void calls.push(a) } };
}

describe('replaceHash', () => {
  it('puts the hash in place of the old one, keeping the entry state, or ends the address before it', () => {
    const r = recorder({ step: 3 });
    replaceHash('s=abc&a=k', { href: 'https://x.test/lab/?preset=at-least-once#s=old' }, r.hist);
    replaceHash('', { href: 'https://x.test/lab/#s=old' }, r.hist);
    replaceHash('c=1', { href: 'https://x.test/lab/' }, r.hist);
    expect(r.calls).toEqual([
      [{ step: 3 }, '', 'https://x.test/lab/?preset=at-least-once#s=abc&a=k'],
      [{ step: 3 }, '', 'https://x.test/lab/'],
      [{ step: 3 }, '', 'https://x.test/lab/#c=1'],
    ]);
  });
});
