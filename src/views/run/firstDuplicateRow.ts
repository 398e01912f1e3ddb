import type { TableView } from './runView';

/**
 * The first of a table's first `count` rows that is a duplicate — the 2nd+ copy of its business
 * id, not a reader's own re-read (the rows RowTable marks) — or -1. At the run's end the sink
 * table shows it rather than its last rows: the duplicate is what the run is about, and in a table
 * a few rows tall the last rows hid it.
 */
export function firstDuplicateRow(
  table: Pick<TableView, 'copy' | 'reread'>,
  count: number,
): number {
  const n = Math.min(count, table.copy.length);
  for (let k = 0; k < n; k++) if (table.copy[k]! > 1 && table.reread[k] !== 1) return k;
  return -1;
}

/**
 * Where the table's first lost event would be, for a run with no duplicate to show: the row of
 * the latest event before it that the table holds — the gap is just below that row ("p-8", then
 * "p-11") — or 0 when the very first event is lost, or -1 when nothing is lost. `lost` says
 * whether an identity ended lost (the verdict's fate at the primary point). At at-most-once's
 * end the sink's table showed its last rows (p-12..p-20), the gap where p-9 and p-10 belong out
 * of sight.
 */
export function rowBeforeFirstLoss(
  table: Pick<TableView, 'event'>,
  count: number,
  identity: Int32Array,
  lost: (identity: number) => boolean,
): number {
  let first = -1;
  for (let e = 0; e < identity.length && first < 0; e++) if (lost(identity[e]!)) first = e;
  if (first < 0) return -1;
  const n = Math.min(count, table.event.length);
  let row = -1;
  let latest = -1;
  for (let k = 0; k < n; k++) {
    const e = table.event[k]!;
    if (e >= 0 && e < first && e > latest) [row, latest] = [k, e];
  }
  return row < 0 && n > 0 ? 0 : row;
}
