import { useEffect, type RefObject } from 'react';
import { watchMoreBelow } from '../moreBelow';

/**
 * Marks each stage of the pipeline `container` whose content goes on below its bottom edge with
 * `data-more-below` (present/condensedCards.css draws "▾ more below" there), kept up to date as a
 * stage scrolls, resizes or its content changes (a new run `view`, the cursor's engine event `idx`). In the
 * page's projector mode a stage is as tall as the pipeline's box and scrolls inside itself when its
 * cards need more (two consumers' cards once answered: zombie-consumer's 811 px in a 401 px box):
 * the sink's and the readers' tables keep the box whole rather than the box scrolling under them.
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
    if (!enabled || !root) return;
    return watchMoreBelow([...root.querySelectorAll<HTMLElement>(':scope > .stage')]);
  }, [container, view, idx, enabled]);
}
