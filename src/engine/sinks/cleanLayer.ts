/**
 * Raw then clean: the sink table is the raw layer, which takes every delivery, duplicates and
 * all; a downstream step builds a clean table from it with one row per event id, as lakehouses do
 * (docs/semantics/stream-dedupe.md#raw-then-clean):
 *
 *   MERGE INTO clean c
 *   USING (SELECT * FROM (SELECT r.*, ROW_NUMBER() OVER (PARTITION BY event_id
 *            ORDER BY topic, kafka_partition, kafka_offset) AS rn FROM raw r) WHERE rn = 1) s
 *   ON c.event_id = s.event_id
 *   WHEN NOT MATCHED THEN INSERT …
 *
 * (https://www.postgresql.org/docs/current/sql-merge.html,
 * https://www.postgresql.org/docs/current/functions-window.html,
 * https://docs.delta.io/latest/delta-update.html#upsert-into-a-table-using-merge).
 * The step only inserts ids the clean table lacks and the raw table only grows, so running it
 * after every write or once after the last gives the same clean table: the engine builds it once,
 * from the raw table as the run leaves it.
 */
import type { RowStore } from './rowStore';

/** The clean table: rows per business identity (0 or 1), its rows and Σ amount. */
export interface CleanTable {
  rowsOf: Int32Array;
  liveRows: number;
  sum: number;
}

/** Build the clean table from the raw table's live rows (`identity`: event → business identity). */
export function cleanTable(raw: RowStore, identity: Int32Array, identities: number): CleanTable {
  // Per identity, the raw row ROW_NUMBER() numbers 1: the first in the source's order.
  const first = new Int32Array(identities).fill(-1);
  const before = (a: number, b: number) =>
    raw.topic.get(a) !== raw.topic.get(b)
      ? raw.topic.get(a) < raw.topic.get(b)
      : raw.partition.get(a) !== raw.partition.get(b)
        ? raw.partition.get(a) < raw.partition.get(b)
        : raw.offset.get(a) < raw.offset.get(b);
  for (let r = 0; r < raw.length; r++) {
    const ev = raw.event.get(r);
    if (raw.live.get(r) !== 1 || ev < 0) continue;
    const j = identity[ev]!;
    if (first[j]! < 0 || before(r, first[j]!)) first[j] = r;
  }
  const rowsOf = new Int32Array(identities);
  let liveRows = 0;
  let sum = 0;
  for (let j = 0; j < identities; j++) {
    if (first[j]! < 0) continue;
    rowsOf[j] = 1;
    liveRows++;
    sum += raw.amount.get(first[j]!);
  }
  return { rowsOf, liveRows, sum };
}
