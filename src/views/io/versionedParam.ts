/**
 * A part of the page's state written as one versioned value beside the share link's `s=`:
 * `<version>.<base64url(UTF-8 JSON)>` (RFC 4648 §5, no padding) — the fault atlas's choice (`a=`,
 * src/views/atlas/atlasLink.ts) and Compare's lanes (`c=`, src/views/compare/compareLink.ts).
 * The same value travels in a share link, a history entry and the saved workspace (one codec), so
 * a refusal says where the value came from ({@link ValueSource}) and names its field.
 */
import { fromBase64Url, toBase64Url } from './shareParam';

/** Where a value was read: the first words of its refusal. */
export type ValueSource = 'share link' | 'link' | 'saved workspace' | 'browser history';

/** One such value: its hash parameter, what it is in words, its format version and size cap. */
export interface VersionedParam {
  /** The hash (or query) parameter, `a` or `c`. */
  name: string;
  /** What it holds, as a refusal names it: `fault atlas`, `compare`. */
  what: string;
  /** The format version this build writes (and the only one it reads). */
  version: number;
  /** Longest value read (characters). */
  maxChars: number;
}

/** A value read: the data its parser made of it, or why not (naming its field). */
export type ParamRead<T> = { ok: true; value: T } | { ok: false; reason: string };

/** The value (without `name=`) for some JSON data. Deterministic. */
export function encodeParamValue(param: VersionedParam, data: unknown): string {
  return `${param.version}.${toBase64Url(new TextEncoder().encode(JSON.stringify(data)))}`;
}

/**
 * A stored value decoded and checked by `parse`. Never throws. The reason starts with the source
 * and the parameter, e.g. `saved workspace, fault atlas (a=): kinds.1: expected …, got "meteor"`.
 * @param value - as stored; anything but a string is refused (a saved workspace is data from anywhere).
 */
export function decodeParamValue<T>(
  param: VersionedParam,
  value: unknown,
  source: ValueSource,
  parse: (data: unknown) => ParamRead<T>,
): ParamRead<T> {
  const fail = (why: string) => ({
    ok: false as const,
    reason: `${source}, ${param.what} (${param.name}=): ${why}`,
  });
  if (typeof value !== 'string') return fail('expected <version>.<data>');
  if (value.length > param.maxChars) return fail(`too long (${value.length} characters)`);
  const m = /^(\d+)\.([A-Za-z0-9_-]*)$/.exec(value);
  if (!m) return fail('expected <version>.<data>');
  if (Number(m[1]) !== param.version) return fail(`unknown version ${m[1]}`);
  let data: unknown;
  try {
    data = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(fromBase64Url(m[2]!)));
  } catch {
    return fail(
      `the data is damaged${source.endsWith('link') ? ' (was the link cut short?)' : ''}`,
    );
  }
  const r = parse(data);
  return r.ok ? r : fail(r.reason);
}

/** The parameters of a URL hash or query (with or without its leading `#` or `?`). */
function paramsOf(hashOrSearch: string): URLSearchParams {
  return new URLSearchParams(hashOrSearch.startsWith('#') ? hashOrSearch.slice(1) : hashOrSearch);
}

/** `param`'s value in a URL hash or query, or null when absent. */
export function paramValueOf(param: VersionedParam, hashOrSearch: string): string | null {
  return paramsOf(hashOrSearch).get(param.name);
}

/** `hash` with `param` set to `value`, or taken out (null); other parameters kept. No leading `#`. */
export function withParamValue(param: VersionedParam, hash: string, value: string | null): string {
  const params = paramsOf(hash);
  if (value !== null) params.set(param.name, value);
  else params.delete(param.name);
  return params.toString();
}
