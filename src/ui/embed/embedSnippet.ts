/**
 * The host page's side of an embed: the height message the embedded page posts, and the iframe
 * snippet (with its sizing listener) the Embed dialog writes.
 */

/** The `type` of the height message. */
export const HEIGHT_MESSAGE = 'delivery-lab:height';

/**
 * What the embedded page posts to its parent whenever its height changes (and once at start):
 * `{ type: 'delivery-lab:height', height: <CSS px, an integer>, id: <the id option or ''> }`.
 * It carries nothing private, so it is posted to any origin (`'*'`): the host checks
 * `event.origin` and `event.source` itself.
 */
export interface HeightMessage {
  type: typeof HEIGHT_MESSAGE;
  height: number;
  id: string;
  /**
   * The scenario's name, where it has one: the loader (public/embed.js) titles a frame whose
   * element gives no caption nor preset with it — every share-link embed was "Delivery Lab: a
   * scenario" to a screen reader.
   */
  title?: string;
}

/** Escape text for an HTML attribute value in double quotes. */
export function attr(value: string): string {
  return value
    .replace(/&/g, '&amp;')
    .replace(/"/g, '&quot;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;');
}

/**
 * The snippet for a host page: the iframe, and a listener that sizes it from the height
 * messages. The listener takes messages from the lab's origin only, and sizes the page's iframe
 * whose window sent the message: found by its id, the frame of a second snippet pasted on the same
 * page (the same default id, `delivery-lab`) was never sized — its messages were compared with the
 * first frame's window. The iframe has an `id` only when the author gave the Frame id.
 * The frame loads at once, as the loader's element does (public/embed.js): `loading="lazy"` left a
 * frame below the fold at its first height until the reader scrolled to it, then resized it
 * under the reader (issue 31) — the player sizes itself only once it is loaded.
 * @param url - the embed URL (absolute).
 * @param height - the frame's height before the first message (px).
 * @param expectAttribute - a pin for `delivery-lab check`, `data-expect='…'`, on the iframe.
 */
export function embedSnippet(
  url: string,
  opts: { title: string; height?: number; frameId?: string; expectAttribute?: string },
): string {
  // A relative address (from the site's root) is the page's own origin.
  const origin = /^https?:/.test(url) ? JSON.stringify(new URL(url).origin) : 'location.origin';
  const id = opts.frameId ? `id="${attr(opts.frameId)}" ` : '';
  const h = Math.round(opts.height ?? 520);
  const pin = opts.expectAttribute ? `\n  ${opts.expectAttribute}` : '';
  return `<iframe ${id}src="${attr(url)}" title="${attr(opts.title)}"
  style="width: 100%; height: ${h}px; border: 0"${pin}></iframe>
<script>
  // Delivery Lab reports its height: { type: 'delivery-lab:height', height, id }.
  // The frame sized is the one that sent it (several snippets may share a page).
  window.addEventListener('message', (event) => {
    if (event.origin !== ${origin}) return;
    const frame = [...document.querySelectorAll('iframe')].find(
      (f) => f.contentWindow === event.source,
    );
    const m = event.data;
    if (frame && m && m.type === 'delivery-lab:height' && Number.isFinite(m.height))
      frame.style.height = Math.ceil(m.height) + 'px';
  });
</script>
`;
}
