/**
 * A bump arena of Int32 slots: slices of one typed array handed out in order and never reused, so
 * a short-lived column (a producer batch's, a fetch response's) costs a view rather than a buffer
 * of its own — an allocation each was a tenth of a Flink run's time. A full arena is replaced by
 * one twice as large (the first small, so a run of a few records does not zero 256 KiB), up to
 * {@link ARENA_MAX_SLOTS}; the old one lives on while its slices do.
 */
import { alloc } from './pool';
import { usedLength } from './copyHints';

/** Int32 slots of the largest arena (256 KiB). */
const ARENA_MAX_SLOTS = 65_536;
/** Int32 slots of the first arena (4 KiB). */
const ARENA_FIRST_SLOTS = 1_024;

export class Int32Arena {
  /** The current arena; slots from {@link used} on are free. */
  slots = new Int32Array(0);
  /** Slots handed out of {@link slots} so far. */
  used = 0;

  /**
   * The arena, with room for `n` more slots from {@link used}: write them, then move `used` past
   * what was kept (a caller that needed less gives the rest back that way).
   */
  room(n: number): Int32Array {
    if (this.used + n > this.slots.length) {
      const next = Math.min(ARENA_MAX_SLOTS, Math.max(ARENA_FIRST_SLOTS, this.slots.length * 2));
      this.slots = alloc(Int32Array, Math.max(n, next));
      this.used = 0;
    }
    return this.slots;
  }

  /**
   * A fork copies the slots handed out (deepCopy.ts): a paused run holds no slot past `used`
   * (`room`'s caller moves `used` in the same task).
   */
  [usedLength](): number {
    return this.used;
  }

  /** A fresh column of `n` slots. */
  take(n: number): Int32Array {
    const s = this.room(n);
    const c = s.subarray(this.used, this.used + n);
    this.used += n;
    return c;
  }
}
