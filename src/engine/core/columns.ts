/** A growable Int32 column (amortised O(1) push, exposes the live prefix). */
export class IntColumn {
  data: Int32Array;
  length = 0;

  constructor(capacity = 64) {
    this.data = new Int32Array(capacity);
  }

  push(v: number): number {
    if (this.length === this.data.length) {
      const next = new Int32Array(this.data.length * 2);
      next.set(this.data);
      this.data = next;
    }
    this.data[this.length] = v;
    return this.length++;
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

  view(): Int32Array {
    return this.data.subarray(0, this.length);
  }
}

/** A growable Float64 column. */
export class FloatColumn {
  data: Float64Array;
  length = 0;

  constructor(capacity = 64) {
    this.data = new Float64Array(capacity);
  }

  push(v: number): number {
    if (this.length === this.data.length) {
      const next = new Float64Array(this.data.length * 2);
      next.set(this.data);
      this.data = next;
    }
    this.data[this.length] = v;
    return this.length++;
  }

  get(i: number): number {
    return this.data[i]!;
  }

  set(i: number, v: number): void {
    this.data[i] = v;
  }
}
