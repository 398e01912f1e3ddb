/**
 * The fault atlas's choice in a share link: the hash parameter `a` beside the scenario's `s`
 * (`#s=2.…&a=1.…`), `a=1.<base64url(UTF-8 JSON of the AtlasChoice)>` (RFC 4648 §5, no padding),
 * as Compare's `c` (src/views/compare/compareLink.ts). Its kinds are checked against the atlas of
 * the link's scenario (a stream's kinds, or a batch job's). Never throws: a bad `a` is reported
 * naming its field, and the page refuses the link as it refuses a damaged scenario.
 */
import { ATLAS_PARAM, fromBase64Url, toBase64Url } from '../io/shareParam';
import { ATLAS_KINDS, BATCH_ATLAS_KINDS } from './atlasKinds';
import { isDefaultChoice, parseAtlasChoice, type AtlasChoice } from './atlasChoice';

/** The format version this build writes. */
const ATLAS_VERSION = 1;
/** Longest `a` value read (characters): a dozen kinds and two flags are a few hundred. */
const MAX_PARAM_CHARS = 2_000;

/** What a hash's `a` says: nothing, a choice, or why it cannot be read (naming the field). */
export type AtlasInLink = null | { ok: true; choice: AtlasChoice } | { ok: false; reason: string };

/** The value of `a` (without `a=`) for a choice. Deterministic. */
function encodeAtlas(choice: AtlasChoice): string {
  const json = JSON.stringify(choice);
  return `${ATLAS_VERSION}.${toBase64Url(new TextEncoder().encode(json))}`;
}

/**
 * The atlas choice a URL hash carries.
 * @param hash - `location.hash` (with or without the leading `#`).
 * @param batch - the link's scenario is a batch job (its atlas has the batch kinds).
 */
export function decodeAtlas(hash: string, batch: boolean): AtlasInLink {
  const value = new URLSearchParams(hash.startsWith('#') ? hash.slice(1) : hash).get(ATLAS_PARAM);
  if (value === null) return null;
  const fail = (why: string) => ({
    ok: false as const,
    reason: `share link, fault atlas (${ATLAS_PARAM}=): ${why}`,
  });
  if (value.length > MAX_PARAM_CHARS) return fail(`too long (${value.length} characters)`);
  const m = /^(\d+)\.([A-Za-z0-9_-]*)$/.exec(value);
  if (!m) return fail('expected <version>.<data>');
  if (Number(m[1]) !== ATLAS_VERSION) return fail(`unknown version ${m[1]}`);
  let data: unknown;
  try {
    data = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(fromBase64Url(m[2]!)));
  } catch {
    return fail('the data is damaged (was the link cut short?)');
  }
  const r = parseAtlasChoice(data, batch ? BATCH_ATLAS_KINDS : ATLAS_KINDS);
  return r.ok ? r : fail(r.reason);
}

/**
 * `hash` with `a` set to `choice`, or taken out (null, or a choice that says nothing); other
 * parameters kept. No leading `#`.
 */
export function withAtlasParam(hash: string, choice: AtlasChoice | null): string {
  const params = new URLSearchParams(hash.startsWith('#') ? hash.slice(1) : hash);
  if (choice && !isDefaultChoice(choice)) params.set(ATLAS_PARAM, encodeAtlas(choice));
  else params.delete(ATLAS_PARAM);
  return params.toString();
}
