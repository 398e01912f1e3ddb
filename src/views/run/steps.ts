/**
 * Small building blocks of the derivations: a growable int list, step functions indexed by trace
 * entry, and binary searches. A "cursor" everywhere in src/views is `idx`, the number of trace
 * entries applied: entry `e` has happened at the cursor iff `e < idx`.
 */

/** A growable Int32 list (amortised doubling), trimmed to a typed array at the end. */
export class IntList {
  private a: Int32Array;
  length = 0;
  constructor(capacity = 16) {
    this.a = new Int32Array(Math.max(1, capacity));
  }
  push(v: number): number {
    if (this.length === this.a.length) {
      const b = new Int32Array(this.a.length * 2);
      b.set(this.a);
      this.a = b;
    }
    this.a[this.length] = v;
    return this.length++;
  }
  get(i: number): number {
    return this.a[i]!;
  }
  set(i: number, v: number): void {
    this.a[i] = v;
  }
  /** A trimmed copy (its own buffer, so it can be transferred). */
  toArray(): Int32Array {
    return this.a.slice(0, this.length);
  }
}

/** A growable Float64 list. */
export class FloatList {
  private a: Float64Array;
  length = 0;
  constructor(capacity = 16) {
    this.a = new Float64Array(Math.max(1, capacity));
  }
  push(v: number): void {
    if (this.length === this.a.length) {
      const b = new Float64Array(this.a.length * 2);
      b.set(this.a);
      this.a = b;
    }
    this.a[this.length++] = v;
  }
  toArray(): Float64Array {
    return this.a.slice(0, this.length);
  }
}

/**
 * A step function of the cursor: `value[k]` holds from entry `entry[k]` on (inclusive: it is the
 * value once that entry has been applied). `entry` is sorted ascending.
 */
export interface Steps {
  entry: Int32Array;
  value: Int32Array;
}

/** Builds a {@link Steps}, dropping steps that do not change the value. */
export class StepsBuilder {
  private readonly e = new IntList();
  private readonly v = new IntList();
  constructor(private last: number) {}
  add(entry: number, value: number): void {
    if (value === this.last) return;
    this.last = value;
    this.e.push(entry);
    this.v.push(value);
  }
  get current(): number {
    return this.last;
  }
  build(): Steps {
    return { entry: this.e.toArray(), value: this.v.toArray() };
  }
}

/** Number of elements of sorted `a` that are < x (the insertion point of x). */
export function lowerBound(a: ArrayLike<number>, x: number, lo = 0, hi = a.length): number {
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (a[mid]! < x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Number of elements of sorted `a` that are ≤ x. */
export function upperBound(a: ArrayLike<number>, x: number, lo = 0, hi = a.length): number {
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (a[mid]! <= x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The value of a step function at cursor `idx` (entries < idx applied), or `initial`. */
export function valueAt(s: Steps, idx: number, initial: number): number {
  const k = lowerBound(s.entry, idx);
  return k === 0 ? initial : s.value[k - 1]!;
}

/** The last element of sorted entry list `a` that is < idx, or -1. */
export function lastBefore(a: ArrayLike<number>, idx: number): number {
  const k = lowerBound(a, idx);
  return k === 0 ? -1 : a[k - 1]!;
}

/** Compressed rows: `start[r]..start[r+1]` indexes `items` for row r. */
export interface Csr {
  start: Int32Array;
  items: Int32Array;
}

/** Build a CSR from (row, item) pairs given in item order. */
export function buildCsr(rows: number, rowOf: Int32Array, items: Int32Array): Csr {
  const start = new Int32Array(rows + 1);
  for (let i = 0; i < rowOf.length; i++) start[rowOf[i]! + 1]!++;
  for (let r = 0; r < rows; r++) start[r + 1]! += start[r]!;
  const fill = start.slice(0, rows);
  const out = new Int32Array(items.length);
  for (let i = 0; i < rowOf.length; i++) out[fill[rowOf[i]!]!++] = items[i]!;
  return { start, items: out };
}

/** The items of row r of a CSR (a view, no copy). */
export function rowOf(c: Csr, r: number): Int32Array {
  return c.items.subarray(c.start[r]!, c.start[r + 1]!);
}
