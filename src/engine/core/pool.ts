/**
 * Memory reuse between runs: the typed arrays of a finished run (trace columns, partition logs,
 * tables, event columns, the checker's tallies) handed to the next run of the same thread.
 *
 * Why: a million-event run writes about 300 MB of typed arrays. Where the C allocator gives that
 * memory back to the kernel, the next run gets fresh pages, and on a virtual machine the first
 * touch of a fresh 4 KiB page costs several µs — more than the engine's own work per page. A
 * caller that runs scenario after scenario (the page's worker, the benchmark) gives a run's
 * memory back once it no longer reads the run ({@link BufferPool.reclaim}), and the next
 * {@link simulate} given the same pool takes its arrays from it.
 *
 * Results do not depend on it: an array taken from the pool is zeroed, exactly as a new one.
 * Only arrays of the same byte length are reused (the same scenario, or columns that grow by
 * doubling from the same start, ask for the same sizes).
 */

/** Typed array constructors the engine allocates through {@link alloc}. */
type TypedCtor =
  | Int32ArrayConstructor
  | Float64ArrayConstructor
  | Uint8ArrayConstructor
  | Uint16ArrayConstructor
  | Int16ArrayConstructor;

/** Instance type of a {@link TypedCtor}. */
type TypedOf<C extends TypedCtor> = InstanceType<C>;

/**
 * Arrays smaller than this are left to the allocator (V8 keeps typed arrays of up to 64 bytes in
 * its heap). Larger ones are worth reusing even when small: a run of a few events allocates a
 * few dozen arrays of a few KiB, and when thousands of such runs follow one another (the fault
 * atlas) allocating and zeroing those backing stores, and collecting them, was most of a run.
 */
const MIN_POOLED_BYTES = 256;

/** Memory given back by finished runs, by byte length. See the module comment. */
export class BufferPool {
  private free = new Map<number, ArrayBuffer[]>();
  private readonly owned = new WeakMap<object, ArrayBuffer[]>();

  /**
   * A zeroed buffer of exactly `bytes` bytes: a reclaimed one when there is one. `zeroFrom`: the
   * caller overwrites the bytes before it, so only those from it on are zeroed (a fork's copy).
   */
  take(bytes: number, zeroFrom = 0): ArrayBuffer {
    const list = this.free.get(bytes);
    let b = list?.pop();
    // A buffer transferred away (postMessage) after its run was reclaimed is detached: skip it.
    while (b !== undefined && b.byteLength === 0) b = list!.pop();
    if (b === undefined) return new ArrayBuffer(bytes);
    new Uint8Array(b).fill(0, zeroFrom);
    return b;
  }

  /**
   * Give back the memory of `run` (a {@link simulate} result made with this pool). The caller
   * promises not to read the run, nor anything derived from it without a copy, once the next
   * run with this pool starts: that run overwrites its arrays. Buffers transferred away
   * (postMessage) before then are skipped. Whatever an earlier reclaim left unused is dropped,
   * so the pool never holds more than one run's memory. A run not made with this pool is ignored.
   */
  reclaim(run: object): void {
    const buffers = this.owned.get(run);
    if (!buffers) return;
    this.owned.delete(run);
    this.free = new Map();
    for (const b of buffers) {
      if (b.byteLength === 0) continue; // detached by a transfer
      const list = this.free.get(b.byteLength);
      if (list) list.push(b);
      else this.free.set(b.byteLength, [b]);
    }
  }

  /** Record which buffers `run` took (called by simulate). @internal */
  own(run: object, buffers: ArrayBuffer[]): void {
    this.owned.set(run, buffers);
  }

  /** Forget what reclaim left unused (called when a run ends, so it is not held alongside it). @internal */
  dropUnused(): void {
    this.free = new Map();
  }
}

/** The pool of the run in progress and what that run took from it (null outside such a run). */
let current: { pool: BufferPool; taken: ArrayBuffer[] } | null = null;

/**
 * Run `fn` (one simulate call) with its typed arrays taken from `pool`.
 * @returns what `fn` returned and the buffers it took, to be recorded with {@link BufferPool.own}.
 */
export function withPool<T>(pool: BufferPool, fn: () => T): { result: T; taken: ArrayBuffer[] } {
  const outer = current;
  const mine = { pool, taken: [] as ArrayBuffer[] };
  current = mine;
  try {
    return { result: fn(), taken: mine.taken };
  } finally {
    current = outer;
    pool.dropUnused();
  }
}

/**
 * Run `fn` with new memory, outside the pool of the run in progress (if any): the fault atlas's
 * reference run (src/engine/atlas/rejoin.ts), advanced while a trial runs, must outlive the trial.
 */
export function withoutPool<T>(fn: () => T): T {
  const outer = current;
  current = null;
  try {
    return fn();
  } finally {
    current = outer;
  }
}

/**
 * A zeroed typed array of `length` elements — from the pool of the run in progress when there is
 * one and the array is large enough to matter, else a new one.
 */
export function alloc<C extends TypedCtor>(ctor: C, length: number): TypedOf<C> {
  const bytes = length * ctor.BYTES_PER_ELEMENT;
  if (current === null || bytes < MIN_POOLED_BYTES) return new ctor(length) as TypedOf<C>;
  const b = current.pool.take(bytes);
  current.taken.push(b);
  return new ctor(b) as TypedOf<C>;
}

/**
 * A copy of `src` whose first `used` bytes are `src`'s and the rest zero — a fork's copy of a
 * growable column, whose bytes past its length are unwritten (src/engine/core/deepCopy.ts) —
 * from the pool of the run in progress when there is one, as {@link alloc} takes its arrays.
 */
export function copyBuffer(src: ArrayBuffer, used: number): ArrayBuffer {
  const bytes = src.byteLength;
  if (current === null || bytes < MIN_POOLED_BYTES) {
    if (used >= bytes) return src.slice(0);
    const out = new ArrayBuffer(bytes);
    new Uint8Array(out).set(new Uint8Array(src, 0, used));
    return out;
  }
  const out = current.pool.take(bytes, used);
  current.taken.push(out);
  new Uint8Array(out).set(new Uint8Array(src, 0, used));
  return out;
}
