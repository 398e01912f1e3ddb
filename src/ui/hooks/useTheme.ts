import { useEffect } from 'react';
import type { LabState } from '../../store/labStore';
import { useLab } from '../../store/LabContext';

const selectTheme = (s: LabState) => s.theme;

/**
 * The colour scheme chosen in the page, on the document's root element (`data-theme`): the
 * stylesheet's variables and `color-scheme` follow it, and so do the canvas tokens and mermaid
 * (src/platform/media.ts watches the attribute). 'system' removes it: the OS setting decides.
 */
export function useTheme(): void {
  const theme = useLab(selectTheme);
  useEffect(() => {
    const root = document.documentElement;
    if (theme === 'system') delete root.dataset.theme;
    else root.dataset.theme = theme;
  }, [theme]);
}
