import { alloc } from './pool';
import { usedLength } from './copyHints';

/** A typed array that can be created empty with a length (Int32Array, Float64Array, …). */
type Typed = Int32Array | Float64Array;

/**
 * A growable typed column (amortised O(1) push; `view()` exposes the live prefix). Each kind
 * makes its arrays with a method rather than a stored closure: a run's state, columns included,
 * is copied when the fault atlas forks it (src/engine/atlas/fork.ts).
 */
abstract class Column<T extends Typed> {
  data: T;
  length = 0;

  constructor(capacity = 64) {
    this.data = this.make(capacity);
  }

  /** A zeroed array of `n` elements of the column's type. */
  protected abstract make(n: number): T;

  push(v: number): number {
    if (this.length === this.data.length) {
      const next = this.make(this.data.length * 2);
      next.set(this.data);
      this.data = next;
    }
    this.data[this.length] = v;
    return this.length++;
  }

  /** A fork copies the elements pushed, not the capacity (deepCopy.ts). */
  [usedLength](): number {
    return this.length;
  }

  get(i: number): number {
    return this.data[i]!;
  }

  set(i: number, v: number): void {
    this.data[i] = v;
  }

  /** Drop everything from index `n` on. */
  truncate(n: number): void {
    if (n < this.length) this.length = n;
  }

  view(): T {
    return this.data.subarray(0, this.length) as T;
  }
}

/** A growable Int32 column. */
export class IntColumn extends Column<Int32Array> {
  protected make(n: number): Int32Array {
    return alloc(Int32Array, n);
  }
}

/** A growable Float64 column. */
export class FloatColumn extends Column<Float64Array> {
  protected make(n: number): Float64Array {
    return alloc(Float64Array, n);
  }
}
