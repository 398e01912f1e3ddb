import type { MouseEvent } from 'react';

/**
 * A room panel's click handler (on the panel, for every button in it): a button pressed with the
 * pointer gives the focus back to the page, so that the next Space plays the run (or steps the
 * lesson) as the projector's presenter expects — kept, Space and Enter pressed that button again
 * ("Reveal", "Ask the room": a teacher's workshop). A button pressed from the keyboard (Tab, then
 * Enter or Space: the click's `detail` is 0, https://w3c.github.io/uievents/#event-type-click)
 * keeps the focus and its keys, as every focused control does (docs/page.md, "Keys"). A button
 * that opens a dialog (the QR code's large view) keeps it too: the dialog gives the focus back to
 * it when it closes.
 */
export function pointerClickFreesKeys(e: MouseEvent<HTMLElement>): void {
  if (e.detail === 0) return;
  const button = e.target instanceof Element ? e.target.closest('button') : null;
  if (!button || button.hasAttribute('aria-haspopup')) return;
  // Its own handler may have moved the focus on (a panel shown, a field): that stays.
  if (document.activeElement === button) button.blur();
}
