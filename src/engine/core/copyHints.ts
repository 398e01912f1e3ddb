/**
 * What the run's state tells the deep copier (./deepCopy.ts): how much of a growable column is in
 * use, and which functions are code without state. Apart from the copier, which only a fork loads
 * (the fault atlas): the trace, the columns and every pending call name these, so every page
 * loads them, and with the copier beside them it loaded ~2 kB gzip it never ran (issue 31).
 */
/**
 * A method of a class that owns growable typed arrays (a trace, a column, an arena): how many
 * elements of each typed array held directly in its fields are in use. A copy keeps those and
 * zeroes the rest (the capacity stays: the copy grows as the original would), where copying the
 * whole capacity cost most of a small run's fork.
 */
export const usedLength: unique symbol = Symbol('usedLength');

/** An object that says how much of its typed arrays is in use (see {@link usedLength}). */
export interface HasUsedLength {
  [usedLength](): number;
}

/**
 * A method of a class of the run's most numerous state (the queued task, src/engine/world.ts):
 * write back the fields of its saved clone (./rewind.ts). Named stores of one class, where
 * `Object.assign` into an object that has the fields already took several times as long: a
 * fault atlas trial restores a hundred queued tasks or more.
 */
export const restoreFields: unique symbol = Symbol('restoreFields');

/** An object that writes back its own saved fields (see {@link restoreFields}). */
export interface HasRestoreFields {
  [restoreFields](saved: object): void;
}

/** Any function (the copier only compares and prints them). */
export type AnyFunction = (...args: never[]) => unknown;

/**
 * Whether `fn` is a method of `self`'s class (found on its prototype chain under its own name):
 * code without state, the same for the original and the copy, unlike a closure.
 */
export function isMethodOf(fn: AnyFunction, self: unknown): boolean {
  if (self === null || typeof self !== 'object') return false;
  for (let p = Object.getPrototypeOf(self); p !== null; p = Object.getPrototypeOf(p)) {
    const d = Object.getOwnPropertyDescriptor(p, fn.name);
    if (d !== undefined && d.value === fn) return true;
  }
  return false;
}
