import { useMemo, type RefObject } from 'react';

/**
 * Where a list's rows go, as a virtualizer (@tanstack/react-virtual) answers it: the subset of its
 * interface the tables use, so a table renders from either {@link useAllRows} or the virtualizer
 * (src/ui/pipeline/VirtualRows.tsx) with the same code.
 */
export interface RowLayout {
  getVirtualItems(): readonly {
    index: number;
    key: number | string | bigint;
    start: number;
    size: number;
  }[];
  getTotalSize(): number;
  scrollToIndex(index: number, o?: { align?: 'start' | 'center' | 'end' | 'auto' }): void;
  scrollToEnd(): void;
  measure(): void;
}

/** What a list's layout is computed from (the options of the virtualizer's that the tables set). */
export interface RowsOptions {
  count: number;
  /** One row's height (px, at the current text scale). */
  size: number;
  /** The scroll container. */
  scroll: RefObject<HTMLElement | null>;
  /** Space above the first row (px): a sticky header row. */
  paddingStart?: number;
  /** What covers the top of the view (px): a row scrolled to is placed below it. */
  scrollPaddingStart?: number;
  /** Rows rendered beyond the view (the virtualizer's; every row is rendered here). */
  overscan?: number;
}

/**
 * The scroll offset that centres row `index` in what the header leaves of a `view` px tall box,
 * then on a row's edge: a box 2–3 rows tall (the compact player's sink) otherwise opened with a
 * sliver of a row under the header, a blank band above the row asked for (issue 31), and the
 * virtualizer's own centring (VirtualRows) left half a row at each edge — the projector's sink at
 * flink-checkpoint-replay's end showed 12 px of its bottom row.
 */
export function centredOnRowEdge(
  index: number,
  view: number,
  {
    size,
    paddingStart = 0,
    scrollPaddingStart = 0,
  }: Pick<RowsOptions, 'size' | 'paddingStart' | 'scrollPaddingStart'>,
): number {
  const start = paddingStart + index * size;
  const below = view - scrollPaddingStart;
  const centred = start + size / 2 - scrollPaddingStart - below / 2;
  const edge = paddingStart - scrollPaddingStart;
  return edge + Math.round((centred - edge) / size) * size;
}

/** Scrolls `el` (a DOM element the hook is handed, not React state) to `top`. */
function scrollTopTo(el: HTMLElement, top: number): void {
  el.scrollTop = top;
}

/**
 * Every row, laid out as the virtualizer would lay them (fixed height, one below the other): for
 * a short list (≤ PLAIN_ROWS_MAX rows, src/ui/pipeline/Rows.tsx), which then needs no
 * virtualizer — nor its chunk, which an embed of a small scenario never fetches (issue 31).
 */
export function useAllRows({
  count,
  size,
  scroll,
  paddingStart = 0,
  scrollPaddingStart = 0,
}: RowsOptions): RowLayout {
  return useMemo(() => {
    const items = Array.from({ length: count }, (_, index) => ({
      index,
      key: index,
      start: paddingStart + index * size,
      size,
    }));
    const scrollTo = (top: number) => {
      const el = scroll.current;
      if (el) scrollTopTo(el, Math.max(0, top));
    };
    return {
      getVirtualItems: () => items,
      getTotalSize: () => paddingStart + count * size,
      scrollToIndex(index, o = {}) {
        const el = scroll.current;
        const item = items[Math.max(0, Math.min(count - 1, index))];
        if (!el || !item) return;
        const view = el.clientHeight;
        const align = o.align ?? 'auto';
        const top = item.start - scrollPaddingStart;
        const bottom = item.start + item.size - view;
        if (align === 'start') scrollTo(top);
        else if (align === 'end') scrollTo(bottom);
        else if (align === 'center')
          scrollTo(centredOnRowEdge(index, view, { size, paddingStart, scrollPaddingStart }));
        // 'auto': only as far as brings the row into view.
        else if (el.scrollTop > top) scrollTo(top);
        else if (el.scrollTop < bottom) scrollTo(bottom);
      },
      scrollToEnd() {
        const el = scroll.current;
        if (el) scrollTopTo(el, el.scrollHeight);
      },
      // The rows' height is `size`, computed afresh at each render: nothing estimated to redo.
      measure() {},
    } satisfies RowLayout;
  }, [count, size, scroll, paddingStart, scrollPaddingStart]);
}
