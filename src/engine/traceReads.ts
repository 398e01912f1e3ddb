/**
 * Facts a trace entry's columns alone answer (why a crash happened, which checkpoints an 'idle'
 * entry stands for), so the engine's trace and the page's column copy (`TraceColumns`) both
 * answer them.
 */
import { CHECKPOINT_STEPS, K } from './traceCodes';

const CK_EXPIRED = CHECKPOINT_STEPS.indexOf('expired');
const CK_TRIGGERED = CHECKPOINT_STEPS.indexOf('triggered');
const CK_IDLE = CHECKPOINT_STEPS.indexOf('idle');

/**
 * The checkpoint whose expiry a 'crash' entry follows from — the JobManager failing the job over
 * after more failed checkpoints in a row than `execution.checkpointing.tolerable-failed-checkpoints`
 * — as its 'expired' entry, or -1 for any other crash. Reads the columns only, so the engine's
 * trace and the page's column copy (`TraceColumns`) both answer it.
 */
export function failoverCause(
  cols: { kind: ArrayLike<number>; aux: ArrayLike<number>; cause: ArrayLike<number> },
  crash: number,
): number {
  const c = cols.cause[crash]!;
  return c >= 0 && cols.kind[c] === K.checkpoint && cols.aux[c] === CK_EXPIRED ? c : -1;
}

/**
 * Whether a 'crash' entry is a consumer loop exiting because its own producer was fenced (its
 * cause is that producer's 'fenced' entry): "close the producer and exit" (KafkaProducer javadoc,
 * https://kafka.apache.org/40/javadoc/org/apache/kafka/clients/producer/KafkaProducer.html).
 * Reads the columns only, like {@link failoverCause}.
 */
export function fencedExit(
  cols: { kind: ArrayLike<number>; actor: ArrayLike<number>; cause: ArrayLike<number> },
  crash: number,
): boolean {
  const c = cols.cause[crash]!;
  return c >= 0 && cols.kind[c] === K.fenced && cols.actor[c] === cols.actor[crash];
}

/**
 * The first id of the checkpoints an 'idle' checkpoint entry `i` stands for (its `ckpt` is the
 * last): one more than the id of the checkpoint triggered or accounted for before it, as ids are
 * handed out in order (1 if none). Reads the columns only, like {@link failoverCause}.
 */
export function firstIdleCheckpoint(
  cols: { kind: ArrayLike<number>; aux: ArrayLike<number>; ckpt: ArrayLike<number> },
  i: number,
): number {
  for (let j = i - 1; j >= 0; j--)
    if (cols.kind[j] === K.checkpoint && (cols.aux[j] === CK_TRIGGERED || cols.aux[j] === CK_IDLE))
      return cols.ckpt[j]! + 1;
  return 1;
}
