/**
 * Where the long words of a stage card may break. Chromium ships no hyphenation dictionary on
 * Linux, so `hyphens: auto` does nothing there, and a narrow card (projector mode, 1280×720) broke
 * a word wherever it ran out of room ("produc|er"). Here a listed word gets soft hyphens at its
 * syllables (a break shows "trans-", https://developer.mozilla.org/en-US/docs/Web/CSS/hyphens
 * `manual`), and an identifier may break after `_` or `(` (a zero-width space): nowhere else.
 */

/** The cards' words too long for their narrowest column, by syllable. */
const SYLLABLES: Record<string, string[]> = {
  idempotence: ['idem', 'po', 'tence'],
  transactional: ['trans', 'ac', 'tion', 'al'],
  // The consumer's column beside the projector page's story (~118 px inside its card at 18 px).
  uncommitted: ['un', 'com', 'mit', 'ted'],
  // A group's second instance, "consumer-0-replacement" (zombie-consumer), in that column too.
  replacement: ['re', 'place', 'ment'],
};

const SOFT_HYPHEN = '\u00ad';
const ZERO_WIDTH_SPACE = '\u200b';
const LISTED = new RegExp(`\\b(${Object.keys(SYLLABLES).join('|')})\\b`, 'g');

/** `text` with its break points marked (invisible unless the line breaks there). */
export function cardWords(text: string): string {
  return text
    .replace(LISTED, (w) => SYLLABLES[w]!.join(SOFT_HYPHEN))
    .replace(/([_(])(?=\w)/g, `$1${ZERO_WIDTH_SPACE}`);
}
