import { createElement, lazy, type ComponentType } from 'react';
import { PanelLoadBoundary } from './PanelLoadBoundary';

/** A component loaded on demand, and the call that starts its download ahead of its first render. */
export type LazyPanel<P> = ComponentType<P> & { preload: () => void };

/**
 * A panel, dialog or menu the lab's first screen does not draw, as a chunk of its own (issue 24:
 * the first load carries only what the first screen draws). `React.lazy` over `load`, with
 * `preload` to start the same download before it is rendered — on hover or focus of what opens
 * it, or once the page is idle (`preloadWhenIdle`): the module system fetches a chunk once. A
 * chunk that does not download says so in the panel's place (./PanelLoadBoundary.tsx), not in
 * the whole page's.
 */
export function lazyPanel<M, P extends object>(
  load: () => Promise<M>,
  pick: (m: M) => ComponentType<P>,
): LazyPanel<P> {
  const Lazy = lazy(() => load().then((m) => ({ default: pick(m) })));
  const preload = () => void load().catch(() => undefined);
  const Panel = (props: P) =>
    createElement(PanelLoadBoundary, null, createElement(Lazy as ComponentType<P>, props));
  return Object.assign(Panel, { preload });
}

/**
 * Starts the given panels' downloads once the browser is idle (after the first verdict: main.tsx
 * calls it once the first render is painted), so that the click that opens one finds it loaded.
 * `requestIdleCallback` where there is one (not Safari's before 26), else a timeout.
 */
export function preloadWhenIdle(panels: readonly { preload: () => void }[]): void {
  const run = () => panels.forEach((p) => p.preload());
  if (typeof window.requestIdleCallback === 'function')
    window.requestIdleCallback(run, { timeout: 2000 });
  else setTimeout(run, 200);
}
