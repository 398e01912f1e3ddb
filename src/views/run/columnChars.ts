/**
 * Characters of a table's longest id and amount over the whole run, as {@link sourceChars} is for
 * its source column: the projector's narrow sink table (src/ui/present/present.css) sizes those
 * columns to them once, so nothing is cut and the columns do not jump as rows arrive.
 */
import { rowId } from './at';
import { formatMoney } from './format';
import type { RunView, TableView } from './runView';

const idWidths = new WeakMap<TableView, number>();
const amountWidths = new WeakMap<TableView, number>();

/** Characters of the longest business id (`rowId`) among the table's rows. */
export function idChars(v: RunView, tb: TableView): number {
  let n = idWidths.get(tb);
  if (n === undefined) {
    n = 1;
    for (let r = 0; r < tb.event.length; r++) n = Math.max(n, rowId(v, tb, r).length);
    idWidths.set(tb, n);
  }
  return n;
}

/** Characters of the longest amount (`formatMoney`) a row of the table holds at any moment. */
export function amountChars(tb: TableView): number {
  let n = amountWidths.get(tb);
  if (n === undefined) {
    n = 1;
    for (const x of tb.amount0) n = Math.max(n, formatMoney(x).length);
    for (const x of tb.updAmount) n = Math.max(n, formatMoney(x).length);
    amountWidths.set(tb, n);
  }
  return n;
}
