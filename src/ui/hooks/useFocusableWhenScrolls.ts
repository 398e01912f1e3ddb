import { useEffect, type RefObject } from 'react';

/**
 * A box that scrolls in its own box only in some layouts (the story's setup in projector mode
 * once the answer shows, src/ui/present/present.css) is a tab stop — a named region — while it
 * scrolls, so that a keyboard user can scroll it with the arrow keys (WCAG 2.1.1; axe's
 * `scrollable-region-focusable`), and no stop at all where its whole text is in view.
 *
 * @param ref - the box; `label` names it while it is a tab stop.
 * @param key - changes when the box may have been replaced (another step, another story).
 */
export function useFocusableWhenScrolls(
  ref: RefObject<HTMLElement | null>,
  label: string,
  key: string | number = '',
): void {
  useEffect(() => {
    const el = ref.current;
    if (!el || typeof ResizeObserver !== 'function') return;
    const check = () => {
      const overflow = getComputedStyle(el).overflowY;
      const scrolls =
        (overflow === 'auto' || overflow === 'scroll') && el.scrollHeight > el.clientHeight + 1;
      if (scrolls === (el.getAttribute('tabindex') === '0')) return;
      if (scrolls) {
        el.tabIndex = 0;
        el.setAttribute('role', 'region');
        el.setAttribute('aria-label', label);
      } else {
        el.removeAttribute('tabindex');
        el.removeAttribute('role');
        el.removeAttribute('aria-label');
      }
    };
    const sized = new ResizeObserver(check);
    sized.observe(el);
    const changed = new MutationObserver(check);
    changed.observe(el, { childList: true, subtree: true, characterData: true });
    check();
    return () => {
      sized.disconnect();
      changed.disconnect();
    };
  }, [ref, label, key]);
}
