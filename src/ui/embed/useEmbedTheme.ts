import { useEffect } from 'react';
import { setColorScheme } from '../../platform/media';
import { HELLO_MESSAGE, themeFromMessage, type EmbedTheme } from './embedLook';

/**
 * The embed's `theme=`: light or dark as said; auto, the reader's system; host, what the host page
 * posts (a ThemeMessage of embedLook.ts from the parent window, any origin: a theme is no secret), the
 * system's until it does. With `host` the player says it listens (a hello message) as soon as it
 * mounts, so the loader themes it at once — not only after its height is measured, which a frame
 * off screen may do late (issue 31: off-screen frames stayed light on a dark host).
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
    // Nothing secret in it, and the host's origin is not known: any origin may read it.
    if (window.parent !== window) window.parent.postMessage({ type: HELLO_MESSAGE }, '*');
    return () => window.removeEventListener('message', onMessage);
  }, [theme]);
}
