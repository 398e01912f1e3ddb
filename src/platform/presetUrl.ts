/**
 * The open preset in the page's URL: `?preset=<preset-id>/<variant-id>` (ids as `presetIds()`
 * lists them, the contract shared with the CLI and the tests). A bare `?preset=<preset-id>` opens
 * its default variant and is rewritten to the full form.
 *
 * What the page opens with — the precedence, highest first (src/ui/io/startup.ts applies it,
 * reading `?preset=` with {@link presetParamOf} and {@link resolvePresetParam}):
 * 1. a share link, `#s=…` (src/platform/share.ts): it carries the exact scenario, every click's
 *    fault included, so it always wins;
 * 2. `?preset=…`: a preset as shipped (a teacher's link, a bookmark);
 * 3. the saved workspace (src/platform/storage.ts);
 * 4. the default preset.
 * An unknown `?preset=` opens nothing: the page says why ({@link PresetParam}'s message) and
 * keeps what it would otherwise have shown (3, then 4).
 *
 * While the page runs, the URL follows the workspace: `?preset=` is there exactly while the
 * workspace is a preset variant unchanged (see `isPristinePreset`), so a reload or a copied
 * address shows what was on screen; after an edit it goes, and the saved workspace (or a share
 * link) carries the edit. Written with `history.replaceState`, into the entry the workspace is
 * in: each preset chosen has an entry of its own (src/ui/io/historySync.ts pushes it first), so
 * Back returns to the preset before, and its address says `?preset=` again.
 */
import { findPresetMeta, loadPreset, presetCatalog } from '../scenarios/presetCatalog';
import { clipEcho } from '../views/run/format';

/** The query parameter naming the open preset. */
export const PRESET_PARAM = 'preset';

/** A `?preset=` value, resolved. */
export type PresetParam =
  { kind: 'preset'; ref: string } | { kind: 'unknown'; value: string; message: string };

/** A parameter value shown back in a notice, clipped as every echo is (a hostile URL may be huge). */
const shown = clipEcho;

/**
 * A `?preset=` value as a ref is written: surrounding space dropped, lower case, and a trailing
 * slash (`?preset=id/`, the bare id) dropped.
 */
export function presetValueRef(value: string): string {
  return value.trim().toLowerCase().replace(/\/$/, '');
}

/**
 * {@link resolvePresetParam} once the preset it names is loaded, its part of the catalog with it
 * (src/scenarios/presetCatalog.ts: an embed loads only its preset's family's part).
 */
export async function loadPresetParam(value: string): Promise<PresetParam> {
  await loadPreset(presetValueRef(value)).catch(() => undefined);
  return resolvePresetParam(value);
}

/**
 * Resolve a `?preset=` value to `preset-id/variant-id`. Surrounding space is ignored and ids are
 * matched without regard to case (every id is lower case), so a hand-typed link still opens.
 */
export function resolvePresetParam(value: string): PresetParam {
  const v = presetValueRef(value);
  const found = findPresetMeta(v);
  if (found && v.split('/').length <= 2)
    return { kind: 'preset', ref: `${found.meta.id}/${found.variantId}` };
  const [pid, vid] = v.split('/', 2);
  const preset = presetCatalog().find((p) => p.id === pid);
  const message =
    preset && vid !== undefined
      ? `The preset “${preset.id}” has no variant “${shown(vid)}” (its variants: ${preset.variants
          .map((x) => x.id)
          .join(', ')}).`
      : `No preset “${shown(value.trim())}” in the library.`;
  return { kind: 'unknown', value, message };
}

/** The raw `?preset=` value of a query string (`location.search`), or null when absent or empty. */
export function presetParamOf(search: string): string | null {
  const value = new URLSearchParams(search).get(PRESET_PARAM);
  return value === null || value.trim() === '' ? null : value;
}

/** Whether a raw `key=value` pair of a query is the preset parameter. */
function isPresetPair(pair: string): boolean {
  const key = pair.split('=', 1)[0]!;
  try {
    return decodeURIComponent(key.replace(/\+/g, ' ')) === PRESET_PARAM;
  } catch {
    return false;
  }
}

/**
 * `href` with `?preset=<ref>` (or without the parameter, for null). Other query parameters and
 * the hash are kept. The slash stays a slash (legal in a query, RFC 3986 §3.4), so the address
 * reads as the contract does: `?preset=payment-resent-by-app/plain-insert`.
 */
export function urlWithPreset(href: string, ref: string | null): string {
  const hashAt = href.indexOf('#');
  const hash = hashAt >= 0 ? href.slice(hashAt) : '';
  const beforeHash = hashAt >= 0 ? href.slice(0, hashAt) : href;
  const queryAt = beforeHash.indexOf('?');
  const path = queryAt >= 0 ? beforeHash.slice(0, queryAt) : beforeHash;
  // The other parameters are kept as written (`?embed` stays `?embed`, not `embed=`).
  const rest = (queryAt >= 0 ? beforeHash.slice(queryAt + 1) : '')
    .split('&')
    .filter((pair) => pair !== '' && !isPresetPair(pair));
  const own =
    ref === null ? [] : [`${PRESET_PARAM}=${encodeURIComponent(ref).replace(/%2F/gi, '/')}`];
  const query = [...own, ...rest].join('&');
  return `${path}${query ? `?${query}` : ''}${hash}`;
}

/**
 * Put the open preset in the page's URL (or take it out, for null) without a navigation or a
 * history entry of its own (the entry's state is kept). Does nothing when the URL already says so.
 */
export function writePresetToLocation(
  ref: string | null,
  loc: Pick<Location, 'href'> = location,
  hist: Pick<History, 'replaceState' | 'state'> = history,
): void {
  const next = urlWithPreset(loc.href, ref);
  if (next !== loc.href) hist.replaceState(hist.state, '', next);
}
