/**
 * The loader's snippet for a host page: `<script src=".../embed.js">` (public/embed.js) and a
 * `<delivery-lab-embed>` element carrying the player's options as attributes — no origin and no
 * listener written in the page: the loader computes both from where it was loaded. Pure.
 */
import { attr } from './embedOptions';

/** The loader's file, beside the lab's index.html in the build. */
const LOADER_FILE = 'embed.js';

/**
 * An embed's pinned expectation as an attribute (`expect` on the element, `data-expect` on an
 * iframe), single-quoted so the JSON reads as written; `delivery-lab check` reads it
 * (src/cli/checkDocs.ts) and the loader does not send it to the player.
 */
export function expectAttribute(name: 'expect' | 'data-expect', expect: unknown): string {
  const json = JSON.stringify(expect)
    .replace(/&/g, '&amp;')
    .replace(/'/g, '&#39;')
    .replace(/</g, '&lt;');
  return `${name}='${json}'`;
}

/** An address as written in the snippet: absolute, or from the site's root (same site only). */
export function addressAs(url: string, form: 'absolute' | 'relative'): string {
  if (form === 'absolute') return url;
  const u = new URL(url);
  return `${u.pathname}${u.search}${u.hash}`;
}

/**
 * The element snippet for an embed address (`…/?embed&caption=…#s=2.…`): the loader's script tag
 * (from the same folder as the address) and the element, one attribute per option.
 * @param url - the embed's absolute address.
 * @param expect - the expectation to pin it with, for `delivery-lab check` (none: unpinned).
 * @param initialHeight - the frame's height until the player's first message, as the loader reads
 *   `initial-height` (src/views/io/initialHeight.ts); none: the loader's 480 px.
 * @param file - a scenario file beside the page (docs/embed.md, "A scenario file beside the page"):
 *   the element names it as `src` in place of the address's `scenario-hash` (the file is the
 *   scenario; the lanes and atlas kinds a hash may carry stay out).
 */
export function embedElementSnippet(
  url: string,
  form: 'absolute' | 'relative',
  expect?: unknown,
  initialHeight?: string,
  file?: string,
): string {
  const u = new URL(url);
  const loader = addressAs(new URL(LOADER_FILE, u).href, form);
  const attrs: string[] = [];
  for (const [name, value] of new URLSearchParams(u.search)) {
    if (name === 'embed') continue;
    // A switch (`predict=1`) is a bare attribute; any other value is written out.
    attrs.push(
      value === '1' && name !== 't' && name !== 'speed' ? name : `${name}="${attr(value)}"`,
    );
  }
  const hash = u.hash.replace(/^#/, '');
  if (file !== undefined) attrs.push(`src="${attr(file)}"`);
  else if (hash) attrs.push(`scenario-hash="${attr(hash)}"`);
  if (initialHeight) attrs.push(`initial-height="${attr(initialHeight)}"`);
  if (expect !== undefined) attrs.push(expectAttribute('expect', expect));
  // A classic script, not `defer`: the element is upgraded as the parser reaches it, its frame
  // made at its `initial-height` before anything below it is parsed, so the page is first painted
  // with the room the player takes. Deferred, the fallback link was painted first (one line) and
  // the text below moved when the loader ran (e2e/embed-initial-height.spec.ts).
  return `<script src="${attr(loader)}"></script>
<delivery-lab-embed ${attrs.join(' ')}>
  ${fallbackLink(u, form)}
</delivery-lab-embed>
`;
}

/**
 * What the element holds: a link to the same scenario on the lab's page, shown where the loader
 * does not run (JavaScript off, the script blocked) and replaced by the player where it does
 * (docs/embed.md). Without it the reader saw an empty gap.
 */
function fallbackLink(u: URL, form: 'absolute' | 'relative'): string {
  const preset = u.searchParams.get('preset');
  const page = new URL(u.pathname, u);
  if (preset) page.searchParams.set('preset', preset);
  page.hash = u.hash;
  const name = u.searchParams.get('caption') || preset || 'this scenario';
  const named = name === 'this scenario' ? name : `“${name}”`;
  return `<a href="${attr(addressAs(page.href, form))}">Open ${escapeText(named)} in Delivery Lab</a>`;
}

/** Text for an element's content. */
function escapeText(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}
