import { describe, expect, it } from 'vitest';
import { savePoint, UnsavableError } from './rewind';
import { restoreFields, usedLength } from './copyHints';
import { isMethodOf } from './copyHints';

class Column {
  length = 0;
  data = new Int32Array(8);
  push(x: number): void {
    this.data[this.length++] = x;
  }
  [usedLength](): number {
    return this.length;
  }
}

class Node {
  next: Node | null = null;
  constructor(public value: number) {}
}

describe('a save point restored in place', () => {
  it('writes back every field, element, entry and byte, into the same objects', () => {
    const shared = { name: 'input' };
    const a = new Node(1);
    const b = new Node(2);
    a.next = b;
    const state = {
      head: a,
      list: [a, b],
      byName: new Map<string, Node>([['a', a]]),
      seen: new Set<Node>([b]),
      column: new Column(),
      input: shared,
    };
    state.column.push(7);
    const point = savePoint(state, { shared: new Set([shared]) });

    // A run after the save point: fields, arrays, Maps, Sets and columns change, objects come.
    const c = new Node(3);
    a.value = 10;
    a.next = c;
    state.list.push(c);
    state.list[0] = c;
    state.byName.set('c', c);
    state.byName.delete('a');
    state.seen.add(c);
    state.column.push(8);
    state.column.data[0] = -1;
    state.head = c;
    shared.name = 'written anyway';

    point.restore();
    expect(state.head).toBe(a);
    expect(a).toEqual(Object.assign(new Node(1), { next: b }));
    expect(state.list).toEqual([a, b]);
    expect(state.list[0]).toBe(a);
    expect([...state.byName]).toEqual([['a', a]]);
    expect([...state.seen]).toEqual([b]);
    expect(state.column.length).toBe(1);
    // The part in use as it was; what was written past it zero, as in a fresh column.
    expect([...state.column.data]).toEqual([7, 0, 0, 0, 0, 0, 0, 0]);
    // A shared input is neither saved nor restored.
    expect(state.input).toBe(shared);
    expect(shared.name).toBe('written anyway');

    // Restored again after another run: the same state.
    state.column.push(9);
    a.value = 11;
    point.restore();
    expect(a.value).toBe(1);
    expect([...state.column.data].slice(0, 2)).toEqual([7, 0]);
  });

  it('lets an object with its own restoreFields write its fields back, and restores what it holds', () => {
    class Task {
      restored = 0;
      constructor(
        public time: number,
        public target: Node,
      ) {}
      [restoreFields](saved: Task): void {
        this.restored++;
        this.time = saved.time;
        this.target = saved.target;
      }
    }
    const n = new Node(1);
    const task = new Task(5, n);
    const point = savePoint({ task });
    task.time = 9;
    task.target = new Node(2);
    n.value = 3;
    point.restore();
    // Its method ran (the restore count it wrote is the saved 0 plus its own increment).
    expect(task.restored).toBe(1);
    expect(task.time).toBe(5);
    expect(task.target).toBe(n);
    expect(n.value).toBe(1);
  });

  it("restores a Map's and a Set's order, not only their entries", () => {
    const m = new Map([
      ['a', 1],
      ['b', 2],
    ]);
    const set = new Set(['a', 'b']);
    const point = savePoint({ m, set });
    // The same entries, in another order: the restore must not take them as unchanged.
    m.delete('a');
    m.set('a', 1);
    set.delete('a');
    set.add('a');
    point.restore();
    expect([...m]).toEqual([
      ['a', 1],
      ['b', 2],
    ]);
    expect([...set]).toEqual(['a', 'b']);
    // A value changed under the same keys is written back too.
    m.set('b', 3);
    point.restore();
    expect(m.get('b')).toBe(2);
  });

  it('leaves a frozen object as it is, and restores what it holds', () => {
    const inner = { n: 1 };
    const constant = Object.freeze({ name: 'pass', inner });
    const state: { fate: Readonly<{ name: string; inner: { n: number } }> } = { fate: constant };
    const point = savePoint(state);
    inner.n = 2;
    state.fate = Object.freeze({ name: 'drop', inner });
    point.restore();
    expect(state.fate).toBe(constant);
    expect(inner.n).toBe(1);
  });

  it('puts the replacement where the replaceable object was, and back again', () => {
    const own = { faults: [] as string[] };
    const trial = { faults: ['one more'] };
    const state = { scenario: own, inner: { scenario: own } };
    const point = savePoint(state, { shared: new Set([own, own.faults]), replaceable: own });
    point.restore(trial);
    expect(state.scenario).toBe(trial);
    expect(state.inner.scenario).toBe(trial);
    point.restore();
    expect(state.scenario).toBe(own);
    expect(state.inner.scenario).toBe(own);
  });

  it('refuses a closure and what cannot be listed, but lets a method through', () => {
    let count = 0;
    expect(() => savePoint({ tick: () => count++ })).toThrow(UnsavableError);
    expect(() => savePoint({ cache: new WeakMap() })).toThrow('cannot save a WeakMap');
    const node = new Node(1);
    const task = { self: node, fn: Column.prototype.push };
    expect(() => savePoint(task)).toThrow('a function at fn');
    const column = new Column();
    const ok = { self: column, fn: Column.prototype.push };
    expect(() =>
      savePoint(ok, { allowFunction: (fn, holder) => isMethodOf(fn, (holder as typeof ok).self) }),
    ).not.toThrow();
  });

  it('with verify, names an object that gained a field after its save point', () => {
    const dictionary: Record<string, number> = { a: 1 };
    const point = savePoint({ dictionary }, { verify: true });
    dictionary.b = 2;
    expect(() => point.restore()).toThrow("a Object that gained 'b' after its save point");
  });
});
