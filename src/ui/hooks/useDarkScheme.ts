import { useSyncExternalStore } from 'react';
import { prefersDarkScheme, watchColorScheme } from '../../platform/media';

/**
 * Whether the page is dark right now, re-rendering when the system's colour scheme changes — for
 * what the stylesheet cannot restyle (mermaid bakes its theme's colours into the SVG it renders).
 */
export function useDarkScheme(): boolean {
  return useSyncExternalStore(watchColorScheme, prefersDarkScheme, () => false);
}
