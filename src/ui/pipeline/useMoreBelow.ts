import { useEffect, type RefObject } from 'react';

/**
 * Marks each stage of the pipeline `container` whose content goes on below its bottom edge with
 * `data-more-below` (present/condensedCards.css draws "▾ more below" there), kept up to date as a
 * stage scrolls, resizes or its content changes (a new run `view`, the cursor's engine event `idx`). In the
 * page's projector mode a stage is as tall as the pipeline's box and scrolls inside itself when its
 * cards need more (two consumers' cards once answered: zombie-consumer's 811 px in a 401 px box):
 * the sink's and the readers' tables keep the box whole rather than the box scrolling under them.
 * The attribute is set on the element itself: it changes as the stage scrolls, with no render.
 */
export function useMoreBelow(
  container: RefObject<HTMLElement | null>,
  view: unknown,
  idx: number,
  /** Off in the embed's measuring pass: the mark takes no room, and reading it lays out. */
  enabled = true,
): void {
  useEffect(() => {
    const root = container.current;
    if (!enabled || !root || typeof ResizeObserver !== 'function') return;
    const stages = [...root.querySelectorAll<HTMLElement>(':scope > .stage')];
    const mark = (s: HTMLElement) => {
      // A pixel of slack: zoomed layouts leave fractional heights.
      const more = s.scrollHeight - s.scrollTop - s.clientHeight > 1;
      if (more !== s.hasAttribute('data-more-below')) s.toggleAttribute('data-more-below', more);
    };
    const markAll = () => stages.forEach(mark);
    const ro = new ResizeObserver(markAll);
    const onScroll = (e: Event) => mark(e.currentTarget as HTMLElement);
    for (const s of stages) {
      ro.observe(s);
      for (const c of s.children) ro.observe(c);
      s.addEventListener('scroll', onScroll, { passive: true });
    }
    markAll();
    return () => {
      ro.disconnect();
      for (const s of stages) s.removeEventListener('scroll', onScroll);
    };
  }, [container, view, idx, enabled]);
}
