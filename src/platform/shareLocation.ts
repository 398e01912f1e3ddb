/**
 * The share link's part of the page's URL that needs no decoder: taking it out of the address.
 * Apart from ./share.ts (which re-exports it) so that the embed, which never writes a link into
 * its address, loads neither DEFLATE (fflate) nor the prediction's reader to clear its own
 * (issue 31; a link's prediction is read with the link, src/ui/io/firstShare.ts).
 */
import { ATLAS_PARAM, COMPARE_PARAM, PREDICT_PARAM, SHARE_PARAM } from '../views/io/shareParam';
import { replaceHash } from './replaceHash';

/**
 * Take the scenario out of the page's URL hash (other hash parameters are kept), without a
 * navigation or a history entry: once the scenario on screen differs from the link's, the address
 * bar must not claim it (a reload then restores the autosaved workspace, which holds the edit).
 */
export function clearShareFromLocation(
  loc: Pick<Location, 'hash' | 'href'> = location,
  hist: Pick<History, 'replaceState' | 'state'> = history,
): void {
  const params = new URLSearchParams(loc.hash.startsWith('#') ? loc.hash.slice(1) : loc.hash);
  if (!params.has(SHARE_PARAM)) return;
  params.delete(SHARE_PARAM);
  // The link's question goes with its scenario: it was asked of that run.
  params.delete(PREDICT_PARAM);
  // So do the lanes compared with it (src/views/compare/compareLink.ts).
  params.delete(COMPARE_PARAM);
  // And the atlas's kinds ticked on it (src/views/atlas/atlasLink.ts).
  params.delete(ATLAS_PARAM);
  replaceHash(params.toString(), loc, hist);
}
