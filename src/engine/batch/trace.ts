/**
 * The batch run's trace: an append-only list of plain entries in virtual-time order, each naming
 * the run and attempt it belongs to. It drives the page's calendar strip, the explanations and
 * the trace hash (same scenario ⇒ same entries, byte for byte).
 */
import { hashString32 } from '../core/rng';
import type { StatementKind } from './table';

type BatchEntryKind =
  | 'attempt-start'
  | 'read'
  | 'statement'
  | 'claim'
  | 'claim-skipped'
  /** A claim waits for another try's open transaction, which inserted the same key (`heldBy`). */
  | 'claim-wait'
  | 'crash'
  /** A write statement failed (a dbt MERGE: cardinality_violation): nothing applied, the try fails. */
  | 'statement-failed'
  | 'success'
  | 'retry-scheduled'
  | 'run-failed'
  /** A backfill did not create a run of a date whose latest run (`run`) is queued or running. */
  | 'backfill-skipped'
  /**
   * A clear ended run `run` of its date while it was queued, running or waiting for a retry:
   * `attempt` is the try it killed, -1 when none was running.
   */
  | 'run-cleared';

export interface BatchEntry {
  at: number;
  kind: BatchEntryKind;
  /** Index into the run's runs / attempts (-1 when none). */
  run: number;
  attempt: number;
  /** `read`: the period read; `statement`: the statement kind and its partitions. */
  window?: number;
  statement?: StatementKind;
  partitions?: number[];
  /** Event ids concerned (rows read, written, claimed or skipped). */
  events?: string[];
  /** `claim-skipped`, `claim-wait`: the event holding the claim. */
  heldBy?: string;
  /** `crash`: the crash point. */
  point?: 'before-write' | 'mid-write' | 'after-write';
}

/** A hex hash of the trace (two 32-bit hashes of its JSON lines). */
export function batchTraceHash(entries: readonly BatchEntry[]): string {
  const text = entries.map((e) => JSON.stringify(e)).join('\n');
  return (
    hashString32(text, 1).toString(16).padStart(8, '0') +
    hashString32(text, 2).toString(16).padStart(8, '0')
  );
}
