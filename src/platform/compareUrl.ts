/**
 * Compare in the page's URL: the `c=` hash parameter beside the share link's `s=` (the codec is
 * src/views/compare/compareLink.ts). Written with the share link, read when a link is opened.
 */
import { decodeCompare, withCompareParam, type CompareInLink } from '../views/compare/compareLink';
import type { CompareSpec } from '../views/compare/compareSpec';
import { replaceHash } from './replaceHash';

/** The compare state the page's URL hash carries (null: none). */
export function compareFromLocation(loc: Pick<Location, 'hash'> = location): CompareInLink {
  return decodeCompare(loc.hash);
}

/** Put the compare state in the URL hash (null: take it out), no navigation, no history entry. */
export function writeCompareToLocation(
  spec: CompareSpec | null,
  loc: Pick<Location, 'hash' | 'href'> = location,
  hist: Pick<History, 'replaceState' | 'state'> = history,
): void {
  replaceHash(withCompareParam(loc.hash, spec), loc, hist);
}
