import { useEffect, useRef, useState, type RefObject } from 'react';
import { useMeasuring } from '../hooks/useMeasuring';

/**
 * Width of an element, kept up to date with a ResizeObserver (0 until measured).
 */
export function useWidth(ref: RefObject<HTMLElement | null>): number {
  const [w, setW] = useState(0);
  useEffect(() => {
    const el = ref.current;
    if (!el || typeof ResizeObserver !== 'function') return;
    const ro = new ResizeObserver(() => setW(el.clientWidth));
    ro.observe(el);
    setW(el.clientWidth);
    return () => ro.disconnect();
  }, [ref]);
  return w;
}

/**
 * Keep a growing list scrolled to its end while the user has not scrolled away from it (like a
 * terminal): calls `scrollToEnd` when `size` changes, and when `rowScale` (the text scale its rows
 * are sized by) or `padEnd` changes — taller rows or more room below them push the end down as
 * much as more rows do.
 */
export function useFollowEnd(
  ref: RefObject<HTMLElement | null>,
  size: number,
  scrollToEnd: () => void,
  rowScale = 1,
  /** The list's padding below its last row (useWholeRowsPad): the end moves when it changes. */
  padEnd = 0,
): void {
  const following = useRef(true);
  // The embed's measuring pass is never scrolled: where a list is scrolled to takes no room, and
  // scrolling it would lay the player out at every pass.
  const seen = !useMeasuring();
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    const onScroll = () => {
      following.current = el.scrollTop + el.clientHeight >= el.scrollHeight - 8;
    };
    el.addEventListener('scroll', onScroll, { passive: true });
    return () => el.removeEventListener('scroll', onScroll);
  }, [ref]);
  useEffect(() => {
    if (seen && following.current) scrollToEnd();
    // scrollToEnd is recreated each render; following the size is what matters.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [size, rowScale, padEnd]);
}
