/**
 * Compare in a share link: the hash parameter `c` beside the scenario's `s` (`#s=2.…&c=1.…`),
 * `c=1.<base64url(UTF-8 JSON of the CompareSpec)>`, written and read as the fault atlas's `a`
 * (src/views/atlas/atlasLink.ts) by one codec (src/views/io/versionedParam.ts). The same value
 * goes in a history entry and the saved workspace (src/views/io/keptPageState.ts). The lanes are
 * rebuilt from the scenario and this spec, so the link replays the same lanes, trace for trace.
 * Never throws: a damaged `c` is reported naming where it came from, and the scenario still opens.
 */
import { COMPARE_PARAM } from '../io/shareParam';
import {
  decodeParamValue,
  encodeParamValue,
  paramValueOf,
  withParamValue,
  type ValueSource,
  type VersionedParam,
} from '../io/versionedParam';
import { parseCompareSpec, type CompareSpec } from './compareSpec';

/** `c=`: format 1; three lanes of knobs and faults stay well under the cap. */
const COMPARE: VersionedParam = {
  name: COMPARE_PARAM,
  what: 'compare',
  version: 1,
  maxChars: 20_000,
};

/** What a hash's `c` says: nothing, a spec, or why it cannot be read. */
export type CompareInLink = null | { ok: true; spec: CompareSpec } | { ok: false; reason: string };

/** The value of `c` (without `c=`) for a spec. Deterministic. */
export function encodeCompare(spec: CompareSpec): string {
  return encodeParamValue(COMPARE, spec);
}

/**
 * A stored `c` value read back.
 * @param source - where it was stored, the refusal's first words.
 */
export function decodeCompareValue(
  value: unknown,
  source: ValueSource,
): Exclude<CompareInLink, null> {
  const r = decodeParamValue(COMPARE, value, source, (data) => {
    const s = parseCompareSpec(data);
    return s.ok ? { ok: true, value: s.spec } : s;
  });
  return r.ok ? { ok: true, spec: r.value } : r;
}

/**
 * The compare state a URL hash carries.
 * @param hash - `location.hash` (with or without the leading `#`).
 */
export function decodeCompare(hash: string, source: ValueSource = 'share link'): CompareInLink {
  const value = paramValueOf(COMPARE, hash);
  return value === null ? null : decodeCompareValue(value, source);
}

/** `hash` with `c` set to `spec`, or taken out (null); other parameters kept. No leading `#`. */
export function withCompareParam(hash: string, spec: CompareSpec | null): string {
  return withParamValue(COMPARE, hash, spec ? encodeCompare(spec) : null);
}
