import { useEffect, type RefObject } from 'react';

/**
 * Closes a popover or menu the way users expect: a press outside `box`, or Escape wherever the
 * focus is (after a click it sits on the opening button, outside the popover). Escape also puts
 * the focus back on `button`, since the focused item is about to disappear.
 * @param open - listen only while open.
 * @param close - called once per dismissal.
 * @param refocus - how Escape puts the focus back (default: `button.focus()`); a menu's button
 *   marks itself there so Space plays instead of opening it again (SPACE_TO_PAGE, useShortcuts).
 */
export function useDismiss(
  open: boolean,
  close: () => void,
  box: RefObject<HTMLElement | null>,
  button: RefObject<HTMLElement | null>,
  refocus?: () => void,
): void {
  useEffect(() => {
    if (!open) return;
    const onDown = (e: PointerEvent) => {
      if (!box.current?.contains(e.target as Node)) close();
    };
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== 'Escape') return;
      close();
      if (refocus) refocus();
      else button.current?.focus();
    };
    document.addEventListener('pointerdown', onDown);
    document.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('pointerdown', onDown);
      document.removeEventListener('keydown', onKey);
    };
  }, [open, close, box, button, refocus]);
}
