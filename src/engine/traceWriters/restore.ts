/**
 * The trace writer for a streaming job's restore, written by both Flink and Spark. The fields'
 * meaning is documented on {@link ENTRY_KINDS} in trace.ts.
 */
import type { ActorId, EntryId } from '../ids';
import { K, type Trace } from '../trace';

/**
 * A streaming job restores its state (Flink from a checkpoint, Spark from its offset and commit
 * logs): `ckpt` = the checkpoint or batch id restored from (-1: none), `position` = where its
 * source reads next (partition 0's offset). Called once per restore, so it takes one object.
 * @returns the 'restore' entry.
 */
export function writeRestore(
  t: Trace,
  f: {
    time: number;
    actor: ActorId;
    cause: EntryId;
    topic: number;
    position: number;
    ckpt: number;
  },
): EntryId {
  const e = t.add(f.time, K.restore, f.actor, f.cause, -1, f.topic, 0, f.position) as EntryId;
  t.set(e, { ckpt: f.ckpt });
  return e;
}
