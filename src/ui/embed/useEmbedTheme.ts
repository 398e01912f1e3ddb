import { useEffect } from 'react';
import { setColorScheme } from '../../platform/media';
import { themeFromMessage, type EmbedTheme } from './embedLook';

/**
 * The embed's `theme=`: light or dark as said; auto, the reader's system; host, what the host page
 * posts (a ThemeMessage of embedLook.ts from the parent window, any origin: a theme is no secret), the
 * system's until it does.
 */
export function useEmbedTheme(theme: EmbedTheme): void {
  useEffect(() => {
    if (theme === 'light' || theme === 'dark') setColorScheme(theme);
    if (theme !== 'host') return;
    const onMessage = (e: MessageEvent) => {
      if (e.source !== window.parent) return;
      const said = themeFromMessage(e.data);
      if (said) setColorScheme(said);
    };
    window.addEventListener('message', onMessage);
    return () => window.removeEventListener('message', onMessage);
  }, [theme]);
}
