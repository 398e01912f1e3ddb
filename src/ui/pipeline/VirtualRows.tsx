import { useVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useMemo, type ReactNode } from 'react';
import { centredOnRowEdge, type RowLayout, type RowsOptions } from '../hooks/useAllRows';

/**
 * A long list's rows, virtualized (@tanstack/react-virtual): 10,000 rows cost the ~15 in view. A
 * chunk of its own, loaded by src/ui/pipeline/Rows.tsx only for a list longer than
 * PLAIN_ROWS_MAX (issue 31: an embed of a small scenario never fetches it).
 */
export default function VirtualRows({
  count,
  size,
  scroll,
  paddingStart = 0,
  scrollPaddingStart = 0,
  overscan = 6,
  children,
}: RowsOptions & { children: (rows: RowLayout) => ReactNode }) {
  // No React Compiler here: the virtualizer re-renders its host when it scrolls, as designed.
  // eslint-disable-next-line react-hooks/incompatible-library
  const virt = useVirtualizer({
    count,
    getScrollElement: () => scroll.current,
    estimateSize: () => size,
    paddingStart,
    scrollPaddingStart,
    overscan,
    // Render after the scroll event, not inside it: the overscan rows cover the gap, and a
    // synchronous render per scroll event drops frames on a busy main thread.
    useFlushSync: false,
  });
  // A+ / A− (and projector mode) change the rows' height: the virtualizer keeps sizes it
  // estimated, so it is told to estimate again (at 150 % rows stayed at their old height).
  useEffect(() => virt.measure(), [size, virt]);
  // Centred as the plain rows are (useAllRows): on a row's edge, not half a row off.
  const rows = useMemo<RowLayout>(
    () => ({
      getVirtualItems: () => virt.getVirtualItems(),
      getTotalSize: () => virt.getTotalSize(),
      scrollToIndex(index, o) {
        const el = scroll.current;
        if (o?.align !== 'center' || !el) return virt.scrollToIndex(index, o);
        const i = Math.max(0, Math.min(count - 1, index));
        const top = centredOnRowEdge(i, el.clientHeight, {
          size,
          paddingStart,
          scrollPaddingStart,
        });
        virt.scrollToOffset(Math.max(0, top));
      },
      // The last row's bottom at the box's (`scrollToEnd` came with virtual-core 3.16, after our pin).
      scrollToEnd: () => virt.scrollToIndex(count - 1, { align: 'end' }),
      measure: () => virt.measure(),
    }),
    [virt, count, size, scroll, paddingStart, scrollPaddingStart],
  );
  return children(rows);
}
