/**
 * User preferences the system reports (media queries): reduced motion and the colour scheme. The
 * colour scheme in use is `data-theme` on <html> (the stylesheet's dark palette keys on it): the
 * system's `prefers-color-scheme`, unless an embed's `theme=` says otherwise
 * ({@link setColorScheme}). Script reads it for what CSS cannot restyle (the canvas tokens,
 * mermaid's diagrams, whose colours are baked into the SVG they render).
 */

/** Subscribe to `prefers-reduced-motion: reduce`; returns an unsubscribe function. */
export function watchReducedMotion(onChange: () => void): () => void {
  if (typeof matchMedia !== 'function') return () => {};
  const mq = matchMedia('(prefers-reduced-motion: reduce)');
  mq.addEventListener('change', onChange);
  return () => mq.removeEventListener('change', onChange);
}

let reducedMotionQuery: MediaQueryList | undefined;

/** Whether the user asks for reduced motion now (a live query: cheap to read at every paint). */
export function prefersReducedMotion(): boolean {
  if (typeof matchMedia !== 'function') return false;
  reducedMotionQuery ??= matchMedia('(prefers-reduced-motion: reduce)');
  return reducedMotionQuery.matches;
}

/** Subscribe to colour-scheme changes (light ↔ dark); returns an unsubscribe function. */
export function watchColorScheme(onChange: () => void): () => void {
  if (typeof MutationObserver !== 'function' || typeof document === 'undefined') return () => {};
  const mo = new MutationObserver(onChange);
  mo.observe(document.documentElement, { attributes: true, attributeFilter: ['data-theme'] });
  return () => mo.disconnect();
}

/** Whether the page is in its dark colour scheme (`data-theme="dark"` on <html>). */
export function prefersDarkScheme(): boolean {
  return typeof document !== 'undefined' && document.documentElement.dataset.theme === 'dark';
}

/** The scheme set by {@link setColorScheme}, or null: the system's. */
let chosen: 'light' | 'dark' | null = null;

const systemDark = () =>
  typeof matchMedia === 'function' && matchMedia('(prefers-color-scheme: dark)').matches;

function apply(): void {
  const theme = chosen ?? (systemDark() ? 'dark' : 'light');
  if (document.documentElement.dataset.theme !== theme)
    document.documentElement.dataset.theme = theme;
}

/**
 * Put the page in a colour scheme: light or dark, or null to follow the system's preference
 * (the default; the composition root calls {@link followSystemScheme} once).
 */
export function setColorScheme(scheme: 'light' | 'dark' | null): void {
  chosen = scheme;
  apply();
}

/** Set `data-theme` from the system's preference now and whenever it changes. */
export function followSystemScheme(): void {
  apply();
  if (typeof matchMedia === 'function')
    matchMedia('(prefers-color-scheme: dark)').addEventListener('change', apply);
}
