/**
 * User preferences the system reports (media queries): reduced motion and the colour scheme. The
 * stylesheet follows `prefers-color-scheme` itself; script reads it for what CSS cannot restyle
 * (the canvas tokens, mermaid's diagrams, whose colours are baked into the SVG they render).
 */

/** Subscribe to `prefers-reduced-motion: reduce`; returns an unsubscribe function. */
export function watchReducedMotion(onChange: () => void): () => void {
  if (typeof matchMedia !== 'function') return () => {};
  const mq = matchMedia('(prefers-reduced-motion: reduce)');
  mq.addEventListener('change', onChange);
  return () => mq.removeEventListener('change', onChange);
}

/** Whether the user asked for reduced motion. */
export function prefersReducedMotion(): boolean {
  return typeof matchMedia === 'function' && matchMedia('(prefers-reduced-motion: reduce)').matches;
}

/**
 * Subscribe to colour-scheme changes (light ↔ dark): the system's, or the scheme chosen in the
 * page (`data-theme` on the root element, see src/ui/hooks/useTheme.ts). Returns an unsubscribe.
 */
export function watchColorScheme(onChange: () => void): () => void {
  if (typeof matchMedia !== 'function') return () => {};
  const mq = matchMedia('(prefers-color-scheme: dark)');
  mq.addEventListener('change', onChange);
  const chosen =
    typeof MutationObserver === 'function' && typeof document !== 'undefined'
      ? new MutationObserver(onChange)
      : null;
  chosen?.observe(document.documentElement, { attributes: true, attributeFilter: ['data-theme'] });
  return () => {
    mq.removeEventListener('change', onChange);
    chosen?.disconnect();
  };
}

/**
 * Whether the page is in its dark colour scheme: the one chosen in the page (`data-theme`), else
 * the system's (`prefers-color-scheme: dark`), as the stylesheet decides.
 */
export function prefersDarkScheme(): boolean {
  const chosen = typeof document !== 'undefined' ? document.documentElement.dataset.theme : '';
  if (chosen === 'dark' || chosen === 'light') return chosen === 'dark';
  return typeof matchMedia === 'function' && matchMedia('(prefers-color-scheme: dark)').matches;
}
