/**
 * A save point of a run's state, restored in place (docs/ARCHITECTURE.md, "Pending work and
 * forks"): {@link savePoint} records each object's fields (each array's, Map's and Set's entries,
 * each buffer's bytes in use) as they are; {@link SavePoint.restore} writes them back into the
 * same objects. Every object keeps its identity and so its hidden class: a run after a restore
 * meets the shapes a run from scratch makes. A copy's objects, built field by field on their
 * prototypes, have shapes of their own, and a process that has run on copies runs every later
 * run slower (docs/benchmarks.md, "Trials from scratch, not forked").
 *
 * The same walk and the same refusals as the deep copier (./deepCopy.ts): a closure holds
 * variables no walk can read, so one is refused (`allowFunction` names the code without state);
 * a WeakMap, WeakRef or Promise too. Objects made after the save point need nothing: once the
 * saved fields are back, nothing saved refers to them.
 */
import {
  restoreFields,
  usedLength,
  type AnyFunction,
  type HasRestoreFields,
  type HasUsedLength,
} from './copyHints';

/** Thrown on what a save point cannot record (see the module comment). */
export class UnsavableError extends Error {
  constructor(readonly what: string) {
    super(`cannot save ${what}`);
    this.name = 'UnsavableError';
  }
}

/** Options of {@link savePoint}. */
export interface SavePointOptions {
  /** Objects no run writes to (the scenario, the workload's columns): neither saved nor restored. */
  shared?: ReadonlySet<object>;
  /** Whether the function `fn`, held at `key` of `holder`, is code without state. */
  allowFunction?: (fn: AnyFunction, holder: object, key: PropertyKey) => boolean;
  /**
   * A shared object a restore may put another in place of, wherever an object's field holds it
   * (a trial's scenario, with one more fault, where the run holds its own).
   */
  replaceable?: object;
  /**
   * Check at each restore that every object has the fields it had when saved, and throw naming
   * its class where one gained a field (a restore cannot take it away: keys that come and go
   * belong in a Map). For tests: it costs a list of keys per object.
   */
  verify?: boolean;
}

const OBJECT = 0;
const ARRAY = 1;
const MAP = 2;
const SET = 3;
/** An object that writes its saved fields back itself (./copyHints.ts, `restoreFields`). */
const FIELDS = 4;
type Kind = typeof OBJECT | typeof ARRAY | typeof MAP | typeof SET | typeof FIELDS;

/** The state reachable from a root, recorded to be written back (see the module comment). */
export class SavePoint {
  /** Each object saved, its kind, and what it held: a clone of its fields (a spread), an
   * array's or Set's elements, a Map's keys and values in turn. */
  private readonly objects: object[] = [];
  private readonly kinds: Kind[] = [];
  private readonly held: unknown[] = [];
  /** Each buffer under a saved typed array, and its bytes in use then. */
  private readonly buffers: ArrayBufferLike[] = [];
  private readonly bytes: Uint8Array[] = [];
  /** The objects and keys holding {@link SavePointOptions.replaceable}, in pairs. */
  private readonly places: (object | string)[] = [];
  /** The walk's: each object and buffer met (dropped after it). */
  private seen: Set<object> | null = new Set<object>();
  private seenBuffers: Map<ArrayBufferLike, number> | null = new Map<ArrayBufferLike, number>();

  constructor(
    root: object,
    private readonly opts: SavePointOptions,
  ) {
    this.visit(root);
    this.seen = null;
    this.seenBuffers = null;
  }

  /** Objects saved (typed arrays not counted). */
  get size(): number {
    return this.objects.length;
  }

  /**
   * Write every saved field back; `replacement` in place of the `replaceable` object wherever an
   * object held it.
   */
  restore(replacement?: object): void {
    const { objects, kinds, held } = this;
    for (let i = 0; i < objects.length; i++) {
      const o = objects[i]!;
      switch (kinds[i]) {
        case OBJECT:
          // Every field at once: V8 copies by the clone's hidden class, several times faster
          // than a loop of keyed writes over the engine's many shapes.
          Object.assign(o, held[i]);
          if (this.opts.verify) verifyFields(o, held[i] as object);
          break;
        case FIELDS:
          (o as HasRestoreFields)[restoreFields](held[i] as object);
          if (this.opts.verify) verifyFields(o, held[i] as object);
          break;
        case ARRAY: {
          const a = o as unknown[];
          const v = held[i] as unknown[];
          if (a.length !== v.length) a.length = v.length;
          for (let j = 0; j < v.length; j++) if (a[j] !== v[j]) a[j] = v[j];
          break;
        }
        case MAP: {
          const m = o as Map<unknown, unknown>;
          const v = held[i] as unknown[];
          if (sameEntries(m, v)) break;
          m.clear();
          for (let j = 0; j < v.length; j += 2) m.set(v[j], v[j + 1]);
          break;
        }
        case SET: {
          const s = o as Set<unknown>;
          const v = held[i] as unknown[];
          if (sameMembers(s, v)) break;
          s.clear();
          for (let j = 0; j < v.length; j++) s.add(v[j]);
          break;
        }
      }
    }
    if (replacement !== undefined)
      for (let i = 0; i < this.places.length; i += 2)
        (this.places[i] as Record<string, unknown>)[this.places[i + 1] as string] = replacement;
    for (let i = 0; i < this.buffers.length; i++) {
      const saved = this.bytes[i]!;
      const view = new Uint8Array(this.buffers[i]!);
      view.set(saved);
      // What a run wrote past the part in use must read as it did then: zero (a fresh column).
      view.fill(0, saved.length);
    }
  }

  private visit(v: unknown): void {
    if (typeof v !== 'object' || v === null) return;
    if (this.opts.shared?.has(v)) return;
    if (ArrayBuffer.isView(v)) return this.typed(v, -1);
    if (this.seen!.has(v)) return;
    this.seen!.add(v);
    if (Array.isArray(v)) {
      if (Object.getPrototypeOf(v) !== Array.prototype)
        throw new UnsavableError('an array subclass');
      this.push(v, ARRAY, v.slice());
      for (let i = 0; i < v.length; i++) this.value(v[i], v, i);
      return;
    }
    if (v instanceof Map) {
      const flat: unknown[] = [];
      for (const [k, x] of v) flat.push(k, x);
      this.push(v, MAP, flat);
      for (let i = 0; i < flat.length; i++) this.value(flat[i], v, i % 2 === 0 ? 'key' : 'value');
      return;
    }
    if (v instanceof Set) {
      const list = [...(v as Set<unknown>)];
      this.push(v, SET, list);
      for (const x of list) this.value(x, v, 'value');
      return;
    }
    if (
      v instanceof WeakMap ||
      v instanceof WeakSet ||
      v instanceof WeakRef ||
      v instanceof Promise
    )
      throw new UnsavableError(`a ${v.constructor.name}`);
    const used =
      typeof (v as Partial<HasUsedLength>)[usedLength] === 'function'
        ? (v as HasUsedLength)[usedLength]()
        : -1;
    const rec = v as Record<string, unknown>;
    // A frozen object cannot change (nor be written back): only what it holds is saved.
    const frozen = Object.isFrozen(v);
    if (!frozen) {
      const own = typeof (v as Partial<HasRestoreFields>)[restoreFields] === 'function';
      this.push(v, own ? FIELDS : OBJECT, { ...rec });
    }
    const keys = Object.keys(v);
    for (let i = 0; i < keys.length; i++) {
      const key = keys[i]!;
      const x = rec[key];
      if (!frozen && x !== undefined && x === this.opts.replaceable) this.places.push(v, key);
      if (used >= 0 && ArrayBuffer.isView(x)) this.typed(x, used);
      else this.value(x, v, key);
    }
  }

  private value(x: unknown, holder: object, key: PropertyKey): void {
    if (typeof x === 'function') {
      if (this.opts.allowFunction?.(x as AnyFunction, holder, key) !== true)
        throw new UnsavableError(`a function at ${String(key)}`);
      return;
    }
    this.visit(x);
  }

  /** `used`: the elements in use (the holder's {@link usedLength}), or -1 for all. */
  private typed(t: ArrayBufferView, used: number): void {
    if (t instanceof DataView) throw new UnsavableError('a DataView');
    const b = t.buffer;
    const whole = used >= 0 && t.byteOffset === 0 && t.byteLength === b.byteLength;
    const n = whole ? used * (t as Int32Array).BYTES_PER_ELEMENT : b.byteLength;
    const at = this.seenBuffers!.get(b);
    if (at !== undefined) {
      // Another view on a buffer already met: keep the larger part.
      if (this.bytes[at]!.length < n) this.bytes[at] = new Uint8Array(b, 0, n).slice();
      return;
    }
    this.seenBuffers!.set(b, this.buffers.length);
    this.buffers.push(b);
    this.bytes.push(new Uint8Array(b, 0, n).slice());
  }

  private push(o: object, kind: Kind, held: unknown): void {
    this.objects.push(o);
    this.kinds.push(kind);
    this.held.push(held);
  }
}

/**
 * Whether Map `m` holds the keys and values of `flat` (key, value, key, value…) in that order:
 * most of a run's Maps are as saved when a trial ends, and clearing and filling one again
 * reallocates its table (a tenth of a restore).
 */
function sameEntries(m: Map<unknown, unknown>, flat: unknown[]): boolean {
  if (m.size * 2 !== flat.length) return false;
  let j = 0;
  for (const k of m.keys()) {
    if (k !== flat[j] || m.get(k) !== flat[j + 1]) return false;
    j += 2;
  }
  return true;
}

/** Whether Set `s` holds the elements of `list` in that order (see {@link sameEntries}). */
function sameMembers(s: Set<unknown>, list: unknown[]): boolean {
  if (s.size !== list.length) return false;
  let j = 0;
  for (const x of s) if (x !== list[j++]) return false;
  return true;
}

/** Throw if `o` has a field its saved clone has not (see {@link SavePointOptions.verify}). */
function verifyFields(o: object, saved: object): void {
  const now = Object.keys(o);
  if (now.length === Object.keys(saved).length) return;
  const added = now.filter((k) => !Object.hasOwn(saved, k));
  throw new UnsavableError(
    `a ${o.constructor?.name ?? 'null-prototype object'} that gained ${added.map((k) => `'${k}'`).join(', ')} after its save point`,
  );
}

/** A save point of everything reachable from `root` (see {@link SavePoint}). */
export function savePoint(root: object, opts: SavePointOptions = {}): SavePoint {
  return new SavePoint(root, opts);
}
