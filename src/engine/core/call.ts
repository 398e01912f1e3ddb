/**
 * A call held as data — `fn.call(self, a, b, c, arg)` — for work a run keeps pending (a message's
 * delivery, a per-record callback, a waiter): unlike a closure, a snapshot can copy it with the
 * state it names, and the copy runs on the copy (docs/ARCHITECTURE.md, "Pending work and forks").
 *
 * `fn` must be code without state: a method of `self`'s class, or a module-level function marked
 * with {@link stateless}. Captured values become `a`, `b`, `c` (numbers, ids, or objects of the
 * run's state, which the snapshot copies along).
 */
import { isMethodOf, type AnyFunction } from './copyHints';

/**
 * A pending call that receives `arg` (and `arg2`) when it runs and returns `R` (see
 * {@link invoke}).
 */
export interface Call<Arg = void, Arg2 = void, R = void> {
  fn: (this: unknown, a: unknown, b: unknown, c: unknown, arg: Arg, arg2: Arg2) => R;
  self: unknown;
  a: unknown;
  b: unknown;
  c: unknown;
}

/**
 * `fn.call(self, a, b, c, arg)` when the call runs: `call(this, this.onAnswer, brokerNo, pending)`
 * for `(arg) => this.onAnswer(brokerNo, pending, undefined, arg)`.
 */
export function call<
  S,
  Arg = void,
  A = undefined,
  B = undefined,
  C = undefined,
  Arg2 = void,
  R = void,
>(
  self: S,
  fn: (this: S, a: A, b: B, c: C, arg: Arg, arg2: Arg2) => R,
  a?: A,
  b?: B,
  c?: C,
): Call<Arg, Arg2, R> {
  return { fn: fn as Call<Arg, Arg2, R>['fn'], self, a, b, c };
}

/** Run a pending call with what it waited for. */
export function invoke<Arg, R>(k: Call<Arg, void, R>, arg: Arg): R;
export function invoke<Arg, Arg2, R>(k: Call<Arg, Arg2, R>, arg: Arg, arg2: Arg2): R;
export function invoke<Arg, Arg2, R>(k: Call<Arg, Arg2, R>, arg: Arg, arg2?: Arg2): R {
  return k.fn.call(k.self, k.a, k.b, k.c, arg, arg2 as Arg2);
}

/** What a component may be handed to run later: a {@link Call} held as data, which a snapshot copies. */
export type Callback<Arg = void, Arg2 = void, R = void> = Call<Arg, Arg2, R>;

/** Run a {@link Callback} with what it waited for. */
export function run<R>(k: Callback<void, void, R>): R;
export function run<Arg, R>(k: Callback<Arg, void, R>, arg: Arg): R;
export function run<Arg, Arg2, R>(k: Callback<Arg, Arg2, R>, arg: Arg, arg2: Arg2): R;
export function run<Arg, Arg2, R>(k: Callback<Arg, Arg2, R>, arg?: Arg, arg2?: Arg2): R {
  return k.fn.call(k.self, k.a, k.b, k.c, arg as Arg, arg2 as Arg2);
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
