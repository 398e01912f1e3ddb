import { useEffect, useRef } from 'react';
import { editsText } from '../hooks/useShortcuts';

/**
 * A room's key (Q for the large join code, A for "Ask again"): a letter, without Ctrl, ⌘ or Alt,
 * wherever the page is — unless a field or a dialog has the key. `action` null: the key does
 * nothing now (its button is not on screen). The latest `action` is read at the press.
 */
export function useRoomKey(letter: string, action: (() => void) | null): void {
  const latest = useRef(action);
  useEffect(() => {
    latest.current = action;
  });
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const act = latest.current;
      if (!act || !isRoomKey(e, letter)) return;
      if (e.defaultPrevented || editsText(e.target)) return;
      if (e.target instanceof Element && e.target.closest('dialog, [role="dialog"]')) return;
      e.preventDefault();
      act();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [letter]);
}

/** Whether `e` is the plain letter (either case, no Ctrl, ⌘ or Alt). */
export function isRoomKey(
  e: { key: string; ctrlKey: boolean; metaKey: boolean; altKey: boolean },
  letter: string,
): boolean {
  return e.key.toLowerCase() === letter && !e.ctrlKey && !e.metaKey && !e.altKey;
}
