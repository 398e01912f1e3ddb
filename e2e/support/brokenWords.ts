/**
 * Words broken across lines, as a room reads them: an id at its hyphen ("p-" / "6"), a setting's
 * name at a syllable ("transaction-" / "al.id").
 */
import type { Page } from '@playwright/test';

/**
 * The matches of `word` in the first text of each element of `selector` whose characters lie on
 * more than one line (their boxes' tops differ), each match once per element.
 */
export function brokenWords(page: Page, selector: string, word: RegExp): Promise<string[]> {
  return page.evaluate(
    ([selector, source]) => {
      const out: string[] = [];
      const re = new RegExp(source);
      for (const el of document.querySelectorAll(selector)) {
        const text = el.firstChild;
        const m = text?.nodeType === Node.TEXT_NODE ? re.exec(text.textContent!) : null;
        if (!text || !m) continue;
        const range = document.createRange();
        range.setStart(text, m.index);
        range.setEnd(text, m.index + m[0].length);
        const tops = new Set([...range.getClientRects()].map((b) => Math.round(b.top)));
        if (tops.size > 1) out.push(m[0]);
      }
      return out;
    },
    [selector, word.source] as const,
  );
}

/**
 * "transactional" as the producer's card writes it: with or without the soft hyphens at its
 * syllables (src/ui/pipeline/stages/cardWords.ts), so that a break at one is found.
 */
export const TRANSACTIONAL = /trans\u00ad?ac\u00ad?tion\u00ad?al/;

/** The producer's card's `transactional.id` label. */
export const TRANSACTIONAL_ID_LABEL = '.pipeline .stage[aria-label="Producer"] dt';

/** The text of each line of `selector`'s first element, in order (its characters' boxes' tops). */
export function textLines(page: Page, selector: string): Promise<string[]> {
  return page
    .locator(selector)
    .first()
    .evaluate((el) => {
      const lines: string[] = [];
      let top: number | null = null;
      const range = document.createRange();
      const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
      for (let n = walker.nextNode(); n; n = walker.nextNode()) {
        const text = n.textContent ?? '';
        for (let i = 0; i < text.length; i++) {
          range.setStart(n, i);
          range.setEnd(n, i + 1);
          // A character's own glyph is its range's last box.
          const t = Math.round([...range.getClientRects()].at(-1)?.top ?? 0);
          if (t !== top) lines.push(text.charAt(i));
          else lines.push(lines.pop() + text.charAt(i));
          top = t;
        }
      }
      return lines;
    });
}
