/**
 * Numeric codes of the trace's entry kinds and message types, so the views can compare the `kind`
 * and `aux` columns as integers in their hot loops instead of decoding every entry.
 */
import {
  CHECKPOINT_STEPS,
  ENTRY_KINDS,
  KIND_CODE,
  MESSAGE_TYPES,
  TXN_STATES,
  type CheckpointStep,
  type EntryKind,
  type MessageType,
  type TxnState,
} from '../../engine';

function codes<T extends string>(names: readonly T[]): Readonly<Record<T, number>> {
  const out = {} as Record<T, number>;
  names.forEach((n, i) => (out[n] = i));
  return out;
}

/** Entry kind → its code in `TraceColumns.kind`: the engine's own table, not a copy. */
export const K: Readonly<Record<EntryKind, number>> = KIND_CODE;
/** Checkpoint step → its code in the `aux` column of 'checkpoint' entries. */
export const CK: Readonly<Record<CheckpointStep, number>> = codes(CHECKPOINT_STEPS);
/** Transaction state → its code in the `aux` column of 'txn' entries. */
export const TX: Readonly<Record<TxnState, number>> = codes(TXN_STATES);

/** The name of a message type code ('produce', 'produce-response', …), or 'message'. */
export function messageTypeName(code: number): MessageType | 'message' {
  return MESSAGE_TYPES[code] ?? 'message';
}

/** The name of an entry kind code. */
export function kindName(code: number): EntryKind {
  return ENTRY_KINDS[code]!;
}
