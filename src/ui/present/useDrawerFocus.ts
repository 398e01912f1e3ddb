import { useLayoutEffect, useRef, type RefObject } from 'react';

/**
 * Projector mode's drawer (D, present.css): opened, the focus goes to its selected tab, so that
 * a keyboard user is in it at once; closed (D or Escape), back to where it was before (the
 * Details button, the page) — rather than left on an element that is no longer shown, which
 * drops it to <body>.
 */
export function useDrawerFocus(drawer: RefObject<HTMLElement | null>, open: boolean): void {
  const before = useRef<HTMLElement | null>(null);
  useLayoutEffect(() => {
    const el = drawer.current;
    if (!open || !el) return;
    const active = document.activeElement;
    before.current = active instanceof HTMLElement && !el.contains(active) ? active : null;
    el.querySelector<HTMLElement>('[role="tab"][aria-selected="true"]')?.focus();
    return () => {
      // Only when the focus was in the drawer: a click elsewhere meanwhile keeps its own.
      const now = document.activeElement;
      if (now === document.body || now === null || el.contains(now)) before.current?.focus();
      before.current = null;
    };
  }, [drawer, open]);
}
