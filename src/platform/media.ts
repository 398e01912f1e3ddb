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

/** Subscribe to colour-scheme changes (light ↔ dark); returns an unsubscribe function. */
export function watchColorScheme(onChange: () => void): () => void {
  if (typeof matchMedia !== 'function') return () => {};
  const mq = matchMedia('(prefers-color-scheme: dark)');
  mq.addEventListener('change', onChange);
  return () => mq.removeEventListener('change', onChange);
}

/** Whether the page is in its dark colour scheme (the stylesheet's `prefers-color-scheme: dark`). */
export function prefersDarkScheme(): boolean {
  return typeof matchMedia === 'function' && matchMedia('(prefers-color-scheme: dark)').matches;
}
