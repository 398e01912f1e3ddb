/**
 * The rule both of a table's whole-row fixes use (issue 24): what a height holds under the sticky
 * header beyond a whole number of rows, `(height − head) mod row` — the part of a row it would
 * cut. useWholeRowsBox leaves it as a margin under a box whose height its layout sets;
 * useWholeRowsPad adds it under the last row of a box that scrolls, so its end is a row's edge.
 */
export function rowRemainder(
  /** The height measured from the top of the header (px). */
  height: number,
  /** The sticky header's height (px). */
  head: number,
  /** One row's height (px). */
  row: number,
): number {
  if (row <= 0) return 0;
  // Non-negative also for a height shorter than its header.
  const rest = (((height - head) % row) + row) % row;
  // Within a pixel of a row's edge: a float's rounding (a box's height is in whole pixels).
  return rest < 1 || row - rest < 1 ? 0 : rest;
}
