/**
 * The Flink task's keyed state seen from outside: how many keys it holds, and which events it
 * counts (behind the 'state' observation point).
 */
import type { IdentityId } from '../ids';
import { IntColumn } from '../core/columns';
import { alloc } from '../core/pool';

/** Keys the keyed state holds: those with a count (an indexed loop: it runs at every barrier). */
export function keysHeld(count: Float64Array): number {
  let n = 0;
  for (let k = 0; k < count.length; k++) if (count[k] !== 0) n++;
  return n;
}

/**
 * A checkpoint's copy of a keyed-state column: a plain array, which the heap allocates at once —
 * a typed array's copy (`slice`) allocates its buffer outside the heap, several times dearer, and
 * the barrier's two copies were its dearest lines (profile, docs/benchmarks.md). Restoring turns
 * it back into the task's column.
 */
export function stateCopy(column: Float64Array): number[] {
  const out = new Array<number>(column.length);
  for (let k = 0; k < column.length; k++) out[k] = column[k]!;
  return out;
}

/**
 * Put a checkpoint's copy of a keyed-state column (see {@link stateCopy}) back into the task's
 * column, in place: a typed array built from a plain array (`new Float64Array(array)`) takes a
 * slow generic path and allocates its buffer outside the heap — the restore's two were its
 * dearest lines (profile, docs/benchmarks.md). The column's length is the workload's key count,
 * the copy's too.
 */
export function restoreColumn(column: Float64Array, copy: readonly number[]): void {
  for (let k = 0; k < column.length; k++) column[k] = copy[k]!;
}

/** Instrumentation behind the 'state' observation point: which events the keyed state counts. */
export class StateTracker {
  /** identity → times its amount is in the state. */
  readonly contributions: Int32Array;
  /**
   * Increments since the last completed checkpoint, as pairs [epoch, identity]. One column,
   * compacted in place: a fresh array per checkpoint was a tenth of a million-event Flink run's
   * garbage.
   */
  private readonly log = new IntColumn(1024);

  constructor(identities: number) {
    this.contributions = alloc(Int32Array, identities);
  }

  counted(epoch: number, identity: IdentityId): void {
    this.contributions[identity]!++;
    this.log.push(epoch);
    this.log.push(identity);
  }

  /** Increments of epochs ≤ id are now in a durable checkpoint. */
  checkpointCompleted(id: number): void {
    const log = this.log.data;
    let k = 0;
    for (let i = 0; i < this.log.length; i += 2)
      if (log[i]! > id) {
        log[k++] = log[i]!;
        log[k++] = log[i + 1]!;
      }
    this.log.truncate(k);
  }

  /** Restored to checkpoint `id`: everything counted after its barrier is gone. */
  restored(id: number): void {
    const log = this.log.data;
    for (let i = 0; i < this.log.length; i += 2)
      if (log[i]! > id) this.contributions[log[i + 1]!]!--;
    this.log.truncate(0);
  }
}
