/**
 * A call held as data — `fn.call(self, a, b, c, arg)` — for work a run keeps pending (a message's
 * delivery, a per-record callback, a waiter): unlike a closure, a snapshot can copy it with the
 * state it names, and the copy runs on the copy (docs/ARCHITECTURE.md, "Pending work and forks").
 *
 * `fn` must be code without state: a method of `self`'s class, or a module-level function marked
 * with {@link stateless}. Captured values become `a`, `b`, `c` (numbers, ids, or objects of the
 * run's state, which the snapshot copies along).
 */
import { isMethodOf, type AnyFunction } from './deepCopy';

/** A pending call that receives `arg` when it runs (see {@link invoke}). */
export interface Call<Arg = void> {
  fn: (this: unknown, a: unknown, b: unknown, c: unknown, arg: Arg) => void;
  self: unknown;
  a: unknown;
  b: unknown;
  c: unknown;
}

/**
 * `fn.call(self, a, b, c, arg)` when the call runs: `call(this, this.onAnswer, brokerNo, pending)`
 * for `(arg) => this.onAnswer(brokerNo, pending, undefined, arg)`.
 */
export function call<S, Arg = void, A = undefined, B = undefined, C = undefined>(
  self: S,
  fn: (this: S, a: A, b: B, c: C, arg: Arg) => void,
  a?: A,
  b?: B,
  c?: C,
): Call<Arg> {
  return { fn: fn as Call<Arg>['fn'], self, a, b, c };
}

/** Run a pending call with what it waited for. */
export function invoke<Arg>(k: Call<Arg>, arg: Arg): void {
  k.fn.call(k.self, k.a, k.b, k.c, arg);
}

const statelessCode = new WeakSet<AnyFunction>();

/**
 * Mark a module-level function as code without state (it reads only its arguments and module
 * constants), so a {@link Call} or a queued task may name it with no `self`. Returns it.
 */
export function stateless<F extends AnyFunction>(fn: F): F {
  statelessCode.add(fn);
  return fn;
}

/**
 * Whether `fn`, found at `holder[key]`, is a held call's code: at key `fn` of a record with a
 * `self`, a method of that `self` or a function marked {@link stateless}.
 */
export function isCallCode(fn: AnyFunction, holder: object, key: PropertyKey): boolean {
  if (key !== 'fn' || !('self' in holder)) return false;
  return statelessCode.has(fn) || isMethodOf(fn, (holder as { self: unknown }).self);
}
