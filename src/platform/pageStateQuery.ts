/**
 * The page state's `a=` and `c=` in the lab page's query (`?preset=…&a=…&c=…`: a typed or
 * bookmarked address, applied at start-up and by Back to a history entry without stored state,
 * src/ui/io/queryPageState.ts). Once applied they are the page's state, which the history entry
 * and the autosaved workspace keep; the address keeps them only until that state changes — left
 * there, a reload (or the next preset's address, which keeps the query's other parameters,
 * ./presetUrl.ts) would apply them again over the reader's own choice.
 */
import { ATLAS_PARAM, COMPARE_PARAM } from '../views/io/shareParam';

/** Whether a raw `key=value` pair of a query is `a` or `c`. */
function isPageStatePair(pair: string): boolean {
  const key = pair.split('=', 1)[0]!;
  try {
    const k = decodeURIComponent(key.replace(/\+/g, ' '));
    return k === ATLAS_PARAM || k === COMPARE_PARAM;
  } catch {
    return false;
  }
}

/** `href` without `a=` and `c=` in its query; its other parameters (as written) and hash kept. */
export function urlWithoutPageStateQuery(href: string): string {
  const hashAt = href.indexOf('#');
  const hash = hashAt >= 0 ? href.slice(hashAt) : '';
  const beforeHash = hashAt >= 0 ? href.slice(0, hashAt) : href;
  const queryAt = beforeHash.indexOf('?');
  if (queryAt < 0) return href;
  const rest = beforeHash
    .slice(queryAt + 1)
    .split('&')
    .filter((pair) => pair !== '' && !isPageStatePair(pair));
  return `${beforeHash.slice(0, queryAt)}${rest.length ? `?${rest.join('&')}` : ''}${hash}`;
}

/**
 * Take `a=` and `c=` out of the page's query, in place: no navigation, no history entry, the
 * entry's state kept. Does nothing when the query has neither.
 */
export function clearPageStateFromQuery(
  loc: Pick<Location, 'href'> = location,
  hist: Pick<History, 'replaceState' | 'state'> = history,
): void {
  const next = urlWithoutPageStateQuery(loc.href);
  if (next !== loc.href) hist.replaceState(hist.state, '', next);
}
