/**
 * The fault atlas's choice in a share link: the hash parameter `a` beside the scenario's `s`
 * (`#s=2.…&a=1.…`), `a=1.<base64url(UTF-8 JSON of the AtlasChoice)>`, written and read as
 * Compare's `c` (src/views/compare/compareLink.ts) by one codec (src/views/io/versionedParam.ts).
 * The same value goes in a history entry and the saved workspace (src/views/io/keptPageState.ts).
 * Its kinds are checked against the atlas of its scenario (a stream's kinds, or a batch job's).
 * Never throws: a bad `a` is reported naming where it came from and its field.
 */
import { ATLAS_PARAM } from '../io/shareParam';
import {
  decodeParamValue,
  encodeParamValue,
  paramValueOf,
  withParamValue,
  type ValueSource,
  type VersionedParam,
} from '../io/versionedParam';
import { ATLAS_KINDS, BATCH_ATLAS_KINDS } from './atlasKinds';
import { isDefaultChoice, parseAtlasChoice, type AtlasChoice } from './atlasChoice';

/** `a=`: format 1; a dozen kinds and two flags are a few hundred characters. */
const ATLAS: VersionedParam = {
  name: ATLAS_PARAM,
  what: 'fault atlas',
  version: 1,
  maxChars: 2_000,
};

/** What a hash's `a` says: nothing, a choice, or why it cannot be read (naming the field). */
export type AtlasInLink = null | { ok: true; choice: AtlasChoice } | { ok: false; reason: string };

/** The value of `a` (without `a=`) for a choice; null for one that says nothing. Deterministic. */
export function encodeAtlas(choice: AtlasChoice): string | null {
  return isDefaultChoice(choice) ? null : encodeParamValue(ATLAS, choice);
}

/**
 * A stored `a` value read back.
 * @param batch - its scenario is a batch job (its atlas has the batch kinds).
 * @param source - where it was stored, the refusal's first words.
 */
export function decodeAtlasValue(
  value: unknown,
  batch: boolean,
  source: ValueSource,
): Exclude<AtlasInLink, null> {
  const r = decodeParamValue(ATLAS, value, source, (data) => {
    const c = parseAtlasChoice(data, batch ? BATCH_ATLAS_KINDS : ATLAS_KINDS);
    return c.ok ? { ok: true, value: c.choice } : c;
  });
  return r.ok ? { ok: true, choice: r.value } : r;
}

/**
 * The atlas choice a URL hash (or the lab page's query) carries.
 * @param hash - `location.hash` (with or without the leading `#`), or `location.search`.
 * @param batch - the link's scenario is a batch job (its atlas has the batch kinds).
 * @param source - `share link` (default), or `link` for the page's query.
 */
export function decodeAtlas(
  hash: string,
  batch: boolean,
  source: ValueSource = 'share link',
): AtlasInLink {
  const value = paramValueOf(ATLAS, hash);
  return value === null ? null : decodeAtlasValue(value, batch, source);
}

/**
 * `hash` with `a` set to `choice`, or taken out (null, or a choice that says nothing); other
 * parameters kept. No leading `#`.
 */
export function withAtlasParam(hash: string, choice: AtlasChoice | null): string {
  return withParamValue(ATLAS, hash, choice ? encodeAtlas(choice) : null);
}
