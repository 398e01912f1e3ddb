/**
 * The page's address with another hash, written in place: no navigation, no history entry, the
 * entry's state kept (HTML, "The History interface": `replaceState`). The share link's `s=` and
 * `p=`, Compare's `c=` and the atlas's `a=` are all written so.
 */

/**
 * @param hash - the new hash without its `#`; empty: the address ends before any `#`.
 * @param loc - defaults to `window.location`.
 * @param hist - defaults to `window.history`.
 */
export function replaceHash(
  hash: string,
  loc: Pick<Location, 'href'> = location,
  hist: Pick<History, 'replaceState' | 'state'> = history,
): void {
  const i = loc.href.indexOf('#');
  const base = i >= 0 ? loc.href.slice(0, i) : loc.href;
  hist.replaceState(hist.state, '', hash ? `${base}#${hash}` : base);
}
