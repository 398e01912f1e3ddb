/**
 * A placement the atlas opened ("Show me how this breaks", a cell's "Open:" or "Compare"), brought
 * on screen: the page back at its top — the timeline with the fault's ⚡, the counters, the
 * pipeline or Compare's lanes — and the keyboard's focus on that view, so that Space plays it
 * (docs/page.md, Exploring faults). The atlas sits below the fold: at 1280×720 the run changed
 * out of sight, the button still focused, and a room saw nothing happen.
 */
export function showOpenedRun(viewId: 'pipeline' | 'compare-view'): void {
  // After React has rendered the opened run (Compare's lanes are a view of their own).
  requestAnimationFrame(() => {
    const view = document.getElementById(viewId);
    if (!view) return;
    view.focus({ preventScroll: true });
    window.scrollTo({ top: 0 });
  });
}
