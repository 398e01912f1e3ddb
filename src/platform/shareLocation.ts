/**
 * The share link's parts of the page's URL that need no codec: the prediction beside it, and
 * taking it out of the address. Apart from ./share.ts (which re-exports them) so that the embed,
 * which never writes a link into its address, does not load DEFLATE (fflate) to read its own
 * (issue 31).
 */
import { ATLAS_PARAM, COMPARE_PARAM, SHARE_PARAM } from '../views/io/shareParam';
import {
  decodeSharePrediction,
  PREDICT_PARAM,
  sharePredictionUnreadable,
  type SharePrediction,
} from '../views/io/sharePrediction';
import { replaceHash } from './replaceHash';

/**
 * The prediction question the page's URL hash carries beside its scenario (src/views/
 * sharePrediction.ts), or null when none.
 * @param loc - defaults to `window.location`.
 */
export function sharePredictionFromLocation(
  loc: Pick<Location, 'hash'> = location,
): SharePrediction | null {
  return decodeSharePrediction(loc.hash);
}

/**
 * Whether the page's URL hash carries a prediction (`p=`) that could not be read (src/views/
 * sharePrediction.ts `sharePredictionUnreadable`): the page says so.
 * @param loc - defaults to `window.location`.
 */
export function sharePredictionUnreadableInLocation(
  loc: Pick<Location, 'hash'> = location,
): boolean {
  return sharePredictionUnreadable(loc.hash);
}

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
