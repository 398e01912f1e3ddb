/**
 * The page's address as the UI reads it: its query, and whether the session history's entry the
 * page is on is its first screen — read as the page opens and again each time Back or Forward
 * brings it to another entry (`popstate`: HTML, "The History interface",
 * https://html.spec.whatwg.org/multipage/nav-history-apis.html#the-history-interface). Only
 * `platform/` touches `location` and `history` (docs/ARCHITECTURE.md, layers).
 *
 * The first screen is the entry the page opened on when its address opened no story (no
 * `?preset=`): "Start here" belongs there. It is marked in that entry's state, not read from its
 * address, because the address follows the workspace (src/platform/presetUrl.ts writes the
 * default preset's `?preset=` into it at once), while an entry's state stays with it through Back
 * and Forward (src/platform/history.ts keeps other keys when it records; a new entry starts
 * without them).
 */

/** The key of the first-screen mark in `history.state`. */
const FIRST_SCREEN_KEY = 'deliveryLabFirstScreen';

/** Whether there is an address to read: a browser's page (not Node, where unit tests run). */
export function hasAddress(): boolean {
  return typeof window !== 'undefined' && typeof window.location !== 'undefined';
}

/** The address's query string as written (`?preset=…&present=1`), or '' for none. */
export function addressQuery(): string {
  return location.search;
}

/** The address's fragment as written (`#s=…`), or '' for none. */
export function addressHash(): string {
  return location.hash;
}

/** The whole address (`https://host/path/?query#hash`). */
export function addressHref(): string {
  return location.href;
}

/** The address without its query and fragment: where the page is served from. */
export function addressBase(): string {
  return location.href.replace(/[?#].*$/s, '');
}

/** Put `href` in the address bar in place of the entry's address, keeping the entry's state. */
export function replaceAddress(href: string): void {
  history.replaceState(history.state, '', href);
}

/** Navigate to `href` (a new page load, a new history entry). */
export function goToAddress(href: string): void {
  location.assign(href);
}

/**
 * Mark the entry the page is on as its first screen, or not (`first`: its address opened no
 * story). Called once as the page opens: a reload of an entry decides again from its address.
 */
export function markFirstScreen(first: boolean): void {
  const state: unknown = history.state;
  const rest = typeof state === 'object' && state !== null ? state : {};
  history.replaceState({ ...rest, [FIRST_SCREEN_KEY]: first }, '', location.href);
}

/** Whether the entry the page is on is its first screen (see {@link markFirstScreen}). */
export function onFirstScreen(): boolean {
  const state: unknown = history.state;
  return (
    typeof state === 'object' &&
    state !== null &&
    (state as Record<string, unknown>)[FIRST_SCREEN_KEY] === true
  );
}

/**
 * Call `onMove` each time Back or Forward brings the page to another entry (the address and
 * `history.state` are the new entry's by then); returns the unsubscribe. The page's own
 * `pushState` / `replaceState` is not a move: it calls nothing.
 */
export function onHistoryMove(onMove: () => void): () => void {
  window.addEventListener('popstate', onMove);
  return () => window.removeEventListener('popstate', onMove);
}
