import { useLayoutEffect, useState, type RefObject } from 'react';
import { rowRemainder } from './wholeRows';

/**
 * The room (px) to add below a table's last row so that its scrollable extent under the sticky
 * header is a whole number of rows: `clientHeight − header + k × row` (issue 24). The box is seldom
 * a whole number of rows tall, so scrolled to its very end — the run followed, or a row brought to
 * the middle and stopped there by the end — the top row was cut under the header (the lesson's
 * sink at delivery-guarantees-45 step 1's end: 11 px of "4 p-4" hidden). Ending the scroll a
 * row's remainder short of the end instead left the newest row below the box while following
 * (fd7edd8, reverted by 2b05f54). Padded, the very end is a row's edge: the top row whole under
 * the header and the newest whole above the bottom, a blank of less than a row under it.
 */
export function wholeRowsPad(
  /** The box's height inside its borders (clientHeight). */
  view: number,
  /** The rows' extent without padding: the header and the rows (px). */
  content: number,
  /** What covers the top of the view: the sticky header (px). */
  head: number,
  /** One row's height (px). */
  row: number,
): number {
  // Nothing to pad while it does not scroll (a pad would make it), nor before it is measured.
  if (view <= 0 || content <= view) return 0;
  // The end is at content + pad − view; on a row's edge when (content − head) + pad − (view −
  // head) is a whole number of rows, i.e. pad ≡ view − head (mod row), content − head being k rows.
  return rowRemainder(view, head, row);
}

/**
 * {@link wholeRowsPad} for the table scrolled by `scroll`, its height measured (a ResizeObserver:
 * the lesson's and the projector's boxes take the height their screen leaves).
 */
export function useWholeRowsPad(
  scroll: RefObject<HTMLElement | null>,
  content: number,
  head: number,
  row: number,
): number {
  const [view, setView] = useState(0);
  useLayoutEffect(() => {
    const el = scroll.current;
    if (!el || typeof ResizeObserver !== 'function') return;
    // Its first observation comes with the first layout, before the first paint.
    const ro = new ResizeObserver(() => setView(el.clientHeight));
    ro.observe(el);
    return () => ro.disconnect();
  }, [scroll]);
  return wholeRowsPad(view, content, head, row);
}
