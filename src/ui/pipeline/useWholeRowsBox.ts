import { useLayoutEffect, useState, type RefObject } from 'react';
import { rowRemainder } from './wholeRows';

/**
 * The room (px) to leave under a table's box so that what it shows under its sticky header is a
 * whole number of rows: `rowRemainder(offered)` (issue 24). The projector's condensed cards give
 * a table the height their card leaves, seldom a whole number of rows: scrolled to a row's edge
 * (its top, the first duplicate centred: useAllRows, or its end: useWholeRowsPad) its bottom row
 * was cut — at-least-once's sink at its end showed 9 of "p-6 $60 ×2"'s 31 px. Left as a margin
 * under the box (a blank of less than a row), the box's view ends at a row's edge.
 */
export function wholeRowsCut(
  /** The height the layout offers the box inside its borders (px): its view with no margin. */
  offered: number,
  /** The sticky header's height (px). */
  head: number,
  /** One row's height (px). */
  row: number,
): number {
  // The header and one row at least stay in view.
  if (offered <= head + row) return 0;
  return rowRemainder(offered, head, row);
}

/**
 * {@link wholeRowsCut} for the table scrolled by `scroll` while `enabled`: the margin to give it.
 * Only for a box whose height its layout sets (a flex item that grows or shrinks: the condensed
 * cards'), where a margin takes its height from the box; the offered height is measured as its
 * view plus the margin it has, the same whatever the margin. Its min-height must be the header
 * and a whole number of rows (RowTable sets it): at its min-height a box does not shrink, and the
 * margin then stays as it is rather than hunting for a height the box cannot take.
 */
export function useWholeRowsBox(
  scroll: RefObject<HTMLElement | null>,
  enabled: boolean,
  head: number,
  row: number,
): number {
  const [offered, setOffered] = useState(0);
  useLayoutEffect(() => {
    const el = scroll.current;
    if (!el || !enabled || typeof ResizeObserver !== 'function') return;
    const ro = new ResizeObserver(() =>
      setOffered(el.clientHeight + (parseFloat(el.style.marginBottom) || 0)),
    );
    ro.observe(el);
    return () => ro.disconnect();
  }, [scroll, enabled]);
  return enabled ? wholeRowsCut(offered, head, row) : 0;
}
