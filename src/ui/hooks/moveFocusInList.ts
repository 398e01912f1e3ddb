import type { KeyboardEvent } from 'react';

type Step = (at: number, last: number) => number;

/** The WAI-ARIA menu pattern's keys: ↓ ↑ to the next / previous item (wrapping), Home / End. */
const KEYS: Record<string, Step> = {
  ArrowDown: (at) => at + 1,
  ArrowUp: (at) => at - 1,
  Home: () => 0,
  End: (_, last) => last,
};
/** → ← as well, for a list laid out in a row. */
const SIDEWAYS: Record<string, Step> = { ArrowRight: (at) => at + 1, ArrowLeft: (at) => at - 1 };

/**
 * Move the focus within `list` by the key pressed, if it is one of the list's keys; the key is then
 * the list's alone (not the page's shortcuts: ← → jump, Home / End move the run's cursor). Returns
 * whether it was. https://www.w3.org/WAI/ARIA/apg/patterns/menubar/ (keyboard interaction)
 */
export function moveFocusInList(
  e: KeyboardEvent,
  list: readonly HTMLElement[],
  sideways = false,
): boolean {
  const step = KEYS[e.key] ?? (sideways ? SIDEWAYS[e.key] : undefined);
  if (!step || list.length === 0) return false;
  e.preventDefault();
  e.stopPropagation();
  const at = list.indexOf(document.activeElement as HTMLElement);
  list[(step(at, list.length - 1) + list.length) % list.length]?.focus();
  return true;
}
