/**
 * Give the keyboard focus a home once React has rendered a change that removed the focused
 * control — a button that replaces itself ("Lock in" becoming the locked prediction, "Hide"
 * becoming the folded tab). Without it the focus falls back to `<body>`, and the next Tab starts
 * again from the top of the page. A target that is not focusable by itself (a paragraph, a
 * panel) gets `tabIndex = -1`: focusable from script, not a tab stop.
 *
 * @param target - read on the next animation frame, after the re-render; nothing happens when it
 *   is missing or detached, or when the user has meanwhile put the focus somewhere else.
 * @param options - `preventScroll`: focus without scrolling the page to the target.
 */
export function focusSoon(
  target: () => HTMLElement | null | undefined,
  options: FocusOptions = {},
): void {
  requestAnimationFrame(() => {
    const el = target();
    if (!el || !el.isConnected) return;
    const active = document.activeElement;
    if (active && active !== document.body && active.isConnected && !el.contains(active)) return;
    if (!el.hasAttribute('tabindex') && el.tabIndex < 0) el.tabIndex = -1;
    el.focus(options);
  });
}
