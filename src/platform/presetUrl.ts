/**
 * The open preset in the page's URL: `?preset=<preset-id>/<variant-id>` (ids as `presetIds()`
 * lists them, the contract shared with the CLI and the tests). A bare `?preset=<preset-id>` opens
 * its default variant and is rewritten to the full form.
 *
 * What the page opens with — the precedence, highest first:
 * 1. a share link, `#s=…` (src/platform/share.ts): it carries the exact scenario, every click's
 *    fault included, so it always wins;
 * 2. `?preset=…`: a preset as shipped (a teacher's link, a bookmark);
 * 3. the saved workspace (src/platform/storage.ts);
 * 4. the default preset.
 * An unknown `?preset=` opens nothing: the page says so and keeps what it would otherwise have
 * shown (3, then 4).
 *
 * While the page runs, the URL follows the workspace: `?preset=` is there exactly while the
 * workspace is a preset variant unchanged (see `isPristinePreset`), so a reload or a copied
 * address shows what was on screen; after an edit it goes, and the saved workspace (or a share
 * link) carries the edit. Written with `history.replaceState`: opening presets adds no history
 * entries — undo (Ctrl+Z) is how to go back.
 */
import { findPreset, presets } from '../scenarios';
import { SHARE_PARAM } from './share';

/** The query parameter naming the open preset. */
export const PRESET_PARAM = 'preset';

/** Longest parameter value shown back in a notice (a hostile URL may be huge). */
const SHOWN_MAX = 80;

/** A `?preset=` value, resolved. */
export type PresetParam =
  { kind: 'preset'; ref: string } | { kind: 'unknown'; value: string; message: string };

/** What the page opens with (see the module comment for the precedence). */
export type StartupSource =
  | { from: 'share' }
  | { from: 'preset'; ref: string }
  | { from: 'unknown-preset'; value: string; message: string }
  | { from: 'workspace' };

function shown(value: string): string {
  return value.length > SHOWN_MAX ? `${value.slice(0, SHOWN_MAX)}…` : value;
}

/**
 * Resolve a `?preset=` value to `preset-id/variant-id`. Surrounding space is ignored and ids are
 * matched without regard to case (every id is lower case), so a hand-typed link still opens.
 */
export function resolvePresetParam(value: string): PresetParam {
  // A trailing slash (`?preset=id/`) is the bare id.
  const v = value.trim().toLowerCase().replace(/\/$/, '');
  const found = findPreset(v);
  if (found && v.split('/').length <= 2)
    return { kind: 'preset', ref: `${found.preset.id}/${found.variant.id}` };
  const [pid, vid] = v.split('/', 2);
  const preset = presets.find((p) => p.id === pid);
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

/**
 * What a URL asks the page to open, by the precedence above. `workspace` means the URL asks for
 * nothing: the saved workspace (or the default) stays.
 */
export function startupFrom(loc: Pick<Location, 'search' | 'hash'>): StartupSource {
  const hash = loc.hash.startsWith('#') ? loc.hash.slice(1) : loc.hash;
  if (new URLSearchParams(hash).get(SHARE_PARAM) !== null) return { from: 'share' };
  const value = presetParamOf(loc.search);
  if (value === null) return { from: 'workspace' };
  const r = resolvePresetParam(value);
  return r.kind === 'preset'
    ? { from: 'preset', ref: r.ref }
    : { from: 'unknown-preset', value: r.value, message: r.message };
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
 * What the page's URL asks to open (see {@link startupFrom}).
 * @param loc - defaults to `window.location`.
 */
export function startupFromLocation(
  loc: Pick<Location, 'search' | 'hash'> = location,
): StartupSource {
  return startupFrom(loc);
}

/**
 * Put the open preset in the page's URL (or take it out, for null) without a navigation or a
 * history entry. Does nothing when the URL already says so.
 */
export function writePresetToLocation(
  ref: string | null,
  loc: Pick<Location, 'href'> = location,
  hist: Pick<History, 'replaceState' | 'state'> = history,
): void {
  const next = urlWithPreset(loc.href, ref);
  if (next !== loc.href) hist.replaceState(hist.state, '', next);
}
