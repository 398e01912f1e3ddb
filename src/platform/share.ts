/**
 * Share links in the page's URL: read, write and watch the `#s=` parameter. The codec (format,
 * versions, encode/decode) is src/views/io/shareLink.ts, re-exported here; what the page's first
 * load runs reads src/views/io/shareCodec.ts alone, without the validation (issue 24).
 */
import type { Scenario, ScenarioInput } from '../engine';
import { encodeShareValue, shareParam, SHARE_PARAM } from '../views/io/shareCodec';
import type { ShareResult } from '../views/io/shareLink';

import {
  decodeSharePrediction,
  encodeSharePrediction,
  PREDICT_PARAM,
  sharePredictionUnreadable,
  type SharePrediction,
} from '../views/io/sharePrediction';
import { replaceHash } from './replaceHash';

export * from '../views/io/shareLink';
// Re-exported: what clears the address without the codec (./shareLocation.ts).
export * from './shareLocation';

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

// ─────────────────────────────────────────────────────────────────────────── the page's URL

/**
 * Put the scenario in the page's URL hash without a navigation or a history entry (other hash
 * parameters are kept). The link in the address bar is then the share link.
 * @param prediction - what the link asks its reader (`p=`); null or absent: nothing of its own
 *   (a `p` already there goes: it was another link's).
 */
export function writeShareToLocation(
  scenario: ScenarioInput | Scenario,
  loc: Pick<Location, 'hash' | 'href'> = location,
  hist: Pick<History, 'replaceState' | 'state'> = history,
  prediction: SharePrediction | null = null,
): void {
  const params = new URLSearchParams(loc.hash.startsWith('#') ? loc.hash.slice(1) : loc.hash);
  params.set(SHARE_PARAM, encodeShareValue(scenario));
  if (prediction) params.set(PREDICT_PARAM, encodeSharePrediction(prediction).split(/=(.*)/s)[1]!);
  else params.delete(PREDICT_PARAM);
  replaceHash(params.toString(), loc, hist);
}

/**
 * Call `onShare` with the decoded scenario (and the prediction question beside it, or null) each
 * time the hash changes to carry one, and the address before the change (`oldURL`: the address
 * of what was on screen, where a refused link's watcher puts the address bar back). The decoder
 * and its validation (zod) load with the first link pasted, not with the page (issue 24).
 */
export function watchShareInLocation(
  onShare: (r: ShareResult, prediction: SharePrediction | null, previous: string) => void,
): () => void {
  const listener = (e: HashChangeEvent) => {
    const hash = location.hash;
    if (shareParam(hash) === null) return;
    const prediction = decodeSharePrediction(hash);
    import('../views/io/shareLink').then(
      // `link.decodeShare`, not a destructured `decodeShare`: the name of this module's import
      // would read as the static one to scripts/shakenReach.ts, which does not track scopes.
      (link) => onShare(link.decodeShare(hash), prediction, e.oldURL),
      () =>
        onShare(
          {
            ok: false,
            issues: [
              { path: '', message: 'share link: could not be read (reload the page to retry)' },
            ],
          },
          null,
          e.oldURL,
        ),
    );
  };
  window.addEventListener('hashchange', listener);
  return () => window.removeEventListener('hashchange', listener);
}
