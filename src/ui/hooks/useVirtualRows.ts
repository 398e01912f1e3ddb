import { useVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useRef } from 'react';
import { useFontScale } from './useFontScale';

/**
 * A virtualized table of `count` rows of `rowPx` (at font scale 1) under a sticky header row of
 * one row's height (`head`, in px at the current scale): 10,000 rows cost the ~15 in view.
 * Returns the scroll element's ref, the virtualizer, the font scale and the header's height.
 */
export function useVirtualRows(count: number, rowPx: number) {
  const scale = useFontScale();
  const scroll = useRef<HTMLDivElement>(null);
  const head = rowPx * scale;
  // No React Compiler here: the virtualizer re-renders its host when it scrolls, as designed.
  // eslint-disable-next-line react-hooks/incompatible-library
  const virt = useVirtualizer({
    count,
    getScrollElement: () => scroll.current,
    estimateSize: () => rowPx * scale,
    // The sticky header row: the rows start below it (paddingStart), and it covers the top of the
    // view, so a row scrolled to is placed below it (scrollPaddingStart) — ↓ left the selected
    // row a header's height below the bottom edge.
    paddingStart: head,
    scrollPaddingStart: head,
    overscan: 6,
    // Render after the scroll event, not inside it: the overscan rows cover the gap, and a
    // synchronous render per scroll event drops frames on a busy main thread.
    useFlushSync: false,
  });
  // A+ / A− change the rows' height: the virtualizer keeps sizes it estimated (see PartitionLog).
  useEffect(() => virt.measure(), [scale, virt]);
  return { scroll, virt, scale, head };
}
