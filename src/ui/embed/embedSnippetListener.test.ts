// @vitest-environment jsdom
/**
 * The Embed dialog's iframe snippet as a docs page runs it: two snippets pasted on one page, the
 * Frame id left empty in both (the dialog's default), each frame sized from its own height
 * messages. The listener found its frame by the id `delivery-lab`, which both snippets gave their
 * iframe: the second frame's messages were checked against the first frame's window and dropped,
 * so it kept its first 520 px with its player scrolling inside.
 */
import { describe, expect, it } from 'vitest';
import { embedSnippet } from './embedSnippet';

const LAB = 'https://lab.example.org';

/** Paste `snippets` into the page as an author does, running their scripts. */
function paste(snippets: string[]): HTMLIFrameElement[] {
  document.body.innerHTML = snippets.join('\n<p>Between.</p>\n');
  for (const s of snippets) new Function(/<script>([\s\S]*)<\/script>/.exec(s)![1]!)();
  return [...document.querySelectorAll('iframe')];
}

/** A height message from `frame`'s window, as the player posts it (docs/embed.md). */
function post(frame: HTMLIFrameElement, height: number, origin = LAB) {
  window.dispatchEvent(
    new MessageEvent('message', {
      data: { type: 'delivery-lab:height', height, id: '' },
      origin,
      source: frame.contentWindow,
    }),
  );
}

describe('two iframe snippets on one page, no Frame id given', () => {
  const a = embedSnippet(`${LAB}/lab/?embed&preset=lost-ack-retry%2Facks-1`, { title: 'A' });
  const b = embedSnippet(`${LAB}/lab/?embed&preset=effectively-once%2Fdefault`, { title: 'B' });

  it('each frame takes its own height', () => {
    const [first, second] = paste([a, b]);
    post(first!, 782);
    post(second!, 903.2);
    expect([first!.style.height, second!.style.height]).toEqual(['782px', '904px']);
  });

  it('a message from another origin, or from a window that is no frame of the page, sizes nothing', () => {
    const [first] = paste([a, b]);
    post(first!, 300, 'https://evil.example');
    expect(first!.style.height).toBe('520px');
    window.dispatchEvent(
      new MessageEvent('message', {
        data: { type: 'delivery-lab:height', height: 100, id: '' },
        origin: LAB,
        source: window,
      }),
    );
    expect([...document.querySelectorAll('iframe')].map((f) => f.style.height)).toEqual([
      '520px',
      '520px',
    ]);
  });
});
