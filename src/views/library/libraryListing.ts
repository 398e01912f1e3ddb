/**
 * The library dialog's and the story panel's words and lists, free of React and the DOM: what
 * the cards list for a search and the order the arrow keys walk them in, a preset's "try: …"
 * line and its sources, and where a newcomer starts. Apart from ./library.ts (what a player
 * needs of an open preset and its question), so an embed, which lists no preset, loads none of
 * it (issue 31).
 */
import { presetCatalog, type PresetMeta } from '../../scenarios/presetCatalog';
import {
  groupPresets,
  searchPresets,
  sourceTitle,
  spelledOut,
  type LibraryGroup,
  type Preset,
} from '../../scenarios';

/** What the library shows for a search. */
export interface LibraryListing {
  /** Non-empty groups, in pipeline order (the foundation guarantee presets first). */
  groups: { group: LibraryGroup; presets: Preset[] }[];
  /**
   * The matching presets in the order they are shown (group by group). The arrow keys walk this
   * list; it differs from the registry's order, which is the issue's, not the pipeline's.
   */
  flat: Preset[];
  /** How many presets there are, and how many match. */
  total: number;
  matched: number;
}

/**
 * The cards for a search box: {@link searchPresets} (every word must occur), grouped by where the
 * failure happens. With a query the best matches come first ({@link searchRank}): cards within a
 * group by rank, and groups by their best card — so Enter, which opens the first card, opens the
 * best match. Without a query, pipeline order.
 * @param typed - the search box as typed (surrounding space ignored; an abbreviation such as
 *   "EOS" read as the words the presets write, {@link spelledOut}).
 * @param from - the presets to list (src/scenarios/presetCatalog.ts `loadAllPresets`).
 */
export function libraryListing(typed: string, from: readonly Preset[]): LibraryListing {
  const query = spelledOut(typed);
  const found = searchPresets(from, query);
  let groups = groupPresets(found);
  if (queryWords(query).length > 0) {
    const rank = new Map(found.map((p) => [p, searchRank(p, query)]));
    const cmp = (a: Preset, b: Preset) => compareRank(rank.get(a)!, rank.get(b)!);
    // Array.prototype.sort is stable: equal ranks keep the pipeline order.
    groups = groups
      .map((g) => ({ ...g, presets: [...g.presets].sort(cmp) }))
      .sort((a, b) => cmp(a.presets[0]!, b.presets[0]!));
  }
  const flat = groups.flatMap((g) => g.presets);
  return { groups, flat, total: from.length, matched: flat.length };
}

const queryWords = (query: string) => query.toLowerCase().split(/\s+/).filter(Boolean);

/**
 * How well a preset matches a query, as a sort key (lower is better):
 * - `place`: where the words are found together — 0 the whole query, words adjacent, in the
 *   title, id or card line; 1 all words there but scattered; 2/3 the same in a variant's name or
 *   summary; 4/5 in the story, what to watch or the fix; 6 the words found only across fields.
 * - `spread`: for ties, the sum over the words of the best field each occurs in (0 title … 3
 *   sources), so a word in the title beats the same word in a source's name.
 */
interface SearchRank {
  place: number;
  spread: number;
}

/** Fields of a preset by how much a match there says, best first. */
function searchTiers(p: Preset): string[][] {
  return [
    [p.id, p.title, p.oneLine],
    p.variants.flatMap((v) => [v.id, v.label, v.summary]),
    [p.story, p.watch, p.fix, p.group, p.illustrates],
    p.sources.map((u) => sourceTitle(u) ?? u),
  ].map((fields) => fields.map((f) => f.toLowerCase().replace(/\s+/g, ' ')));
}

/** The rank of a preset for a query (see {@link SearchRank}); meaningful for a matching preset. */
export function searchRank(p: Preset, query: string): SearchRank {
  const words = queryWords(query);
  const phrase = words.join(' ');
  const tiers = searchTiers(p);
  let place = 6;
  for (let t = 0; t < 3 && place === 6; t++) {
    const fields = tiers[t]!;
    if (fields.some((f) => f.includes(phrase))) place = 2 * t;
    else if (fields.some((f) => words.every((w) => f.includes(w)))) place = 2 * t + 1;
  }
  let spread = 0;
  for (const w of words) {
    const t = tiers.findIndex((fields) => fields.some((f) => f.includes(w)));
    spread += t < 0 ? tiers.length : t;
  }
  return { place, spread };
}

function compareRank(a: SearchRank, b: SearchRank): number {
  return a.place - b.place || a.spread - b.spread;
}

/** Keys that move the active card of the library list. */
export type ListKey = 'ArrowDown' | 'ArrowUp' | 'Home' | 'End' | 'PageDown' | 'PageUp';

/** Cards a PageDown / PageUp moves by (about one screen of cards at 1280×720). */
export const LIST_PAGE = 5;

/**
 * The active card after a key, by index into {@link LibraryListing.flat}. Arrows stop at the
 * ends rather than wrap, so holding ↓ never jumps back to the top unnoticed; -1 (no card
 * active) goes to the first card on ↓ and the last on ↑.
 * @returns the new index, or -1 when the list is empty.
 */
export function moveActive(index: number, count: number, key: ListKey): number {
  if (count <= 0) return -1;
  const last = count - 1;
  if (index < 0 || index > last) {
    return key === 'ArrowUp' || key === 'End' || key === 'PageUp' ? last : 0;
  }
  switch (key) {
    case 'ArrowDown':
      return Math.min(last, index + 1);
    case 'ArrowUp':
      return Math.max(0, index - 1);
    case 'Home':
      return 0;
    case 'End':
      return last;
    case 'PageDown':
      return Math.min(last, index + LIST_PAGE);
    case 'PageUp':
      return Math.max(0, index - LIST_PAGE);
    default: {
      const never: never = key;
      return never;
    }
  }
}

/** A piece of a preset's "try: …" line: text, `code`, or a variant it names (a link to it). */
export type FixPart =
  | { kind: 'text'; text: string }
  | { kind: 'code'; text: string }
  | { kind: 'variant'; text: string; variant: string };

/**
 * A preset's fix as parts, without its leading "Try:" (the panel labels it). Each "the <name>
 * variant" whose name is a variant id — or the start of exactly one — becomes a variant part,
 * so the panel can make it a one-click switch; `backticks` become code.
 */
export function fixParts(p: Pick<Preset, 'fix' | 'variants'>): FixPart[] {
  const text = p.fix.replace(/^\s*try:\s*/i, '');
  const parts: FixPart[] = [];
  const push = (part: FixPart) => {
    if (part.text === '') return;
    const last = parts[parts.length - 1];
    if (last && last.kind === 'text' && part.kind === 'text') last.text += part.text;
    else parts.push(part);
  };
  const re = /`([^`]+)`|\bthe ([a-z0-9][a-z0-9-]*) variant\b/gi;
  let at = 0;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    push({ kind: 'text', text: text.slice(at, m.index) });
    if (m[1] !== undefined) push({ kind: 'code', text: m[1] });
    else {
      const name = m[2]!.toLowerCase();
      const exact = p.variants.find((v) => v.id === name);
      const starts = p.variants.filter((v) => v.id.startsWith(name));
      const v = exact ?? (starts.length === 1 ? starts[0] : undefined);
      push(v ? { kind: 'variant', text: m[0], variant: v.id } : { kind: 'text', text: m[0] });
    }
    at = m.index + m[0].length;
  }
  push({ kind: 'text', text: text.slice(at) });
  return parts;
}

/** The text of a source link: its title in the library's source list, or the URL's host. */
export function sourceLabel(url: string): string {
  const title = sourceTitle(url);
  if (title) return title;
  try {
    const u = new URL(url);
    return `${u.hostname}${u.pathname === '/' ? '' : u.pathname}${u.hash}`;
  } catch {
    return url;
  }
}

/** The line beside the search box: how many presets match, and what Enter does. */
export function listingSummary(
  l: Pick<LibraryListing, 'matched' | 'total'>,
  query: string,
): string {
  if (query.trim() === '') return `${l.total} presets · ↓ to the cards, Enter opens`;
  if (l.matched === 0) return `no match among ${l.total}`;
  if (l.matched === 1) return `1 of ${l.total} matches · Enter opens it`;
  return `${l.matched} of ${l.total} match · Enter opens the first`;
}

/** Words to try when a search finds nothing (each finds several presets). */
export const SEARCH_SUGGESTIONS: readonly string[] = [
  'duplicate',
  'lost',
  'retry',
  'transaction',
  'MERGE',
];

/**
 * Where a newcomer starts ("Start here" on the first screen): the library's first story, as its
 * cards list it (groups in LIBRARY_GROUPS order), at the variant its question is about.
 */
export function firstStoryRef(all: readonly PresetMeta[] = presetCatalog()): string {
  const first = groupPresets(all)[0]?.presets[0];
  if (!first) throw new Error('The library holds no preset');
  return `${first.id}/${first.questionVariant}`;
}
