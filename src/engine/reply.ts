/**
 * A continuation held as data that is answered with an outcome and the trace entry it follows
 * from — a statement's error code and its answer, a commit's ok and its response: the
 * two-argument form of a {@link Call} (src/engine/core/call.ts). `reply(this, this.onWritten, batch)`
 * for `(error, cause) => this.onWritten(batch, undefined, undefined, error, cause)`; a snapshot
 * copies it with the state it names (docs/ARCHITECTURE.md, "Pending work and forks").
 */
import type { EntryId } from './ids';
import type { ErrorCode } from './trace';
import type { Call } from './core/call';

/** A pending continuation that receives an outcome `R` and an entry (see {@link answer}). */
export type Reply<R = ErrorCode> = Call<R, EntryId>;

/** `fn.call(self, a, b, c, result, cause)` when answered; `fn` a method of `self` or `stateless`. */
export function reply<S, R = ErrorCode, A = undefined, B = undefined, C = undefined>(
  self: S,
  fn: (this: S, a: A, b: B, c: C, result: R, cause: EntryId) => void,
  a?: A,
  b?: B,
  c?: C,
): Reply<R> {
  return { fn: fn as Reply<R>['fn'], self, a, b, c };
}

/** Run a pending continuation with its outcome. */
export function answer<R>(k: Reply<R>, result: R, cause: EntryId): void {
  k.fn.call(k.self, k.a, k.b, k.c, result, cause);
}
