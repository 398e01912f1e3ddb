import { useEffect } from 'react';
import { setColorScheme } from '../../platform/media';
import type { LabState } from '../../store/labStore';
import { useLab } from '../../store/LabContext';

const selectTheme = (s: LabState) => s.theme;

/**
 * The colour scheme chosen in the page, put on the document's root element (`data-theme`, by
 * src/platform/media.ts, which also follows the system's preference): the stylesheet's variables
 * and `color-scheme` follow it, and so do the canvas tokens and mermaid. 'system': the OS decides.
 */
export function useTheme(): void {
  const theme = useLab(selectTheme);
  useEffect(() => {
    setColorScheme(theme === 'system' ? null : theme);
  }, [theme]);
}
