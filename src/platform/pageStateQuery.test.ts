import { describe, expect, it } from 'vitest';
import { clearPageStateFromQuery, urlWithoutPageStateQuery } from './pageStateQuery';

describe("the page state's a= and c= taken out of the query", () => {
  it('takes out a= and c= only; the other parameters as written, and the hash, stay', () => {
    expect(
      urlWithoutPageStateQuery('http://lab.test/?preset=x/y&a=1.AA&present&c=1.BB#s=2.C&a=1.D'),
    ).toBe('http://lab.test/?preset=x/y&present#s=2.C&a=1.D');
    expect(urlWithoutPageStateQuery('http://lab.test/?a=1.AA')).toBe('http://lab.test/');
    expect(urlWithoutPageStateQuery('http://lab.test/?%61=1.AA&ab=2')).toBe(
      'http://lab.test/?ab=2',
    );
    expect(urlWithoutPageStateQuery('http://lab.test/#a=1.D')).toBe('http://lab.test/#a=1.D');
  });

  it('writes in place, the entry state kept, and only when there is something to take out', () => {
    const calls: unknown[][] = [];
    const hist = {
      state: { kept: 1 },
      replaceState: (...args: unknown[]) => void calls.push(args),
    };
    clearPageStateFromQuery({ href: 'http://lab.test/?preset=x' }, hist);
    expect(calls).toEqual([]);
    clearPageStateFromQuery({ href: 'http://lab.test/?preset=x&c=1.AA' }, hist);
    expect(calls).toEqual([[{ kept: 1 }, '', 'http://lab.test/?preset=x']]);
  });
});
