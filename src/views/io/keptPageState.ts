/**
 * The page's state beside its scenario — the fault atlas's choice and Compare's lanes — as a
 * history entry (src/platform/history.ts) and the saved workspace (src/platform/storage.ts) keep
 * it: the very values a share link carries in `a=` and `c=` (src/views/atlas/atlasLink.ts,
 * src/views/compare/compareLink.ts), so the three agree by construction — as does the page's
 * own query (`?preset=…&a=…&c=…`). Read back, a bad value is
 * refused naming where it came from and its field; the scenario still opens (the work is kept).
 */
import type { ScenarioInput } from '../../engine';
import { DEFAULT_ATLAS_CHOICE, type AtlasChoice } from '../atlas/atlasChoice';
import { decodeAtlasValue, encodeAtlas } from '../atlas/atlasLink';
import { decodeCompareValue, encodeCompare } from '../compare/compareLink';
import type { CompareSpec } from '../compare/compareSpec';
import { ATLAS_PARAM, COMPARE_PARAM } from './shareParam';
import type { ValueSource } from './versionedParam';

/** The values kept: absent when the page is in its default state (no atlas choice, no Compare). */
export interface KeptPageState {
  /** `a=`'s value: the atlas's kinds ticked, "Pairs too", explored. */
  atlas?: string;
  /** `c=`'s value: Compare's lanes. */
  compare?: string;
}

/** The values to keep for an atlas choice and a compare state. */
export function keptPageStateOf(atlas: AtlasChoice, compare: CompareSpec | null): KeptPageState {
  const a = encodeAtlas(atlas);
  return {
    ...(a !== null ? { atlas: a } : {}),
    ...(compare ? { compare: encodeCompare(compare) } : {}),
  };
}

/**
 * The values a page's own address carries in its query — `?preset=…&a=…&c=…`, typed, bookmarked,
 * or the address of a history entry that holds no state — as kept (unchecked: read them back with
 * {@link readKeptPageState}, which names a bad one). A share link's hash carries its own.
 * @param search - `location.search` (with or without its leading `?`).
 */
export function keptPageStateInQuery(search: string): KeptPageState {
  const params = new URLSearchParams(search);
  const atlas = params.get(ATLAS_PARAM);
  const compare = params.get(COMPARE_PARAM);
  return {
    ...(atlas !== null ? { atlas } : {}),
    ...(compare !== null ? { compare } : {}),
  };
}

/** Kept values read back: the state to open with, and the refusals (each naming its field). */
export interface ReadPageState {
  atlas: AtlasChoice;
  compare: CompareSpec | null;
  refused: string[];
}

/**
 * Kept values read back for `scenario` (its kinds are checked against a stream's atlas or a batch
 * job's). A refused value opens as the default (every kind; Compare closed), and is said.
 * @param kept - as stored: data from anywhere, so each field is checked.
 */
export function readKeptPageState(
  kept: { atlas?: unknown; compare?: unknown },
  scenario: ScenarioInput,
  source: ValueSource,
): ReadPageState {
  const out: ReadPageState = { atlas: DEFAULT_ATLAS_CHOICE, compare: null, refused: [] };
  if (kept.atlas !== undefined) {
    const a = decodeAtlasValue(kept.atlas, scenario.batch !== undefined, source);
    if (a.ok) out.atlas = a.choice;
    else out.refused.push(a.reason);
  }
  if (kept.compare !== undefined) {
    const c = decodeCompareValue(kept.compare, source);
    if (c.ok) out.compare = c.spec;
    else out.refused.push(c.reason);
  }
  return out;
}
