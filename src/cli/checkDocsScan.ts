/**
 * The lab's embeds in an HTML or Markdown page, with the line of each tag and attribute, for
 * `delivery-lab check` (./checkDocs.ts). A start-tag scanner, not a full HTML parser: it needs
 * only tag names and attributes, with exact line numbers, and reads attributes as the HTML
 * standard's tokenizer does (https://html.spec.whatwg.org/multipage/parsing.html#before-attribute-name-state:
 * double- or single-quoted, or unquoted up to a space or `>`; names are case-insensitive).
 * Skipped, as a browser or a Markdown renderer would not make them embeds: comments, the raw text
 * of `<script>`, `<style>`, `<textarea>` and `<title>`, and in Markdown fenced and indented code
 * blocks and code spans (https://spec.commonmark.org/0.31.2/#fenced-code-blocks,
 * #indented-code-blocks, #code-spans) — a snippet shown as an example is not an embed. Markdown's
 * block quotes and `<pre>` HTML blocks are read as CommonMark reads them; MkDocs' admonitions and
 * content tabs hold content indented 4, as a list item does (MKDOCS_BLOCK).
 */

/** An attribute as written: its value with character references decoded, and its 1-based line. */
interface ScannedAttribute {
  value: string;
  line: number;
}

/** One start tag of the page. */
export interface ScannedTag {
  /** Lower case. */
  name: string;
  line: number;
  /** By lower-case name; the first of a repeated name wins, as in HTML. */
  attributes: Map<string, ScannedAttribute>;
}

const RAW_TEXT = new Set(['script', 'style', 'textarea', 'title']);

/** The character references a hand-written attribute uses; any other is left as written. */
const NAMED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

function decodeReferences(s: string): string {
  return s.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, ref: string) => {
    if (ref[0] !== '#') return NAMED[ref.toLowerCase()] ?? whole;
    const code =
      ref[1] === 'x' || ref[1] === 'X' ? parseInt(ref.slice(2), 16) : Number(ref.slice(1));
    return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
  });
}

/** Offsets → 1-based lines. */
function lineCounter(text: string): (offset: number) => number {
  const starts = [0];
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 10) starts.push(i + 1);
  return (offset) => {
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid]! <= offset) lo = mid;
      else hi = mid - 1;
    }
    return lo + 1;
  };
}

/** `text` with [from, to) blanked, its line breaks kept: offsets and lines stay the same. */
function blank(text: string, from: number, to: number): string {
  return text.slice(0, from) + text.slice(from, to).replace(/[^\n]/g, ' ') + text.slice(to);
}

/** Columns of a line's leading white space, a tab to the next multiple of 4 (CommonMark 2.2). */
function indentOf(line: string): number {
  let col = 0;
  for (const ch of line) {
    if (ch === ' ') col++;
    else if (ch === '\t') col += 4 - (col % 4);
    else break;
  }
  return col;
}

/** A list item's marker and the spaces after it: its content starts that many columns in. */
const LIST_ITEM = /^[ \t]*(?:[-+*]|\d{1,9}[.)])(?: {1,4}|$)/;

/**
 * Block quote markers (https://spec.commonmark.org/0.31.2/#block-quotes: `>` after up to 3 spaces,
 * with one optional space), nested ones too. A tag inside a quote is an embed as much as one
 * outside; left in, the next line's `>` would end a tag that spans lines.
 */
const QUOTE_MARKERS = /^(?: {0,3}> ?)+/;

/**
 * An MkDocs container whose content is Markdown indented 4 spaces past its marker, as a list
 * item's is past its own: Python-Markdown's admonition (`!!! type "title"`,
 * https://python-markdown.github.io/extensions/admonition/), pymdownx's collapsible details
 * (`??? type`, `???+ type`, https://facelessuser.github.io/pymdown-extensions/extensions/details/)
 * and content tab (`=== "Tab"`, `===+ "Tab"`,
 * https://facelessuser.github.io/pymdown-extensions/extensions/tabbed/). A bare `===` is a
 * setext heading's underline, no container.
 */
const MKDOCS_BLOCK = /^[ \t]*(?:(?:!!!|\?\?\?\+?)[ \t]+\S|===\+?[ \t]+")/;

/** An opening fence: 3+ backticks or tildes, up to 3 spaces in. */
const FENCE = /^ {0,3}(`{3,}|~{3,})/;

/**
 * The start of an HTML block of type 1 (https://spec.commonmark.org/0.31.2/#html-blocks): it runs
 * to the line holding a closing `</pre>`, `</script>`, `</style>` or `</textarea>`, blank lines
 * included, and nothing inside it is Markdown (no indented code, no fence).
 */
const RAW_HTML_BLOCK_START = /^ {0,3}<(?:pre|script|style|textarea)(?:[\s>]|$)/i;
const RAW_HTML_BLOCK_END = /<\/(?:pre|script|style|textarea)>/i;

/**
 * Markdown's block structure, line by line, with its code blanked and its block quote markers
 * removed (lines are kept, so a tag keeps its line): fenced code blocks, closed by a fence of the
 * same character at least as long or by the end of the document
 * (https://spec.commonmark.org/0.31.2/#fenced-code-blocks); indented code blocks — a chunk
 * indented 4 columns past its container, the page or the list item it is in
 * (https://spec.commonmark.org/0.31.2/#list-items), that does not continue a paragraph (after a
 * blank line or at the start), up to the next non-blank line indented less
 * (https://spec.commonmark.org/0.31.2/#indented-code-blocks). Type 1 HTML blocks stay as written.
 */
function maskCodeBlocks(text: string): string {
  const lines = text.split('\n');
  let afterBlank = true;
  let inCode = false;
  let listIndent = 0;
  let fence: { char: string; length: number } | null = null;
  let inRawHtml = false;
  let tag: OpenTag | null = null;
  for (let k = 0; k < lines.length; k++) {
    // A tag that began outside a block quote and spans lines: a line starting with `>` is its
    // end (`></delivery-lab-embed>` under its attributes), not a quote marker — removed, the tag
    // ran on into the closing tag's `<` and name, read as attributes.
    const raw = lines[k]!;
    const line = tag && !tag.quoted ? raw : raw.replace(QUOTE_MARKERS, '');
    const quoted = line !== raw;
    lines[k] = line;
    tag = tagAfter(line, tag, quoted);
    if (fence) {
      const close = new RegExp(`^ {0,3}\\${fence.char}{${fence.length},}[ \\t]*$`);
      if (close.test(line)) fence = null;
      lines[k] = '';
      tag = null;
      continue;
    }
    if (inRawHtml) {
      if (RAW_HTML_BLOCK_END.test(line)) inRawHtml = false;
      continue;
    }
    if (line.trim() === '') {
      afterBlank = true;
      continue;
    }
    const indent = indentOf(line);
    // A line indented less than the list item's content, after a blank line, ends the item.
    if (afterBlank && indent < listIndent) listIndent = 0;
    if (indent >= listIndent + 4 && (inCode || afterBlank)) {
      inCode = true;
      lines[k] = '';
      tag = null;
      continue;
    }
    inCode = false;
    afterBlank = false;
    const opening = FENCE.exec(line.slice(Math.min(listIndent, indent)));
    if (opening) {
      fence = { char: opening[1]![0]!, length: opening[1]!.length };
      lines[k] = '';
      tag = null;
      continue;
    }
    if (RAW_HTML_BLOCK_START.test(line)) {
      inRawHtml = !RAW_HTML_BLOCK_END.test(line);
      continue;
    }
    const item = LIST_ITEM.exec(line);
    if (item) listIndent = indentOf(item[0].replace(/[^ \t]/g, ' '));
    else if (MKDOCS_BLOCK.test(line)) listIndent = indent + 4;
  }
  return lines.join('\n');
}

/** A tag still open at the end of a line: in a quoted value or not, begun in a block quote or not. */
interface OpenTag {
  quote: '"' | "'" | null;
  quoted: boolean;
}

/**
 * Whether a tag is still open after `line` (read from `open`, the tag open before it), as the
 * scanner below reads tags: `<` and a letter opens one, `>` outside a quoted value ends it.
 */
function tagAfter(line: string, open: OpenTag | null, quoted: boolean): OpenTag | null {
  let tag = open;
  for (let i = 0; i < line.length; i++) {
    const ch = line[i]!;
    if (!tag) {
      if (ch === '<' && /[A-Za-z]/.test(line[i + 1] ?? '')) tag = { quote: null, quoted };
    } else if (tag.quote) {
      if (ch === tag.quote) tag = { ...tag, quote: null };
    } else if (ch === '"' || ch === "'") tag = { ...tag, quote: ch };
    else if (ch === '>') tag = null;
  }
  return tag;
}

/** Markdown with its code blocks and code spans blanked, and its block quote markers gone. */
function maskMarkdownCode(text: string): string {
  let out = maskCodeBlocks(text);
  // Code spans: a run of backticks closed by the next run of the same length (none: literal).
  const runs = [...out.matchAll(/`+/g)].map((m) => ({ at: m.index, length: m[0].length }));
  for (let k = 0; k < runs.length; k++) {
    const close = runs.findIndex((r, n) => n > k && r.length === runs[k]!.length);
    if (close < 0) continue;
    out = blank(out, runs[k]!.at, runs[close]!.at + runs[close]!.length);
    k = close;
  }
  return out;
}

/** Every start tag of an HTML text (or of Markdown masked by {@link maskMarkdownCode}). */
function scanTags(text: string): ScannedTag[] {
  const lineOf = lineCounter(text);
  const lower = text.toLowerCase();
  const tags: ScannedTag[] = [];
  let i = 0;
  while ((i = text.indexOf('<', i)) >= 0) {
    if (text.startsWith('<!--', i)) {
      const end = text.indexOf('-->', i + 4);
      i = end < 0 ? text.length : end + 3;
      continue;
    }
    const name = /^<([a-zA-Z][a-zA-Z0-9-]*)/.exec(text.slice(i, i + 64))?.[1];
    if (!name) {
      i++;
      continue;
    }
    const tag: ScannedTag = { name: name.toLowerCase(), line: lineOf(i), attributes: new Map() };
    let j = i + 1 + name.length;
    // Attributes, up to `>`.
    for (;;) {
      while (j < text.length && /[\s/]/.test(text[j]!)) j++;
      if (j >= text.length || text[j] === '>') break;
      const at = j;
      while (j < text.length && !/[\s/>=]/.test(text[j]!)) j++;
      // A name starts with any character but those; `="x"` with no name is one character of name.
      if (j === at) j++;
      const attrName = text.slice(at, j).toLowerCase();
      while (j < text.length && /\s/.test(text[j]!)) j++;
      let value = '';
      if (text[j] === '=') {
        j++;
        while (j < text.length && /\s/.test(text[j]!)) j++;
        const quote = text[j];
        if (quote === '"' || quote === "'") {
          const end = text.indexOf(quote, j + 1);
          value = text.slice(j + 1, end < 0 ? text.length : end);
          j = end < 0 ? text.length : end + 1;
        } else {
          const start = j;
          while (j < text.length && !/[\s>]/.test(text[j]!)) j++;
          value = text.slice(start, j);
        }
      }
      if (!tag.attributes.has(attrName))
        tag.attributes.set(attrName, { value: decodeReferences(value), line: lineOf(at) });
    }
    tags.push(tag);
    i = j + 1;
    if (RAW_TEXT.has(tag.name)) {
      const end = lower.indexOf(`</${tag.name}`, i);
      i = end < 0 ? text.length : end;
    }
  }
  return tags;
}

/** Whether a path is a page whose embeds `check` reads, and how. */
export function pageKind(path: string): 'html' | 'markdown' | null {
  if (/\.html?$/i.test(path)) return 'html';
  if (/\.(md|markdown|mdx)$/i.test(path)) return 'markdown';
  return null;
}

/** The start tags of a page, as a browser (HTML) or a Markdown renderer would make them. */
export function pageTags(text: string, kind: 'html' | 'markdown'): ScannedTag[] {
  return scanTags(kind === 'markdown' ? maskMarkdownCode(text) : text);
}
