/**
 * A whole JSON value carried by one parameter of a URL hash with the share link's codec
 * (./shareCodec.ts: deflate, a checksum, base64url, versioned): a lesson (`l=`) or a challenge
 * (`ch=`) opened from a file travels in the page's address this way. Decoding never throws.
 */
import { encodeShareValue, SHARE_CODEC } from './shareLink';

/**
 * `<version>.<payload>`: the value a hash parameter carries for `value`, as the share link's `s=`
 * carries a scenario (its characters are base64url's and a dot: none needs escaping in a hash).
 */
export function hashPayloadValue(value: unknown): string {
  return encodeShareValue(value);
}

/** `param=<version>.<payload>` (no leading `#`): `value` as the share link encodes a scenario. */
export function encodeHashPayload(param: string, value: unknown): string {
  return `${param}=${hashPayloadValue(value)}`;
}

/**
 * The value hash parameter `param` carries: null when the hash has none; else the decoded JSON,
 * or why it could not be read (`what`: "a lesson link", for the words).
 * @param hash - `location.hash`, with or without its `#`.
 */
export function decodeHashPayload(
  hash: string,
  param: string,
  what: string,
): null | { ok: true; value: unknown } | { ok: false; message: string } {
  const value = new URLSearchParams(hash.replace(/^#/, '')).get(param);
  if (value === null) return null;
  const dot = value.indexOf('.');
  const decode = dot > 0 ? SHARE_CODEC.decoders[Number(value.slice(0, dot))] : undefined;
  if (!decode)
    return { ok: false, message: `not ${what} this Delivery Lab can read (unknown version)` };
  try {
    return { ok: true, value: decode(value.slice(dot + 1)) };
  } catch (e) {
    return { ok: false, message: (e as Error).message };
  }
}
