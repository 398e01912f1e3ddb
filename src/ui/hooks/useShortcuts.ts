import { useEffect } from 'react';
import type { Lab } from '../../store/labStore';

/** ARIA roles whose widgets activate or select with Space themselves. */
const SPACE_ROLES = new Set([
  'button',
  'checkbox',
  'switch',
  'radio',
  'menuitem',
  'menuitemcheckbox',
  'menuitemradio',
  'option',
  'tab',
]);

/** ARIA roles whose widgets move with the arrow keys themselves. */
const ARROW_ROLES = new Set([
  'slider',
  'menuitem',
  'menuitemcheckbox',
  'menuitemradio',
  'tab',
  'radio',
  'option',
  'listbox',
  'spinbutton',
]);

/**
 * The `data-space` value by which a focused button gives Space back to play/pause. A menu's
 * button that the focus returns to when its menu closes carries it until the focus leaves:
 * otherwise the Space meant for play/pause clicks that button and opens the menu again. A button
 * the user tabbed to carries no mark, so Space (and Enter) open its menu as on any button.
 */
export const SPACE_TO_PAGE = 'page';

/** Input types that are not text: they type nothing and have no undo of their own. */
const NON_TEXT_INPUTS = new Set([
  'range',
  'checkbox',
  'radio',
  'button',
  'submit',
  'reset',
  'color',
  'file',
]);

/** Whether the element edits text (every key is a character; Ctrl+Z is its own undo). */
export function editsText(el: EventTarget | null): boolean {
  if (!(el instanceof HTMLElement)) return false;
  if (el.isContentEditable || el.tagName === 'TEXTAREA') return true;
  return el.tagName === 'INPUT' && !NON_TEXT_INPUTS.has((el as HTMLInputElement).type);
}

/**
 * Whether Space belongs to the focused element rather than to play/pause: a field types it, a
 * select opens with it, a checkbox or radio ticks with it, a button (or a summary, or anything
 * with a button-like role) is activated by it — the browser clicks it on key up, so toggling
 * play here as well would do two things at once. A slider (the timeline, the speed) does nothing
 * with Space: there it plays, as everywhere else.
 *
 * An element marked `data-space="page"` leaves Space to the page: a menu's button that got the
 * focus back because its menu closed (see {@link SPACE_TO_PAGE}). The shortcut's
 * `preventDefault` on key down then also keeps the browser from clicking it on key up.
 */
export function ownsSpace(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.dataset.space === SPACE_TO_PAGE) return false;
  if (editsText(target)) return true;
  const tag = target.tagName;
  if (tag === 'INPUT') {
    const input = target as HTMLInputElement;
    // A checked radio does nothing with Space (it selects an unchecked one): after a click on
    // the guarantee switch, Space must still play, as the page says.
    if (input.type === 'radio') return !input.checked;
    return input.type !== 'range';
  }
  if (tag === 'SELECT' || tag === 'BUTTON' || tag === 'SUMMARY') return true;
  const role = target.getAttribute('role');
  if (role === 'radio') return target.getAttribute('aria-checked') !== 'true';
  return role !== null && SPACE_ROLES.has(role);
}

/**
 * Whether ←/→, Home and End belong to the focused element: a field, a select, a slider, a radio
 * group, a menu, a tab list. (A checkbox or a button does nothing with them: there they step.)
 */
export function ownsArrows(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (editsText(target) || target.tagName === 'SELECT') return true;
  if (target.tagName === 'INPUT') return (target as HTMLInputElement).type !== 'checkbox';
  const role = target.getAttribute('role');
  return role !== null && ARROW_ROLES.has(role);
}

/**
 * Whether Home and End belong to the focused element: a field, a select, a slider, or a widget
 * that handles them itself. A native radio group does nothing with them (its arrows move the
 * choice, not Home/End): after a click on the guarantee switch, End goes to the end of the run.
 */
export function ownsHomeEnd(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (editsText(target) || target.tagName === 'SELECT') return true;
  if (target.tagName === 'INPUT') return (target as HTMLInputElement).type === 'range';
  const role = target.getAttribute('role');
  return role !== null && ARROW_ROLES.has(role);
}

/** Whether the event comes from inside a dialog: the page behind it takes no shortcuts. */
function inDialog(target: EventTarget | null): boolean {
  return target instanceof Element && target.closest('dialog, [role="dialog"]') !== null;
}

/**
 * Global keyboard shortcuts: Space play/pause, ←/→ jump to the previous / next moment (a fault,
 * a commit, a checkpoint, a retry, an anomaly), Shift+←/→ step one engine event, Home restart, End to
 * the end of the run, Ctrl/⌘+Z undo, Ctrl/⌘+Shift+Z (or Ctrl+Y) redo, Escape closes the fault menu and the
 * selection (and projector mode's drawer, D). Space plays wherever focus is — the page, a component, the timeline, the speed
 * slider — except where it already means something: a field types it, a focused button is
 * activated by it (once: never activated and toggled). Arrows step unless the focused control
 * moves with them. Inside a dialog only Escape and undo/redo apply.
 */
export function useShortcuts(lab: Lab): void {
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const a = lab.actions;
      const mod = e.ctrlKey || e.metaKey;
      const target = e.target as HTMLElement | null;
      // A field with nothing typed since its value was applied leaves undo to the page (see
      // useNumberDraft): the browser's own undo would only put back its text, not the scenario.
      const fieldUndo = editsText(target) && target?.dataset.undo !== 'page';
      if (mod && (e.key === 'z' || e.key === 'Z')) {
        if (fieldUndo) return;
        e.preventDefault();
        if (e.shiftKey) a.redo();
        else a.undo();
        return;
      }
      if (mod && (e.key === 'y' || e.key === 'Y')) {
        if (fieldUndo) return;
        e.preventDefault();
        a.redo();
        return;
      }
      if (e.key === 'Escape') {
        const s = lab.app.getState();
        // Projector mode's drawer (D) closes with Escape too, unless a fault menu is open first.
        if (s.menu === null && s.present && s.details && !inDialog(target)) a.setDetails(false);
        a.openMenu(null);
        return;
      }
      if (mod || e.altKey || e.defaultPrevented || inDialog(target)) return;
      // P: projector mode; D: its secondary panels (ledger, knobs, trace), one key away.
      if ((e.key === 'p' || e.key === 'P' || e.key === 'd' || e.key === 'D') && !e.shiftKey) {
        if (editsText(target)) return;
        const s = lab.app.getState();
        if (e.key.toLowerCase() === 'p') a.setPresent(!s.present);
        else if (s.present) a.setDetails(!s.details);
        else return;
        e.preventDefault();
        return;
      }
      if (e.key === ' ') {
        if (ownsSpace(target)) return;
        // Space would scroll the page; held down it repeats: one press, one toggle.
        e.preventDefault();
        if (!e.repeat) a.togglePlay();
      } else if (e.key === 'ArrowRight' || e.key === 'ArrowLeft') {
        if (ownsArrows(target)) return;
        e.preventDefault();
        // ←/→ jump from moment to moment; with Shift they step one engine event.
        const delta = e.key === 'ArrowRight' ? 1 : -1;
        if (e.shiftKey) a.step(delta);
        else a.jump(delta);
      } else if (e.key === 'Home' || e.key === 'End') {
        // A button or a radio does nothing with Home / End (the page would scroll), so after a
        // click on a component, the guarantee switch or a menu's Escape they move the cursor.
        if (ownsHomeEnd(target)) return;
        e.preventDefault();
        if (e.key === 'Home') a.restart();
        else a.toEnd();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [lab]);
}
