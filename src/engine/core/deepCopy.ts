/**
 * One generic deep copy of a run's state, for snapshot and fork (docs/ARCHITECTURE.md, "Pending
 * work and forks"): a copy continues exactly as the original would, so the copier keeps what the
 * engine's behaviour depends on — each object's prototype (its class), shared references and
 * cycles (one copy per original), Map and Set insertion order, typed arrays' contents.
 *
 * A function cannot be copied: a closure holds variables no one can read, so a copied closure
 * would act on the original's state. The copier refuses one loudly, naming where it was found
 * (`world.queue.items[3].run`), so a left-over closure is found by a test rather than by a fork
 * that quietly writes into its parent. The exception is code without state: a method taken from
 * a class's prototype (see ./copyHints.ts, `isMethodOf`), which pending work held as data names.
 *
 * Two walkers (docs/benchmarks.md, "what a fork costs"): the one a fork uses copies each object
 * field by assignment, in the original's key order (so the copies of one class share one hidden
 * class), and names no path — when it meets what it cannot copy, the second walker, which names
 * every path, walks again to say where. Assignment copies an object's own enumerable string-keyed
 * data fields, which is all the engine's state holds: the naming walker refuses anything else (a
 * getter, a hidden or symbol-keyed field), so the census (`uncopyableParts`) and the fork tests
 * find one. A growable column copies only the part it uses (./copyHints.ts, `usedLength`), into
 * memory from the run's pool when there is one (`copyBuffer`).
 */
import { copyBuffer } from './pool';
import { usedLength, type AnyFunction, type HasUsedLength } from './copyHints';

/** Options of {@link deepCopy}. */
export interface DeepCopyOptions {
  /**
   * Objects the copy shares with the original instead of copying: read-only inputs (the scenario,
   * the workload's event columns) that no component writes to.
   */
  shared?: ReadonlySet<object>;
  /**
   * Objects the copy refers to in place of others, wherever the original refers to them: a fork
   * that continues with another scenario (the fault atlas's, with one more fault) names it where
   * the original names its own.
   */
  replace?: ReadonlyMap<object, unknown>;
  /**
   * Whether the function `fn`, found at `key` of `holder`, is code without state and may be
   * shared. Default: none is (every function is refused).
   */
  allowFunction?: (fn: AnyFunction, holder: object, key: PropertyKey) => boolean;
  /**
   * Instead of throwing on what cannot be copied, report it here and go on (the value is kept
   * as it is): a census of what stands in the way of a fork, not a usable copy.
   */
  onUncopyable?: (e: UncopyableError) => void;
  /** Filled with what the copy cost: the objects (typed arrays included) it copied. */
  stats?: { copied: number };
}

/** Thrown when the state holds something that cannot be copied (a closure, a WeakMap…). */
export class UncopyableError extends Error {
  constructor(
    /** Where it was found, from the root: `root.queue.items[3].run`. */
    readonly path: string,
    /** What it is: `a function (() => this.drain())`. */
    readonly what: string,
  ) {
    super(`cannot copy ${what} at ${path}`);
    this.name = 'UncopyableError';
  }
}

type TypedArray =
  | Int8Array
  | Uint8Array
  | Uint8ClampedArray
  | Int16Array
  | Uint16Array
  | Int32Array
  | Uint32Array
  | Float32Array
  | Float64Array
  | BigInt64Array
  | BigUint64Array;

/**
 * A deep copy of `root`: every object reachable from it copied once (cycles and shared references
 * kept as such), with its prototype; primitives as they are.
 * @throws UncopyableError on a function (unless allowed), a WeakMap/WeakSet/WeakRef, a Promise
 * or a DataView.
 */
export function deepCopy<T>(root: T, opts: DeepCopyOptions = {}): T {
  if (opts.onUncopyable) return new Copier(opts).copy(root, 'root') as T;
  try {
    const copier = new FastCopier(opts);
    const out = copier.copy(root) as T;
    if (opts.stats) opts.stats.copied = copier.copied;
    return out;
  } catch (e) {
    if (e !== REFUSED) throw e;
  }
  // Walk again, naming paths, to throw the error that says where (the fast walk names none).
  return new Copier(opts).copy(root, 'root') as T;
}

/** Thrown by the fast walker on what it will not copy (then the naming walker says where). */
const REFUSED: unique symbol = Symbol('refused');

/**
 * The fork's walker: each object once, its fields by assignment, no path. What it refuses the
 * naming walker ({@link Copier}) refuses too, with where; what that one refuses and this one
 * cannot see (a getter, a hidden field) no engine state holds (see the module comment).
 */
class FastCopier {
  private readonly seen = new Map<object, unknown>();
  private readonly buffers = new Map<ArrayBufferLike, ArrayBuffer>();
  private readonly shared: ReadonlySet<object> | undefined;
  private readonly replace: ReadonlyMap<object, unknown> | undefined;
  private readonly allowFunction: DeepCopyOptions['allowFunction'];

  /** Objects copied (each once). */
  get copied(): number {
    return this.seen.size;
  }

  constructor(opts: DeepCopyOptions) {
    this.shared = opts.shared;
    this.replace = opts.replace;
    this.allowFunction = opts.allowFunction;
  }

  copy(v: unknown): unknown {
    if (typeof v !== 'object' || v === null) {
      if (typeof v === 'function') throw REFUSED;
      return v;
    }
    const done = this.seen.get(v);
    if (done !== undefined) return done;
    if (this.replace !== undefined && this.replace.has(v)) return this.replace.get(v);
    if (this.shared !== undefined && this.shared.has(v)) return v;
    if (Array.isArray(v)) return this.array(v);
    if (ArrayBuffer.isView(v)) return this.typed(v, -1);
    if (v instanceof Map) return this.map(v as Map<unknown, unknown>);
    if (v instanceof Set) return this.set(v as Set<unknown>);
    if (
      v instanceof WeakMap ||
      v instanceof WeakSet ||
      v instanceof WeakRef ||
      v instanceof Promise
    )
      throw REFUSED;
    return this.object(v);
  }

  private array(v: unknown[]): unknown[] {
    if (Object.getPrototypeOf(v) !== Array.prototype) throw REFUSED;
    // slice keeps the array's elements kind (packed small integers, doubles…); objects replaced.
    const out = v.slice();
    this.seen.set(v, out);
    for (let i = 0; i < v.length; i++) {
      const x = v[i];
      if (typeof x === 'object' && x !== null) out[i] = this.copy(x);
      else if (typeof x === 'function') throw REFUSED;
    }
    return out;
  }

  /** `used`: the elements in use (the holder's {@link usedLength}), or -1 for all. */
  private typed(v: ArrayBufferView, used: number): unknown {
    const done = this.seen.get(v);
    if (done !== undefined) return done;
    if (v instanceof DataView) throw REFUSED;
    const t = v as TypedArray;
    let buffer = this.buffers.get(t.buffer);
    if (buffer === undefined) {
      const src = t.buffer as ArrayBuffer;
      // Only a column's prefix in use when the array is its whole buffer: another view on the
      // buffer met first copies it all, and then this one shares that copy.
      const whole = used >= 0 && t.byteOffset === 0 && t.byteLength === src.byteLength;
      buffer = copyBuffer(src, whole ? used * t.BYTES_PER_ELEMENT : src.byteLength);
      this.buffers.set(t.buffer, buffer);
    }
    const Ctor = t.constructor as new (b: ArrayBuffer, offset: number, length: number) => unknown;
    const out = new Ctor(buffer, t.byteOffset, t.length);
    this.seen.set(v, out);
    return out;
  }

  private map(v: Map<unknown, unknown>): Map<unknown, unknown> {
    const out = new Map<unknown, unknown>();
    this.seen.set(v, out);
    for (const [k, x] of v) out.set(this.copy(k), this.copy(x));
    return out;
  }

  private set(v: Set<unknown>): Set<unknown> {
    const out = new Set<unknown>();
    this.seen.set(v, out);
    for (const x of v) out.add(this.copy(x));
    return out;
  }

  private object(v: object): object {
    const proto = Object.getPrototypeOf(v) as object | null;
    // Every field at once (V8's fast paths for a spread and Object.assign copy by hidden class,
    // in the original's key order), then the fields holding objects replaced by their copies.
    const out = (proto === Object.prototype ? {} : Object.create(proto)) as Record<string, unknown>;
    this.seen.set(v, out);
    const used =
      typeof (v as Partial<HasUsedLength>)[usedLength] === 'function'
        ? (v as HasUsedLength)[usedLength]()
        : -1;
    const keys = Object.keys(v);
    for (let i = 0; i < keys.length; i++) {
      const key = keys[i]!;
      const x = (v as Record<string, unknown>)[key];
      out[key] = x;
      if (typeof x === 'object' && x !== null)
        out[key] = used >= 0 && ArrayBuffer.isView(x) ? this.typed(x, used) : this.copy(x);
      else if (typeof x === 'function' && this.allowFunction?.(x as AnyFunction, v, key) !== true)
        throw REFUSED;
    }
    return out;
  }
}

/**
 * The naming walker: as {@link FastCopier}, but with the path of each value from the root, to say
 * where it met what it cannot copy — or, for a census, to list every such place.
 */
class Copier {
  /** Original → copy: each object is copied once, and a cycle comes back to its copy. */
  private readonly seen = new Map<object, unknown>();
  /**
   * Each buffer under a typed array, copied whole once: two views on one buffer (an array and a
   * `subarray` of it) stay two views on one buffer in the copy.
   */
  private readonly buffers = new Map<ArrayBufferLike, ArrayBuffer>();

  constructor(private readonly opts: DeepCopyOptions) {}

  copy(v: unknown, path: string): unknown {
    if (typeof v === 'function')
      return this.refuse(v, path, `a function (${describe(v as AnyFunction)})`);
    if (v === null || typeof v !== 'object') return v;
    if (this.opts.replace?.has(v)) return this.opts.replace.get(v);
    if (this.opts.shared?.has(v)) return v;
    const done = this.seen.get(v);
    if (done !== undefined) return done;
    if (Array.isArray(v)) return this.array(v, path);
    if (ArrayBuffer.isView(v)) return this.typed(v, path);
    if (v instanceof Map) return this.map(v, path);
    if (v instanceof Set) return this.set(v, path);
    if (
      v instanceof WeakMap ||
      v instanceof WeakSet ||
      v instanceof WeakRef ||
      v instanceof Promise
    )
      return this.refuse(v, path, `a ${v.constructor.name} (its contents cannot be listed)`);
    return this.object(v, path);
  }

  /** Throw, or (a census) report and keep `v` as it is. */
  private refuse(v: unknown, path: string, what: string): unknown {
    const e = new UncopyableError(path, what);
    if (!this.opts.onUncopyable) throw e;
    this.opts.onUncopyable(e);
    return v;
  }

  private array(v: unknown[], path: string): unknown[] {
    const out: unknown[] = new Array(v.length);
    this.seen.set(v, out);
    if (Object.getPrototypeOf(v) !== Array.prototype)
      Object.setPrototypeOf(out, Object.getPrototypeOf(v));
    for (let i = 0; i < v.length; i++) out[i] = this.copy(v[i], `${path}[${i}]`);
    return out;
  }

  private typed(v: ArrayBufferView, path: string): unknown {
    if (v instanceof DataView) return this.refuse(v, path, 'a DataView');
    const t = v as TypedArray;
    let buffer = this.buffers.get(t.buffer);
    if (buffer === undefined) {
      buffer = (t.buffer as ArrayBuffer).slice(0);
      this.buffers.set(t.buffer, buffer);
    }
    const Ctor = t.constructor as new (b: ArrayBuffer, offset: number, length: number) => unknown;
    const out = new Ctor(buffer, t.byteOffset, t.length);
    this.seen.set(v, out);
    return out;
  }

  private map(v: Map<unknown, unknown>, path: string): Map<unknown, unknown> {
    const out = new Map<unknown, unknown>();
    this.seen.set(v, out);
    let i = 0;
    for (const [k, x] of v) {
      out.set(this.copy(k, `${path}.keys[${i}]`), this.copy(x, `${path}.get(${keyWords(k)})`));
      i++;
    }
    return out;
  }

  private set(v: Set<unknown>, path: string): Set<unknown> {
    const out = new Set<unknown>();
    this.seen.set(v, out);
    let i = 0;
    for (const x of v) out.add(this.copy(x, `${path}.values[${i++}]`));
    return out;
  }

  private object(v: object, path: string): object {
    const out = Object.create(Object.getPrototypeOf(v) as object | null) as Record<
      PropertyKey,
      unknown
    >;
    this.seen.set(v, out);
    const src = v as Record<PropertyKey, unknown>;
    for (const key of Reflect.ownKeys(v)) {
      const d = Object.getOwnPropertyDescriptor(v, key)!;
      const where = `${path}.${String(key)}`;
      if (d.get !== undefined || d.set !== undefined) {
        this.refuse(v, where, 'an accessor property');
        continue;
      }
      // A fork copies by assignment what Object.keys lists (FastCopier): it would miss these.
      if (typeof key === 'symbol' || !d.enumerable) {
        this.refuse(
          v,
          where,
          `a ${typeof key === 'symbol' ? 'symbol-keyed' : 'non-enumerable'} field`,
        );
        continue;
      }
      const x = src[key];
      let copied: unknown;
      if (typeof x === 'function') {
        const fn = x as AnyFunction;
        copied = this.opts.allowFunction?.(fn, v, key)
          ? fn
          : this.refuse(fn, where, `a function (${describe(fn)})`);
      } else copied = this.copy(x, where);
      // Plain assignment keeps the common case fast; a read-only or hidden field keeps its flags.
      if (d.writable && d.enumerable && d.configurable) out[key] = copied;
      else Object.defineProperty(out, key, { ...d, value: copied });
    }
    return out;
  }
}

/** A function in words for an error: the start of its source, which names the call site. */
function describe(fn: AnyFunction): string {
  const src = Function.prototype.toString.call(fn).replace(/\s+/g, ' ');
  return src.length > 80 ? `${src.slice(0, 80)}…` : src;
}

function keyWords(k: unknown): string {
  return typeof k === 'string' ? JSON.stringify(k) : typeof k === 'object' ? '{…}' : String(k);
}
