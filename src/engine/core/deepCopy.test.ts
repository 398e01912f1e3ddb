import { describe, expect, it } from 'vitest';
import { isMethodOf, usedLength } from './copyHints';
import { deepCopy, UncopyableError } from './deepCopy';
import { IntColumn } from './columns';
import { createRng } from './rng';
import { EventQueue } from './heap';

class Counter {
  n = 0;
  readonly log: number[] = [];
  bump(by: number): void {
    this.n += by;
    this.log.push(this.n);
  }
}

class Doubling extends Counter {
  override bump(by: number): void {
    super.bump(by * 2);
  }
}

describe('deepCopy', () => {
  it('keeps prototypes: a copied instance runs its own class methods on its own fields', () => {
    const c = new Doubling();
    c.bump(1);
    const d = deepCopy(c);
    d.bump(1);
    expect(d).toBeInstanceOf(Doubling);
    // The original saw one bump of 2; the copy saw that one and another of 2.
    expect(c.log).toEqual([2]);
    expect(d.log).toEqual([2, 4]);
  });

  it('copies a shared reference once and a cycle as a cycle', () => {
    const shared = { v: 1 };
    const a: { self?: unknown; x: object; y: object } = { x: shared, y: shared };
    a.self = a;
    const b = deepCopy(a);
    expect(b.x).toBe(b.y);
    expect(b.x).not.toBe(shared);
    expect(b.self).toBe(b);
  });

  it('copies Map and Set in insertion order, keys and values alike', () => {
    const k = { id: 'k' };
    const m = new Map<unknown, unknown>([
      [3, 'c'],
      [k, [1]],
      [1, 'a'],
    ]);
    const s = new Set<unknown>([k, 2, 1]);
    const [m2, s2] = deepCopy([m, s] as const);
    const k2 = [...m2.keys()][1];
    expect([...m2.keys()].filter((x) => typeof x === 'number')).toEqual([3, 1]);
    expect(k2).not.toBe(k);
    // The same key object in the Map and the Set is one copy.
    expect([...s2][0]).toBe(k2);
    expect([...s2].slice(1)).toEqual([2, 1]);
  });

  it('copies typed arrays by value, and two views on one buffer as two views on one copy', () => {
    const t = new Int32Array([1, 2, 3]);
    const c = deepCopy({ t });
    c.t[0] = 9;
    expect([...t]).toEqual([1, 2, 3]);
    expect(c.t).toBeInstanceOf(Int32Array);
    const whole = new Int32Array([1, 2, 3, 4]);
    const v = deepCopy({ whole, tail: whole.subarray(2) });
    // A write through the copied view shows in the copied array (offset 2), not the original.
    v.tail[0] = 7;
    expect([...v.whole]).toEqual([1, 2, 7, 4]);
    expect([...v.tail]).toEqual([7, 4]);
    expect([...whole]).toEqual([1, 2, 3, 4]);
  });

  it('refuses a closure loudly, naming where it was found and its source', () => {
    const state = { queue: [{ time: 1 }, { time: 2, run: () => state.queue.length }] };
    let err: unknown;
    try {
      deepCopy(state);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(UncopyableError);
    expect((err as UncopyableError).path).toBe('root.queue[1].run');
    expect((err as Error).message).toContain('state.queue.length');
  });

  it('refuses a WeakMap (its contents cannot be listed)', () => {
    expect(() => deepCopy({ w: new WeakMap() })).toThrow(/WeakMap .* at root\.w$/);
  });

  it('shares what it is told to share, and methods it is allowed to', () => {
    const input = { events: [1, 2] };
    const c = new Counter();
    const task = { fn: Counter.prototype.bump, self: c, input };
    const copy = deepCopy(task, {
      shared: new Set([input]),
      allowFunction: (fn, holder) => isMethodOf(fn, (holder as typeof task).self),
    });
    expect(copy.input).toBe(input);
    expect(copy.self).not.toBe(c);
    copy.fn.call(copy.self, 5);
    expect(copy.self.n).toBe(5);
    expect(c.n).toBe(0);
  });

  it('tells a method from a closure', () => {
    const c = new Doubling();
    expect(isMethodOf(Doubling.prototype.bump, c)).toBe(true);
    // The base class's method, overridden but on the chain (a `super.bump` call): code too.
    expect(isMethodOf(Counter.prototype.bump, c)).toBe(true);
    expect(isMethodOf(() => c.bump(1), c)).toBe(false);
  });

  it('a copied random stream draws what the original draws from the same moment', () => {
    // The generator keeps its state in fields (src/engine/core/rng.ts), so a copy taken after
    // 5 draws continues with the original's 6th, 7th, … draws.
    const r = createRng(7, 'net:a>b');
    for (let i = 0; i < 5; i++) r.u32();
    const c = deepCopy(r);
    const fromOriginal = [r.u32(), r.int(10), r.next()];
    const fromCopy = [c.u32(), c.int(10), c.next()];
    expect(fromCopy).toEqual(fromOriginal);
  });

  it('a copied event queue pops the same items in the same order, independently', () => {
    const q = new EventQueue<{ time: number; seq: number; tag: string }>();
    for (const [time, tag] of [
      [5, 'a'],
      [1, 'b'],
      [5, 'c'],
    ] as const)
      q.push({ time, seq: 0, tag });
    const c = deepCopy(q);
    c.push({ time: 2, seq: 0, tag: 'x' });
    const drain = (x: typeof q): string[] => {
      const out: string[] = [];
      for (let i = x.pop(); i; i = x.pop()) out.push(i.tag);
      return out;
    };
    expect(drain(c)).toEqual(['b', 'x', 'a', 'c']);
    expect(drain(q)).toEqual(['b', 'a', 'c']);
  });

  it('copies a growable column’s elements in use and zeroes the rest, keeping its capacity', () => {
    const c = new IntColumn(8);
    for (const v of [5, 6, 7]) c.push(v);
    c.truncate(2); // 7 stays in the array past the length: unwritten, for the column
    const d = deepCopy(c);
    expect(d[usedLength]()).toBe(2);
    expect([...d.data]).toEqual([5, 6, 0, 0, 0, 0, 0, 0]);
    d.push(9);
    expect([...d.view()]).toEqual([5, 6, 9]);
    expect([...c.data.subarray(0, 3)]).toEqual([5, 6, 7]);
  });

  it('refuses a field a copy by assignment would miss: hidden, symbol-keyed, or a getter', () => {
    const hidden = Object.defineProperty({ a: 1 }, 'b', { value: 2, enumerable: false });
    const found: string[] = [];
    deepCopy(
      {
        hidden,
        tagged: { [Symbol('s')]: 1 },
        got: {
          get x() {
            return 1;
          },
        },
      },
      {
        onUncopyable: (e) => found.push(`${e.path}: ${e.what}`),
      },
    );
    expect(found).toEqual([
      'root.hidden.b: a non-enumerable field',
      'root.tagged.Symbol(s): a symbol-keyed field',
      'root.got.x: an accessor property',
    ]);
  });
});
