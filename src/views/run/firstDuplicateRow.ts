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
