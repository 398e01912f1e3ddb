/**
 * What the fault atlas is asked to explore — the kinds ticked (the CLI's `--kinds`) and "Pairs
 * too" (`--depth 2`) — as part of the page's state, for a stream's atlas and a batch job's alike:
 * each change is an undo step (src/store/labStore.ts `setAtlas`), the share link carries it
 * (`a=`, ./atlasLink.ts) and opens with the same kinds ticked, and offers the same atlas again
 * when it had been explored. Plain data, as the compare state is (src/views/compare/lanes.ts).
 */
import { echoValue, notOneOf } from '../../engine/scenario/echo';
import type { KindOption } from './atlasKinds';

export interface AtlasChoice {
  /** The kinds ticked, in the filter's order; absent: every kind (none left out). */
  kinds?: readonly string[];
  /** "Pairs too": every pair of placements, within the bound. */
  pairs?: boolean;
  /** The atlas of this choice was run to its end: a link shared now offers it again. */
  explored?: boolean;
}

/** Every kind, single faults, not explored: the state of a scenario just opened. */
export const DEFAULT_ATLAS_CHOICE: AtlasChoice = {};

/** Whether a choice says nothing (the share link then carries no `a=`). */
export function isDefaultChoice(c: AtlasChoice): boolean {
  return c.kinds === undefined && c.pairs !== true && c.explored !== true;
}

/**
 * `choice` with `kind` ticked (`on`) or not — a new choice to explore, so not explored yet.
 * Every kind ticked is said as no list at all.
 */
export function withKind(
  choice: AtlasChoice,
  options: readonly KindOption[],
  kind: string,
  on: boolean,
): AtlasChoice {
  const ticked = options
    .map((o) => o.kind)
    .filter((k) => (k === kind ? on : choice.kinds === undefined || choice.kinds.includes(k)));
  const { pairs } = choice;
  return {
    ...(ticked.length === options.length ? {} : { kinds: ticked }),
    ...(pairs ? { pairs } : {}),
  };
}

/**
 * `choice` for another scenario — a placement opened as its run, which the atlas goes on
 * exploring with the same kinds: not explored yet.
 */
export function unexplored(choice: AtlasChoice): AtlasChoice {
  return withPairs(choice, choice.pairs === true);
}

/** `choice` with "Pairs too" on or off (not explored yet). */
export function withPairs(choice: AtlasChoice, on: boolean): AtlasChoice {
  return { ...(choice.kinds ? { kinds: choice.kinds } : {}), ...(on ? { pairs: true } : {}) };
}

/**
 * A choice read from untrusted data (a share link), checked against the kinds its scenario's
 * atlas offers; or the field that is wrong and why.
 */
export function parseAtlasChoice(
  value: unknown,
  options: readonly KindOption[],
): { ok: true; choice: AtlasChoice } | { ok: false; reason: string } {
  const fail = (reason: string) => ({ ok: false as const, reason });
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return fail('expected an object with "kinds", "pairs" or "explored"');
  const { kinds, pairs, explored, ...rest } = value as Record<string, unknown>;
  const extra = Object.keys(rest)[0];
  if (extra !== undefined) return fail(`${extra}: unknown field`);
  const choice: AtlasChoice = {};
  const names = options.map((o) => o.kind);
  if (kinds !== undefined) {
    if (!Array.isArray(kinds) || kinds.length > names.length)
      return fail(`kinds: expected a list of at most ${names.length} kinds`);
    for (const [i, k] of kinds.entries())
      if (typeof k !== 'string' || !names.includes(k))
        return fail(`kinds.${i}: ${notOneOf(names, echoValue(k))}`);
    // In the filter's order, each once, as the page writes it.
    choice.kinds = names.filter((n) => (kinds as unknown[]).includes(n));
  }
  for (const [field, v] of [
    ['pairs', pairs],
    ['explored', explored],
  ] as const) {
    if (v === undefined) continue;
    if (typeof v !== 'boolean')
      return fail(`${field}: ${notOneOf(['true', 'false'], echoValue(v))}`);
    if (v) choice[field] = true;
  }
  return { ok: true, choice };
}
