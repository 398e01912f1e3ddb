/**
 * The share link's codec: the format, its versions, encoding, and decoding to the value a link
 * carries (see ./shareLink.ts for the scheme). Without the scenario's validation (zod), which
 * ./shareLink.ts `decodeShare` adds: the lab's first load writes links (the share link in the
 * address) but reads one only when the address or a paste carries it (issue 24).
 */
import { sha256 } from '@noble/hashes/sha2.js';
import { deflateSync, inflateSync, strFromU8, strToU8 } from 'fflate';
import type { Issue, Scenario, ScenarioInput } from '../../engine';
import { clipEcho, MAX_JSON_CHARS } from '../../engine';
import { fromBase64Url, SHARE_PARAM, shareParam, toBase64Url } from './shareParam';
import { formatCountOf } from '../run/format';

// Re-exported: the parts of a share link that need no codec (./shareParam.ts).
export { fromBase64Url, SHARE_PARAM, shareIssueLines, shareParam, toBase64Url } from './shareParam';

/** The share format this build writes. */
export const SHARE_VERSION = 2;
/** Bytes of the JSON's SHA-256 that a version 2 link carries after its DEFLATE stream. */
const CHECK_BYTES = 4;
/** Longest payload accepted (characters of base64url): about 1.5 MB of compressed scenario. */
const MAX_SHARE_CHARS = 2_000_000;
/** Largest decompressed scenario accepted (bytes of UTF-8): the engine's JSON limit. */
const MAX_SHARE_BYTES = MAX_JSON_CHARS;

/**
 * How to read one share format version: the payload text after `<version>.` → that version's
 * value. Throws on a malformed payload (the caller turns it into an issue).
 */
type ShareDecoder = (payload: string) => unknown;
/** Migrates a decoded value of version n to version n + 1. Throws when it cannot. */
type ShareMigration = (value: unknown) => unknown;

/** The version table: decoders by version, migrations by the version they start from. */
export interface ShareCodec {
  current: number;
  decoders: Readonly<Record<number, ShareDecoder>>;
  migrations: Readonly<Record<number, ShareMigration>>;
}

// ─────────────────────────────────────────────────────────────────────────── version 1

/** Version 1: base64url(deflate(UTF-8 JSON)). Refuses output beyond {@link MAX_SHARE_BYTES}. */
function decodeV1(payload: string): unknown {
  return parseJson(inflateJson(payloadBytes(payload)));
}

/**
 * A character of a damaged payload as a notice shows it: itself, or its code point if unseen. A
 * `+` reads as a space in a hash parameter (URLSearchParams decodes it so).
 */
const shownChar = (c: string) =>
  c === ' '
    ? 'a space'
    : /^[\x21-\x7e]$/.test(c)
      ? `“${c}”`
      : `U+${c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;

/**
 * The bytes of a payload (base64url, RFC 4648 §5). Throws a ShareError naming what cannot be
 * decoded: a character outside the alphabet, or a length no base64url text has (4k + 1
 * characters).
 */
function payloadBytes(payload: string): Uint8Array {
  const bad = /[^A-Za-z0-9_-]/.exec(payload);
  if (bad)
    throw new ShareError(
      `the data is damaged: it contains ${shownChar(String.fromCodePoint(payload.codePointAt(bad.index)!))} at character ${bad.index + 1}, which no share link is written with (only A–Z, a–z, 0–9, - and _)`,
    );
  if (payload.length % 4 === 1)
    throw new ShareError(
      `the data is damaged: it cannot be decoded, ${formatCountOf(payload.length, 'character')} is not a length base64url text has (was the link cut short?)`,
    );
  return fromBase64Url(payload);
}

/** The JSON text of a payload. Throws a ShareError when it is not JSON. */
function parseJson(bytes: Uint8Array): unknown {
  try {
    return JSON.parse(strFromU8(bytes)) as unknown;
  } catch {
    throw new ShareError('the data is damaged: it unpacks, but not to JSON (a character changed?)');
  }
}

/** Inflate a DEFLATE stream of at most {@link MAX_SHARE_BYTES}. Throws a ShareError otherwise. */
function inflateJson(compressed: Uint8Array): Uint8Array {
  // No bytes is no DEFLATE stream (fflate would hand back its whole output buffer for it).
  if (compressed.length === 0)
    throw new ShareError('empty, it carries no scenario (was it cut short?)');
  // fflate fills a fixed buffer and silently stops at its end: one spare byte tells a payload
  // that fits from one that would inflate further (a "zip bomb" stops here, unallocated).
  let out: Uint8Array;
  try {
    out = inflateSync(compressed, { out: new Uint8Array(MAX_SHARE_BYTES + 1) });
  } catch (e) {
    // fflate's error codes (its `ec` table): 0 is "unexpected EOF", the stream stops early.
    throw new ShareError(
      (e as { code?: unknown }).code === 0
        ? 'the data is damaged: its compressed scenario stops before its end (was the link cut short?)'
        : `the data is damaged: its compressed scenario does not unpack (DEFLATE: ${(e as Error).message}; a character changed?)`,
    );
  }
  if (out.length > MAX_SHARE_BYTES)
    throw new ShareError(`the scenario is larger than ${MAX_SHARE_BYTES} bytes`);
  return out;
}

// ─────────────────────────────────────────────────────────────────────────── version 2

/** The first {@link CHECK_BYTES} bytes of the SHA-256 of `bytes`. */
const checkOf = (bytes: Uint8Array) => sha256(bytes).subarray(0, CHECK_BYTES);

/** Version 2: version 1 followed by the JSON's checksum, which must match. */
function decodeV2(payload: string): unknown {
  const bytes = payloadBytes(payload);
  // `2.AAAA` is not empty: its 3 bytes are too few to hold anything beside the checksum.
  if (bytes.length <= CHECK_BYTES)
    throw new ShareError(
      `the data is damaged: it decodes to ${formatCountOf(bytes.length, 'byte')}, too few for a scenario and its ${CHECK_BYTES}-byte checksum (was the link cut short?)`,
    );
  const json = inflateJson(bytes.subarray(0, bytes.length - CHECK_BYTES));
  const want = bytes.subarray(bytes.length - CHECK_BYTES);
  if (!checkOf(json).every((b, i) => b === want[i]))
    throw new ShareError(
      'the link is damaged: its checksum does not match its content (a character changed?)',
    );
  return parseJson(json);
}

/**
 * The codec of this build. Versions 1 and 2 carry the same value (the scenario as written), so
 * the migration from 1 is the identity.
 */
export const SHARE_CODEC: ShareCodec = {
  current: SHARE_VERSION,
  decoders: { 1: decodeV1, 2: decodeV2 },
  migrations: { 1: (value) => value },
};

class ShareError extends Error {}

// ─────────────────────────────────────────────────────────────────────────── encode / decode

/**
 * The hash parameter for a scenario: `s=2.<base64url(deflate(json) ‖ checksum)>` (no leading `#`).
 * Pass the scenario as written (`ScenarioInput`): defaults stay out and the link stays short.
 * Deterministic: the same object (same key order) gives the same string.
 */
export function encodeShare(scenario: ScenarioInput | Scenario): string {
  return `${SHARE_PARAM}=${encodeShareValue(scenario)}`;
}

/**
 * The value of a share link's parameter for any JSON value: `<version>.<payload>` (version 2:
 * base64url of the DEFLATEd JSON and its checksum), as {@link encodeShare} puts it after `s=`.
 * ./hashPayload.ts carries lessons and challenges with it.
 */
export function encodeShareValue(value: unknown): string {
  const json = strToU8(JSON.stringify(value));
  const packed = deflateSync(json, { level: 9, mem: 8 });
  const out = new Uint8Array(packed.length + CHECK_BYTES);
  out.set(packed);
  out.set(checkOf(json), packed.length);
  return `${SHARE_VERSION}.${toBase64Url(out)}`;
}

/**
 * A full share URL: `base` without its hash, then `#` and {@link encodeShare}.
 * @param base - the page's URL (any base path; a static host is fine).
 */
export function shareUrl(base: string, scenario: ScenarioInput | Scenario): string {
  const i = base.indexOf('#');
  return `${i >= 0 ? base.slice(0, i) : base}#${encodeShare(scenario)}`;
}

/** What {@link decodeShareValue} reads of a link: its value (not validated yet), or why not. */
export type ShareValue =
  { ok: true; value: unknown; version: number } | { ok: false; issues: Issue[] };

/**
 * A share parameter (`1.<payload>`) or a whole hash (`#s=1.<payload>&…`) read to the value it
 * carries, migrated to the current share version, not validated as a scenario (./shareLink.ts
 * `decodeShare` does that). Never throws; the link's problems at path `''`, named `share link: …`.
 * @param codec - the version table (tests pass one with a synthetic old version).
 */
export function decodeShareValue(value: string, codec: ShareCodec = SHARE_CODEC): ShareValue {
  const fail = (message: string): ShareValue => ({
    ok: false,
    issues: [{ path: '', message: `share link: ${message}` }],
  });
  try {
    let param = value;
    if (value.startsWith('#') || value.includes('=')) {
      const p = shareParam(value);
      if (p === null) return fail(`no "${SHARE_PARAM}=" parameter in the link`);
      param = p;
    }
    // `#s=` or `#s=1.` (a link cut right after its prefix, an empty paste): nothing to decode —
    // say so, rather than what a decoder makes of zero bytes.
    if (/^(\d{0,6}\.?)$/.test(param.trim()))
      return fail('empty, it carries no scenario (was it cut short?)');
    if (param.length > MAX_SHARE_CHARS)
      return fail(`too long (${param.length} characters, limit ${MAX_SHARE_CHARS})`);
    const m = /^(\d{1,6})\.(.*)$/s.exec(param);
    if (!m) return fail('expected <version>.<data>');
    const version = Number(m[1]);
    if (version > codec.current)
      return fail(
        `version ${version} is newer than this Delivery Lab (${codec.current}); update the app`,
      );
    const decoder = codec.decoders[version];
    if (!decoder) return fail(`unknown version ${version}`);
    let data: unknown;
    try {
      data = decoder(m[2]!);
    } catch (e) {
      return fail(
        e instanceof ShareError ? e.message : 'the data is damaged (was the link cut short?)',
      );
    }
    for (let v = version; v < codec.current; v++) {
      const step = codec.migrations[v];
      if (!step) return fail(`no migration from version ${v}`);
      try {
        data = step(data);
      } catch (e) {
        return fail(clipEcho(`cannot migrate from version ${v}: ${(e as Error).message}`));
      }
    }
    return { ok: true, value: data, version };
  } catch (e) {
    // Nothing above should throw; if something does, the page must still stand.
    return fail(`could not be read (${clipEcho(String(e))})`);
  }
}
