/**
 * The query parameters an embed reads, and the ones it does not: an unknown name, and the known
 * one it is probably a misspelling of.
 */
import { misspellingBound, nearest } from '../../engine/core/editDistance';

/**
 * Every query parameter the embedded page reads, in the order docs/embed.md lists them: `embed`
 * and `preset` (which scenario), then the options of the table above. The scenario's `#s=` is in
 * the hash, not the query.
 */
export const EMBED_PARAMS = [
  'embed',
  // PRESET_PARAM of src/platform/presetUrl.ts (spelled out: this module stays free of the library).
  'preset',
  // SCENARIO_FILE_PARAM of src/ui/io/scenarioFile.ts: the loader's `src`, a file beside the page.
  'file',
  'autoplay',
  't',
  'speed',
  'panels',
  'caption',
  'lock',
  'predict',
  'q',
  'a',
  'id',
  'layout',
  'theme',
  'height',
] as const;

/**
 * The known parameter an unknown name is probably a misspelling of, or null: the same name in
 * another case (`Autoplay`), else one edit away from a name of 4+ letters or two from one of 6+
 * (`autoply`, `pannels`, `captoin`). The one-letter names (`t`, `q`, `a`) match by case only: any
 * other letter is one edit from them.
 */
export function likelyEmbedParam(name: string): string | null {
  const lower = name.toLowerCase();
  const same = EMBED_PARAMS.find((k) => k === lower);
  if (same) return same;
  return nearest(lower, EMBED_PARAMS, misspellingBound);
}

/**
 * The loader's element's own attributes that are not the player's options, what each holds and
 * what a misspelling of it costs (the loader passes a misspelt one to the player as an option).
 */
export const ELEMENT_OWN_ATTRIBUTES: Record<string, { holds: string; misspelt: string }> = {
  'scenario-hash': {
    holds: "the scenario, a share link's s=2.…",
    misspelt: 'the embed plays nothing',
  },
  expect: {
    holds: 'the pin delivery-lab check compares the run with',
    misspelt: 'the embed is not pinned',
  },
  'expect-file': {
    holds: 'a file beside the page holding the pin',
    misspelt: 'the embed is not pinned',
  },
  'initial-height': {
    holds: "the frame's height until the player's first height message",
    misspelt: 'the frame starts at 480 px and the text below it moves',
  },
};

/**
 * The element's own attribute an unknown name is probably a misspelling of (`expects`,
 * `expect_file`, `scenario_hash`: `_` read as `-`), or null — null too when the name is near one
 * of the player's options, which {@link likelyEmbedParam} names.
 */
export function likelyElementAttribute(name: string): string | null {
  if (likelyEmbedParam(name)) return null;
  return nearest(
    name.toLowerCase().replace(/_/g, '-'),
    Object.keys(ELEMENT_OWN_ATTRIBUTES),
    misspellingBound,
  );
}

/**
 * The query parameters of an embed's address that the embed does not read (a misspelling, an
 * option from another tool), each once, in the order they come. Empty names (`?embed&&`) are not
 * parameters. The embed ignores them — `unknownEmbedNotice` tells the author.
 */
export function unknownEmbedParams(search: string): string[] {
  const known = new Set<string>(EMBED_PARAMS);
  const out: string[] = [];
  for (const name of new URLSearchParams(search).keys())
    if (name !== '' && !known.has(name) && !out.includes(name)) out.push(name);
  return out;
}

/**
 * The attributes of a `<delivery-lab-embed>` element that are not the player's options: the
 * scenario (`preset`, `src`, `scenario-hash`), the pin for `delivery-lab check` (`expect`,
 * `expect-file`), the frame's first height (`initial-height`), and the page's own (HTML's global attributes, `aria-*`, `data-*`). The loader
 * (public/embed.js, its NOT_OPTIONS: pinned equal by src/ui/embed/embedLoader.test.ts) passes
 * every other one to the player, and `delivery-lab check` names those the player does not read.
 */
export const ELEMENT_NOT_OPTIONS =
  /^(preset|src|scenario-hash|expect|expect-file|initial-height|class|style|title|hidden|lang|dir|tabindex|slot|part|role|nonce|is|inert|translate|accesskey|autofocus|draggable|spellcheck|contenteditable|enterkeyhint|popover|(aria|data)-.*)$/;
