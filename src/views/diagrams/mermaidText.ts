/**
 * Making untrusted text safe inside a mermaid diagram.
 *
 * Scenario strings (business ids, topic and table names, fault labels, reader names) are data,
 * never markup. Inside a diagram every character that means something to mermaid's parser or to
 * the HTML/SVG it produces is written as one of mermaid's entity codes: `#` followed by the
 * decimal code point and `;` (`#59;` for `;`, `#35;` for `#`, `#60;` for `<`). Mermaid turns
 * `#NNN;` into `&#NNN;` in the SVG markup, which the browser shows as that one character, as text.
 * https://mermaid.js.org/syntax/sequenceDiagram.html#entity-codes-to-escape-characters
 * https://mermaid.js.org/syntax/flowchart.html#entity-codes-to-escape-characters
 *
 * The policy is an allow-list: letters, digits and marks of any script, the space, and a few
 * punctuation marks that have no meaning in a label pass through; everything else is encoded.
 * So `;` (a statement separator), `#` (entity codes), `%` (`%%` comments and `%%{init}%%`
 * directives), `:` (the text separator), `<` `>` `&` `"` (markup), `|` `[` `]` `{` `}` in node
 * shapes, `$` (KaTeX `$$…$$`) and the backtick (markdown strings) can never act. Control characters, line
 * breaks and the characters XML forbids become a space or U+FFFD first, so a label is always one
 * line and the downloaded SVG is always well-formed XML. Long text is cut (by code point) with an
 * ellipsis, so 100 KB of text cannot blow up a diagram.
 */

/** Default longest label (code points) before {@link mermaidText} cuts it. */
const LABEL_MAX = 160;
/** Longest business id, topic or table name shown inside a label (code points). */
const NAME_MAX = 48;

/** Characters written as they are: safe in every label position of every diagram we emit. */
const SAFE = /^[\p{L}\p{N}\p{M} _.,()/'+*=!?@^~-]$/u;
/** Typographic characters our own labels use (never meaningful to mermaid). */
const OWN = new Set(['·', '→', '…', '×', '⚡', '✗', '≥', '≤', '—', '−']);

/**
 * Cut `text` to at most `max` code points, ending with `…` when it was longer.
 * @param max - at least 1.
 */
export function truncate(text: string, max: number): string {
  // Fast path: a string of at most `max` UTF-16 units has at most `max` code points.
  if (text.length <= max) return text;
  const points = Array.from(text.slice(0, max * 2));
  if (points.length <= max && text.length <= max * 2) return text;
  return `${points.slice(0, Math.max(0, max - 1)).join('')}…`;
}

/** Whether code point `cp` may appear in XML 1.0 text (else the SVG would not parse). */
function xmlAllowed(cp: number): boolean {
  if (cp < 0x20) return false;
  if (cp >= 0x7f && cp <= 0x9f) return false;
  if (cp >= 0xd800 && cp <= 0xdfff) return false;
  return cp !== 0xfffe && cp !== 0xffff;
}

/**
 * Escape untrusted text for a mermaid label (message, note, participant alias, node label, edge
 * label), cutting it to `max` code points first.
 * @param text - any string, including markup, directives, line breaks and 100 KB of text.
 * @param max - longest result before escaping (code points); default {@link LABEL_MAX}.
 * @returns one line made of safe characters and `#NNN;` entity codes.
 */
export function mermaidText(text: string, max = LABEL_MAX): string {
  const cut = truncate(text, max);
  let out = '';
  for (const ch of cut) {
    const cp = ch.codePointAt(0)!;
    if (SAFE.test(ch) || OWN.has(ch)) {
      out += ch;
    } else if (!xmlAllowed(cp)) {
      // Line breaks, tabs and other controls: one space (a label is one line); lone surrogates
      // and non-characters: the replacement character.
      out += cp < 0x20 || (cp >= 0x7f && cp <= 0x9f) ? ' ' : '#65533;';
    } else {
      out += `#${cp};`;
    }
  }
  return out;
}

/** A short, single-line version of a user-supplied name for use inside a longer label. */
export function shortName(text: string, max = NAME_MAX): string {
  return truncate(text.replace(/\s+/g, ' '), max);
}
