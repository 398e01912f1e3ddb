/**
 * Marks each of `boxes` whose content goes on below its bottom edge with `data-more-below` (the
 * projector's CSS draws "▾ more below" there), kept up to date as a box scrolls, resizes, or its
 * children resize or change (Compare's lanes replace their loading box). The attribute is set on the element itself: it changes as the box scrolls,
 * with no render. Returns the function that stops watching.
 */
export function watchMoreBelow(boxes: readonly HTMLElement[]): () => void {
  if (typeof ResizeObserver !== 'function') return () => {};
  const mark = (s: HTMLElement) => {
    // A pixel of slack: zoomed layouts leave fractional heights.
    const more = s.scrollHeight - s.scrollTop - s.clientHeight > 1;
    if (more !== s.hasAttribute('data-more-below')) s.toggleAttribute('data-more-below', more);
  };
  const markAll = () => boxes.forEach(mark);
  const ro = new ResizeObserver(markAll);
  const onScroll = (e: Event) => mark(e.currentTarget as HTMLElement);
  const mo = new MutationObserver((changes) => {
    for (const c of changes) for (const n of c.addedNodes) if (n instanceof Element) ro.observe(n);
    markAll();
  });
  for (const s of boxes) {
    ro.observe(s);
    for (const c of s.children) ro.observe(c);
    mo.observe(s, { childList: true });
    s.addEventListener('scroll', onScroll, { passive: true });
  }
  markAll();
  return () => {
    ro.disconnect();
    mo.disconnect();
    for (const s of boxes) s.removeEventListener('scroll', onScroll);
  };
}
