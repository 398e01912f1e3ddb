/**
 * The per-event ledger at a cursor: each business event's sends, effects and fate so far (the
 * cursor as in at.ts).
 */
import { K } from './kinds';
import { eventIdOf, type RunView } from './runView';
import { lowerBound, rowOf, upperBound } from './steps';
import { cellAt, type CellStatus } from './at';

/** Fate of a business event at a cursor: final once the run is over. */
export type LiveFate = 'pending' | 'once' | 'duplicated' | 'lost';

/** One business event in the per-event ledger. */
export interface LedgerRow {
  identity: number;
  id: string;
  amount: number;
  /** Log records carrying it so far (input and output topics): topic, partition, offset. */
  records: { topic: number; partition: number; offset: number; status: CellStatus }[];
  /** Times processed so far. */
  processed: number;
  /** Rows at the primary table so far (or effects). */
  rows: number;
  /** Checkpoint that covers its (first) record, if any. */
  checkpoint: number;
  fate: LiveFate;
  /** The final fate (0 lost, 1 once, 2 duplicated). */
  finalFate: number;
  /**
   * End-to-end latency (virtual ms, first send → first effect at the primary point) once that
   * effect is applied at the cursor; -1 before, and for an event that never takes effect.
   */
  latencyMs: number;
}

/** The ledger row of identity `j` at `idx`. */
export function ledgerRowAt(v: RunView, j: number, idx: number): LedgerRow {
  const c = v.cols;
  const records: LedgerRow['records'] = [];
  for (const g of rowOf(v.logVersionsByIdentity, j)) {
    const li = upperBound(v.logBase, g) - 1;
    const log = v.logs[li]!;
    const ver = g - v.logBase[li]!;
    if (!(log.addedAt[ver]! < idx && log.removedAt[ver]! >= idx)) continue;
    const cell = cellAt(v, log, log.offset[ver]!, idx);
    if (cell)
      records.push({
        topic: log.topic,
        partition: log.partition,
        offset: cell.offset,
        status: cell.status,
      });
  }
  let processed = 0;
  for (const e of rowOf(v.byIdentity, j)) {
    if (e >= idx) break;
    if (c.kind[e] === K.process && v.processors.some((p) => p.actor === c.actor[e])) processed++;
  }
  let rows = 0;
  const primaryTopic = v.verdict.primary.startsWith('log:')
    ? v.topics.indexOf(v.verdict.primary.slice('log:'.length))
    : -1;
  if (v.primaryTable >= 0) {
    const tb = v.tables[v.primaryTable]!;
    for (const r of rowOf(tb.byIdentity, j)) if (tb.insertedAt[r]! < idx && !tb.reread[r]) rows++;
  } else if (primaryTopic >= 0) {
    // The end of the pipeline is a topic nobody reads here: its records, as the checker counts
    // them (every record in the log, an aborted transaction's included).
    for (const r of records) if (r.topic === primaryTopic) rows++;
  } else {
    const service = v.actors.indexOf('service');
    for (const e of rowOf(v.byIdentity, j)) {
      if (e >= idx) break;
      if (c.kind[e] === K.effect && c.actor[e] === service) rows++;
    }
  }
  let checkpoint = -1;
  const inputTopic = v.topics.indexOf(v.scenario.workload.topic);
  const firstInput = records.find((r) => r.topic === inputTopic);
  if (firstInput) {
    // The first completed checkpoint whose position on the record's partition is past it.
    const { partition, offset: o } = firstInput;
    for (const cp of v.checkpoints) {
      // Idle checkpoints count too: after an expired one, the first of them may be the first
      // completed checkpoint that holds the record.
      const done = cp.completed >= 0 ? cp.completed : cp.idle;
      if (done < 0 || done >= idx) continue;
      let pos = -1;
      for (const e of cp.positions) if (c.partition[e] === partition) pos = c.offset[e]!;
      // A trace without per-partition positions: the completed entry's (the first partition's).
      if (cp.positions.length === 0 && partition === 0) pos = c.offset[done]!;
      if (pos > o) {
        checkpoint = cp.firstId;
        break;
      }
    }
  }
  const final = idx >= v.n;
  const fate: LiveFate =
    rows >= 2 ? 'duplicated' : rows === 1 ? 'once' : final ? 'lost' : 'pending';
  // Live, like `fate`: the latency is shown from its first effect on, never ahead of the cursor.
  const visibleAt = v.verdict.visibleAt[j]!;
  return {
    identity: j,
    id: eventIdOf(v.events, j),
    amount: v.events.identityAmount[j]!,
    records: records.sort(
      (a, b) => a.topic - b.topic || a.partition - b.partition || a.offset - b.offset,
    ),
    processed,
    rows,
    checkpoint,
    fate,
    finalFate: v.verdict.fate[j]!,
    latencyMs: visibleAt >= 0 && visibleAt < idx ? v.verdict.latencyOf[j]! : -1,
  };
}

/** Entries carrying identity `j` up to `idx` (for the "trace of the selected event" list). */
export function entriesOfIdentity(v: RunView, j: number, idx: number): Int32Array {
  const all = rowOf(v.byIdentity, j);
  return all.subarray(0, lowerBound(all, idx));
}
