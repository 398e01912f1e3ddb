/**
 * The fault atlas's choice in the page's URL: the `a=` hash parameter beside the share link's
 * `s=` (the codec is src/views/atlas/atlasLink.ts). Written with the share link, read when a
 * link is opened, as Compare's `c=` (./compareUrl.ts).
 */
import { withAtlasParam } from '../views/atlas/atlasLink';
import type { AtlasChoice } from '../views/atlas/atlasChoice';
import { replaceHash } from './replaceHash';

/** Put the atlas choice in the URL hash (a default one: take it out), no history entry. */
export function writeAtlasToLocation(
  choice: AtlasChoice,
  loc: Pick<Location, 'hash' | 'href'> = location,
  hist: Pick<History, 'replaceState' | 'state'> = history,
): void {
  replaceHash(withAtlasParam(loc.hash, choice), loc, hist);
}
