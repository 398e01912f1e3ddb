import { useEffect } from 'react';
import { editsText, ownsArrows, ownsHomeEnd, ownsSpace } from '../hooks/useShortcuts';

/** What the presenter's keys do. */
export interface DeckKeys {
  next(): void;
  previous(): void;
  reveal(): void;
  /** The run's end (refused, as the ⇥ button is, until the reveal). */
  toEnd?(): void;
  /** Fold or unfold the details (D, as in the page's projector mode). */
  details?(): void;
  undo?(): void;
  redo?(): void;
}

/**
 * The presenter's keys, on the whole window: PageDown / PageUp — what a presentation clicker
 * sends — and ArrowRight / ArrowLeft / Space (other clickers) move between steps, R reveals,
 * End goes to the run's end (as the playback's ⇥, and the page's End key, do), D folds and
 * unfolds the details (the page's projector-mode key: src/ui/hooks/useShortcuts.ts), Ctrl+Z / Ctrl+Shift+Z (or Ctrl+Y) undo and redo as on the page. A text field keeps its keys,
 * and a focused control the keys it acts on, as on the page (useShortcuts' `ownsSpace`,
 * `ownsArrows`, `ownsHomeEnd`): Space presses a focused button — the room panel's Reveal, tabbed
 * to, moved to the next step unrevealed — and the arrows move the speed slider. PageDown and
 * PageUp, the clicker's, always step.
 */
function deckKey(e: KeyboardEvent, keys: DeckKeys): boolean {
  if (editsText(e.target) || e.altKey) return false;
  const mod = e.ctrlKey || e.metaKey;
  if (mod) {
    const k = e.key.toLowerCase();
    if (k === 'z' && !e.shiftKey && keys.undo) keys.undo();
    else if (((k === 'z' && e.shiftKey) || k === 'y') && keys.redo) keys.redo();
    else return false;
    return true;
  }
  switch (e.key) {
    case ' ':
      if (ownsSpace(e.target)) return false;
      keys.next();
      return true;
    case 'ArrowRight':
      if (ownsArrows(e.target)) return false;
      keys.next();
      return true;
    case 'ArrowLeft':
      if (ownsArrows(e.target)) return false;
      keys.previous();
      return true;
    case 'PageDown':
      keys.next();
      return true;
    case 'PageUp':
      keys.previous();
      return true;
    case 'r':
    case 'R':
      keys.reveal();
      return true;
    case 'End':
      if (!keys.toEnd || ownsHomeEnd(e.target)) return false;
      keys.toEnd();
      return true;
    case 'd':
    case 'D':
      if (!keys.details) return false;
      keys.details();
      return true;
    default:
      return false;
  }
}

/** {@link deckKey} bound to the window while the component is mounted. */
export function useDeckKeys(keys: DeckKeys): void {
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (deckKey(e, keys)) e.preventDefault();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [keys]);
}
