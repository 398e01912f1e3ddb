import { describe, expect, it } from 'vitest';
import { call, invoke, isCallCode, stateless } from './call';
import { deepCopy } from './deepCopy';

class Counter {
  n = 0;
  add(by: number, _b: undefined, _c: undefined, times: number): void {
    this.n += by * times;
  }
}

const addTo = stateless(function addTo(
  this: undefined,
  box: { n: number },
  by: number,
  _c: undefined,
  times: number,
): void {
  box.n += by * times;
});

describe('Call', () => {
  it('runs fn with self, a, b, c and the argument it waited for', () => {
    const c = new Counter();
    invoke(call(c, c.add, 2), 3);
    expect(c.n).toBe(6);
    const box = { n: 1 };
    invoke(call(undefined, addTo, box, 5), 2);
    expect(box.n).toBe(11);
  });

  it('is copied with the state it names, and the copy acts on the copy', () => {
    const c = new Counter();
    const state = { counter: c, pending: call(c, c.add, 1) };
    const copy = deepCopy(state, { allowFunction: isCallCode });
    invoke(copy.pending, 4);
    expect(copy.counter.n).toBe(4);
    expect(c.n).toBe(0);
    const box = { n: 0 };
    const free = deepCopy(
      { box, k: call(undefined, addTo, box, 1) },
      { allowFunction: isCallCode },
    );
    invoke(free.k, 7);
    expect([free.box.n, box.n]).toEqual([7, 0]);
  });

  it('refuses a closure, and a function not marked stateless', () => {
    const c = new Counter();
    const closure = {
      fn: (x: number) => c.add(x, undefined, undefined, 1),
      self: c,
      a: 0,
      b: 0,
      c: 0,
    };
    expect(() => deepCopy(closure, { allowFunction: isCallCode })).toThrow(
      /cannot copy a function/,
    );
    function unmarked(): void {}
    expect(() => deepCopy(call(undefined, unmarked), { allowFunction: isCallCode })).toThrow(
      /cannot copy a function/,
    );
  });
});
