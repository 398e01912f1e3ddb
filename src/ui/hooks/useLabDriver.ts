import { useEffect } from 'react';
import type { Lab } from '../../store/labStore';
import { usePlaybackLoop } from './usePlaybackLoop';
import { useShortcuts } from './useShortcuts';

/**
 * What every page that shows a lab runs, the full page and the embedded player alike: the
 * playback loop, the keyboard shortcuts, and the dev/test API on `window` — a lazy chunk, loaded
 * only in dev builds or under automation (Playwright sets `navigator.webdriver`).
 */
export function useLabDriver(lab: Lab): void {
  usePlaybackLoop(lab);
  useShortcuts(lab);
  useEffect(() => {
    if (!import.meta.env.DEV && !navigator.webdriver) return;
    let remove = () => {};
    let cancelled = false;
    void import('../testApi').then((m) => {
      if (!cancelled) remove = m.installTestApi(lab);
    });
    return () => {
      cancelled = true;
      remove();
    };
  }, [lab]);
}
