/**
 * Compare in a share link: the hash parameter `c` beside the scenario's `s` (`#s=2.…&c=1.…`),
 * `c=1.<base64url(UTF-8 JSON of the CompareSpec)>` (RFC 4648 §5, no padding). The lanes are
 * rebuilt from the link's scenario and this spec, so the link replays the same lanes, trace for
 * trace. Never throws: a damaged `c` is reported, and the scenario still opens.
 */
import { COMPARE_PARAM, fromBase64Url, toBase64Url } from '../io/shareParam';
import { parseCompareSpec, type CompareSpec } from './lanes';

/** The format version this build writes. */
const COMPARE_VERSION = 1;
/** Longest `c` value read (characters). */
const MAX_PARAM_CHARS = 20_000;

/** The value of `c` (without `c=`) for a spec. Deterministic. */
function encodeCompare(spec: CompareSpec): string {
  const json = JSON.stringify(spec);
  return `${COMPARE_VERSION}.${toBase64Url(new TextEncoder().encode(json))}`;
}

/** What a hash's `c` says: nothing, a spec, or why it cannot be read. */
export type CompareInLink = null | { ok: true; spec: CompareSpec } | { ok: false; reason: string };

/**
 * The compare state a URL hash carries.
 * @param hash - `location.hash` (with or without the leading `#`).
 */
export function decodeCompare(hash: string): CompareInLink {
  const value = new URLSearchParams(hash.startsWith('#') ? hash.slice(1) : hash).get(COMPARE_PARAM);
  if (value === null) return null;
  const fail = (why: string) => ({
    ok: false as const,
    reason: `share link, compare (c=): ${why}`,
  });
  if (value.length > MAX_PARAM_CHARS) return fail(`too long (${value.length} characters)`);
  const m = /^(\d+)\.([A-Za-z0-9_-]*)$/.exec(value);
  if (!m) return fail('expected <version>.<data>');
  if (Number(m[1]) !== COMPARE_VERSION) return fail(`unknown version ${m[1]}`);
  let data: unknown;
  try {
    data = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(fromBase64Url(m[2]!)));
  } catch {
    return fail('the data is damaged (was the link cut short?)');
  }
  const r = parseCompareSpec(data);
  return r.ok ? r : fail(r.reason);
}

/** `hash` with `c` set to `spec`, or taken out (null); other parameters kept. No leading `#`. */
export function withCompareParam(hash: string, spec: CompareSpec | null): string {
  const params = new URLSearchParams(hash.startsWith('#') ? hash.slice(1) : hash);
  if (spec) params.set(COMPARE_PARAM, encodeCompare(spec));
  else params.delete(COMPARE_PARAM);
  return params.toString();
}
