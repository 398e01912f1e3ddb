/**
 * The sink table's key structures: the index of its key column, and the set of keys one
 * statement has touched (how a MERGE or ON CONFLICT sees a key twice in one statement).
 */
import { alloc } from '../core/pool';

/**
 * The key index of the table: a key column value → row id. Business ids are dense small integers
 * (the event identity), kept in a typed array; other keys (generated ids, source coordinates)
 * in a Map. Same answers either way — this only keeps a million-row table fast.
 */
export class KeyIndex {
  private readonly dense: Int32Array;
  private readonly sparse = new Map<number | string, number>();

  constructor(readonly denseSize: number) {
    this.dense = alloc(Int32Array, denseSize);
  }

  private slot(k: number | string): number {
    return typeof k === 'number' && k >= 0 && k < this.denseSize && Number.isInteger(k) ? k : -1;
  }

  get(k: number | string): number | undefined {
    const i = this.slot(k);
    if (i < 0) return this.sparse.get(k);
    const v = this.dense[i]!;
    return v === 0 ? undefined : v - 1;
  }

  has(k: number | string): boolean {
    return this.get(k) !== undefined;
  }

  set(k: number | string, row: number): void {
    const i = this.slot(k);
    if (i < 0) this.sparse.set(k, row);
    else this.dense[i] = row + 1;
  }
}

/**
 * A set of keys for one statement. Dense keys are marked in a shared stamp array with the
 * statement's generation number (no allocation, no clearing); other keys go in a Set.
 */
export class KeySet {
  private readonly sparse = new Set<number | string>();

  constructor(
    private readonly stamps: Int32Array,
    private readonly gen: number,
  ) {}

  private slot(k: number | string): number {
    return typeof k === 'number' && k >= 0 && k < this.stamps.length && Number.isInteger(k)
      ? k
      : -1;
  }

  has(k: number | string): boolean {
    const i = this.slot(k);
    return i < 0 ? this.sparse.has(k) : this.stamps[i] === this.gen;
  }

  add(k: number | string): void {
    const i = this.slot(k);
    if (i < 0) this.sparse.add(k);
    else this.stamps[i] = this.gen;
  }
}
