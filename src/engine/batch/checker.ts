/**
 * The batch checker: per event and per partition, how many rows the target table holds, and the
 * event's fate. Besides lost / once / duplicated (src/engine/checker.ts), two batch fates:
 * - `wrong-partition`: the event's rows sit only under partitions other than its own date (a
 *   clock window or a clock target partition run on another day);
 * - `false-merge`: no row, because a dedupe mechanism took another real event with the same key
 *   for it (a key coarser than the event's identity).
 * An event with a row in its own partition and more rows elsewhere is duplicated; its
 * `wrongRows` says how many of them are misplaced. docs/semantics/batch.md#fates
 */
import { observedGuarantee, holds } from '../checker';
import type { Guarantee, ObservedGuarantee } from '../scenario/schema';
import { periodOfRow } from './calendar';
import type { BatchRun } from './simulateBatch';

export type BatchFate = 'lost' | 'false-merge' | 'wrong-partition' | 'once' | 'duplicated';

export interface EventLedger {
  id: string;
  /** The event's own partition (its date's period). */
  partition: number;
  /** Rows in its own partition. */
  ownRows: number;
  /** Rows under other partitions: partition → count. */
  wrongRows: Map<number, number>;
  fate: BatchFate;
  /** false-merge: the event that took its place. */
  mergedInto: string | null;
}

export interface BatchVerdict {
  events: EventLedger[];
  totals: {
    events: number;
    rows: number;
    /** Σ max(effects − 1, 0) with effects = own + misplaced rows. */
    duplicates: number;
    /** Events with no row in their own partition (lost, false-merge, wrong-partition). */
    lost: number;
    falseMerges: number;
    /** Rows under a partition that is not their event's date. */
    wrongPartitionRows: number;
    expectedSum: number;
    observedSum: number;
  };
  claimed: Guarantee;
  observed: ObservedGuarantee;
  held: boolean;
}

export function checkBatch(run: BatchRun, claimed: Guarantee): BatchVerdict {
  const cal = run.calendar;
  const byId = new Map<string, { own: number; wrong: Map<number, number> }>();
  const ledger: EventLedger[] = run.config.source.map((row) => {
    const e = { own: 0, wrong: new Map<number, number>() };
    byId.set(row.id, e);
    return {
      id: row.id,
      partition: periodOfRow(cal, row),
      ownRows: 0,
      wrongRows: e.wrong,
      fate: 'lost' as BatchFate,
      mergedInto: null,
    };
  });
  const own = new Map(ledger.map((l) => [l.id, l]));
  let wrongPartitionRows = 0;
  let observedSum = 0;
  for (const r of run.table.rows) {
    observedSum += r.amount;
    const l = own.get(r.eventId);
    if (l === undefined) continue;
    if (r.partition === l.partition) l.ownRows++;
    else {
      l.wrongRows.set(r.partition, (l.wrongRows.get(r.partition) ?? 0) + 1);
      wrongPartitionRows++;
    }
  }
  let duplicates = 0;
  let lost = 0;
  let falseMerges = 0;
  for (const l of ledger) {
    const wrong = [...l.wrongRows.values()].reduce((a, b) => a + b, 0);
    const effects = l.ownRows + wrong;
    if (effects > 1) duplicates += effects - 1;
    const merged = run.table.mergedInto.get(l.id) ?? run.skippedBy.get(l.id) ?? null;
    if (effects === 0 && merged !== null && merged !== l.id) {
      l.fate = 'false-merge';
      l.mergedInto = merged;
    } else if (effects === 0) l.fate = 'lost';
    else if (l.ownRows === 0) l.fate = 'wrong-partition';
    else l.fate = effects === 1 ? 'once' : 'duplicated';
    if (l.ownRows === 0) lost++;
    if (l.fate === 'false-merge') falseMerges++;
  }
  const observed = observedGuarantee(lost > 0, duplicates > 0);
  return {
    events: ledger,
    totals: {
      events: ledger.length,
      rows: run.table.rows.length,
      duplicates,
      lost,
      falseMerges,
      wrongPartitionRows,
      expectedSum: run.config.source.reduce((a, r) => a + r.amount, 0),
      observedSum,
    },
    claimed,
    observed,
    held: holds(claimed, observed),
  };
}

/** Rows per event id across all partitions (own + misplaced), for `expect.rows`. */
export function rowsPerEvent(v: BatchVerdict): Record<string, number> {
  const out: Record<string, number> = {};
  for (const l of v.events)
    out[l.id] = l.ownRows + [...l.wrongRows.values()].reduce((a, b) => a + b, 0);
  return out;
}
