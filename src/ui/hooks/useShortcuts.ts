import { useEffect } from 'react';
import type { Lab } from '../../store/labStore';

/** Whether a key event comes from a control that uses the key itself. */
function ownsKeys(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.isContentEditable) return true;
  const tag = target.tagName;
  if (tag === 'INPUT' || tag === 'SELECT' || tag === 'TEXTAREA') return true;
  const role = target.getAttribute('role');
  return role === 'slider' || role === 'menuitem' || role === 'tab' || role === 'radio';
}

/**
 * Global keyboard shortcuts: Space play/pause, ←/→ step one engine event, Home restart,
 * Ctrl/⌘+Z undo, Ctrl/⌘+Shift+Z (or Ctrl+Y) redo, Escape closes the fault menu and the
 * selection. Keys typed into a field, a slider or a menu stay theirs; Space on a focused button
 * activates the button, as it should.
 */
export function useShortcuts(lab: Lab): void {
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const a = lab.actions;
      const mod = e.ctrlKey || e.metaKey;
      if (mod && (e.key === 'z' || e.key === 'Z')) {
        if (ownsKeys(e.target) && (e.target as HTMLElement).tagName !== 'SELECT') return;
        e.preventDefault();
        if (e.shiftKey) a.redo();
        else a.undo();
        return;
      }
      if (mod && (e.key === 'y' || e.key === 'Y')) {
        if (ownsKeys(e.target)) return;
        e.preventDefault();
        a.redo();
        return;
      }
      if (e.key === 'Escape') {
        a.openMenu(null);
        return;
      }
      if (mod || e.altKey || ownsKeys(e.target)) return;
      const onButton = e.target instanceof HTMLElement && e.target.tagName === 'BUTTON';
      if (e.key === ' ' && !onButton) {
        e.preventDefault();
        a.togglePlay();
      } else if (e.key === 'ArrowRight') {
        e.preventDefault();
        a.step(1);
      } else if (e.key === 'ArrowLeft') {
        e.preventDefault();
        a.step(-1);
      } else if (e.key === 'Home' && !onButton) {
        e.preventDefault();
        a.restart();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [lab]);
}
