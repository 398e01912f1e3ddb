/**
 * Typed writers for trace entries that more than one component writes: each takes only the
 * fields its kind uses, by name, so a caller cannot put a position in the count column. The
 * fields' meaning per kind is documented on {@link ENTRY_KINDS} in trace.ts.
 */
import { K, type Trace } from './trace';

/**
 * A streaming job restores its state (Flink from a checkpoint, Spark from its offset and commit
 * logs): `ckpt` = the checkpoint or batch id restored from (-1: none), `position` = where its
 * source reads next (partition 0's offset).
 * @returns the 'restore' entry.
 */
export function writeRestore(
  t: Trace,
  f: { time: number; actor: number; cause: number; topic: number; position: number; ckpt: number },
): number {
  const e = t.add(f.time, K['restore'], f.actor, f.cause, -1, f.topic, 0, f.position, -1, -1);
  t.set(e, { ckpt: f.ckpt });
  return e;
}
