import { useLayoutEffect, useMemo, useState } from 'react';
import { rowItems, rowsScroller, type RowLayout, type RowsOptions } from './useAllRows';

/**
 * Rows a list renders before its scroll container is measured (none yet, or a test's detached
 * list): more than fill its box (16em of 24 px rows at the page's 14 px: 10).
 */
const FIRST_ROWS = 16;

/** The part of the scroll container in view: its `scrollTop` and `clientHeight` (px). */
interface View {
  top: number;
  height: number;
}

/** The rows `view` shows of `count` rows of `size` px below `paddingStart`, `overscan` more each side. */
function windowOf(
  view: View | null,
  count: number,
  size: number,
  paddingStart: number,
  overscan: number,
): { first: number; last: number } {
  if (view === null) return { first: 0, last: Math.min(count, FIRST_ROWS) - 1 };
  const first = Math.floor((view.top - paddingStart) / size) - overscan;
  // The last row starting above the view's bottom edge.
  const last = Math.ceil((view.top + view.height - paddingStart) / size) - 1 + overscan;
  return { first: Math.max(0, first), last: Math.min(count - 1, last) };
}

/**
 * `el`'s view, or `prev` itself while the same row is at its top and its height is the same: the
 * list renders again only when the rows in view change, not on every scrolled pixel.
 */
function viewOf(el: HTMLElement, prev: View | null, size: number, paddingStart: number): View {
  const next = { top: el.scrollTop, height: el.clientHeight };
  const row = (v: View) => Math.floor((v.top - paddingStart) / size);
  return prev !== null && prev.height === next.height && row(prev) === row(next) ? prev : next;
}

/**
 * A long list's rows (> PLAIN_ROWS_MAX, src/ui/pipeline/Rows.tsx), only those in its scroll
 * container's view and `overscan` more each side: 10,000 rows cost the ~20 rendered. Every row is
 * `size` px tall, so which rows are in view is arithmetic on `scrollTop` — the virtualizer the
 * tables had (@tanstack/react-virtual, 10.5 kB gzip) measured rows of any height, which none of
 * them has; without it an embed of a long run (Flink's 250 records) loads no more code than a
 * short one (issue 31: every embed ≤ 150 KB gzip).
 *
 * The view is read on the container's scroll events and resizes, and at once after a scroll this
 * layout makes (a followed end, a centred duplicate), so the rows scrolled to are rendered in the
 * same frame.
 */
export function useWindowedRows({
  count,
  size,
  scroll,
  paddingStart = 0,
  scrollPaddingStart = 0,
  overscan = 6,
}: RowsOptions): RowLayout {
  const [view, setView] = useState<View | null>(null);
  useLayoutEffect(() => {
    const el = scroll.current;
    if (!el) return;
    const read = () => setView((v) => viewOf(el, v, size, paddingStart));
    read();
    el.addEventListener('scroll', read, { passive: true });
    const ro = typeof ResizeObserver === 'function' ? new ResizeObserver(read) : null;
    ro?.observe(el);
    return () => {
      el.removeEventListener('scroll', read);
      ro?.disconnect();
    };
  }, [scroll, size, paddingStart]);
  const { first, last } = windowOf(view, count, size, paddingStart, overscan);
  return useMemo(() => {
    const items = rowItems(first, last, size, paddingStart);
    // A scroll made here is read at once: the rows scrolled to render in the same frame.
    const scroller = rowsScroller({ count, size, scroll, paddingStart, scrollPaddingStart }, (el) =>
      setView((v) => viewOf(el, v, size, paddingStart)),
    );
    return {
      getVirtualItems: () => items,
      getTotalSize: () => paddingStart + count * size,
      ...scroller,
      // Rows are `size` px, computed afresh at each render: nothing estimated to redo.
      measure() {},
    } satisfies RowLayout;
  }, [first, last, count, size, scroll, paddingStart, scrollPaddingStart]);
}
