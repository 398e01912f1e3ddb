// @vitest-environment jsdom
/**
 * The loader (public/embed.js) as a docs page runs it: the iframe each <delivery-lab-embed>
 * element gets. What the author wrote must reach the player, which says what it cannot use
 * (docs/embed.md, "Options") — a misspelt attribute was dropped by the loader without a word —
 * and a scenario hash must be one the player reads as `delivery-lab check` does.
 */
import { beforeAll, describe, expect, it, vi } from 'vitest';
import loader from '../../../public/embed.js?raw';
import { ELEMENT_NOT_OPTIONS } from '../../views/io/embedParams';
import { initialHeightFor, parseInitialHeight } from '../../views/io/initialHeight';

const LAB = 'https://docs.example.org/lab/';

beforeAll(() => {
  // The script as the page loads it: `document.currentScript` is its own <script src>.
  Object.defineProperty(document, 'currentScript', {
    configurable: true,
    value: { src: `${LAB}embed.js` },
  });
  new Function(loader)();
});

/** The address of the iframe the loader makes for `markup`. */
function frameOf(markup: string): URL {
  document.body.innerHTML = markup;
  const src = document.querySelector('delivery-lab-embed iframe')!.getAttribute('src')!;
  return new URL(src);
}

describe('the loader’s <delivery-lab-embed>', () => {
  it('passes the options, and an attribute it does not know as written, for the player to name', () => {
    const u = frameOf(
      '<delivery-lab-embed preset="lost-ack-retry/acks-1" autoply speed="abc" presett="x"></delivery-lab-embed>',
    );
    expect(u.href.startsWith(`${LAB}?embed&`)).toBe(true);
    expect(u.searchParams.get('preset')).toBe('lost-ack-retry/acks-1');
    expect(u.searchParams.get('speed')).toBe('abc');
    expect(u.searchParams.get('autoply')).toBe('1');
    expect(u.searchParams.get('presett')).toBe('x');
    expect(u.searchParams.get('theme')).toBe('host');
  });

  it('keeps the page’s own attributes and the pin for delivery-lab check out of the address', () => {
    const u = frameOf(
      `<delivery-lab-embed preset="at-least-once" class="wide" style="margin:0" data-step="2" aria-label="demo" expect='{"totals":{"rows":1}}' expect-file="a.json"></delivery-lab-embed>`,
    );
    expect([...u.searchParams.keys()]).toEqual(['embed', 'preset', 'theme']);
  });

  it('reads scenario-hash as a share link’s s=, its bare value (2.…) too', () => {
    expect(frameOf('<delivery-lab-embed scenario-hash="s=2.abc"></delivery-lab-embed>').hash).toBe(
      '#s=2.abc',
    );
    expect(frameOf('<delivery-lab-embed scenario-hash="#s=2.abc"></delivery-lab-embed>').hash).toBe(
      '#s=2.abc',
    );
    expect(frameOf('<delivery-lab-embed scenario-hash="2.abc"></delivery-lab-embed>').hash).toBe(
      '#s=2.abc',
    );
    expect(
      frameOf('<delivery-lab-embed scenario-hash="s=2.abc&amp;p=0"></delivery-lab-embed>').hash,
    ).toBe('#s=2.abc&p=0');
    // The whole share link as Share copies it: its hash (it became "#https://…#s=2.…", which
    // the player refused as naming no scenario).
    expect(
      frameOf(
        '<delivery-lab-embed scenario-hash="https://lab.example.org/lab/#s=2.abc&amp;p=0"></delivery-lab-embed>',
      ).hash,
    ).toBe('#s=2.abc&p=0');
  });

  it('reads a link to the lab’s page on a preset (its address bar, no hash) as that preset', () => {
    // It became "#https://…?preset=…", which the player refused as naming no scenario.
    const u = frameOf(
      '<delivery-lab-embed scenario-hash="https://lab.example.org/lab/?preset=lost-ack-retry/acks-1"></delivery-lab-embed>',
    );
    expect([u.searchParams.get('preset'), u.hash]).toEqual(['lost-ack-retry/acks-1', '']);
    // Its own preset attribute wins over a page link.
    const both = frameOf(
      '<delivery-lab-embed preset="at-most-once" scenario-hash="https://lab.example.org/?preset=at-least-once"></delivery-lab-embed>',
    );
    expect(both.searchParams.get('preset')).toBe('at-most-once');
  });
});

describe('the frame’s title, for a screen reader', () => {
  /** The frame for `markup`, after the player's height message carrying `title`. */
  function titled(markup: string, title: string): string {
    document.body.innerHTML = markup;
    const frame = document.querySelector('iframe')!;
    window.dispatchEvent(
      new MessageEvent('message', {
        origin: new URL(LAB).origin,
        source: frame.contentWindow,
        data: { type: 'delivery-lab:height', height: 600, id: '', title },
      }),
    );
    return frame.title;
  }

  it('a share link’s scenario takes its own name once the player has it (each was “a scenario”)', () => {
    expect(
      titled('<delivery-lab-embed scenario-hash="s=2.abc"></delivery-lab-embed>', 'Two payments'),
    ).toBe('Delivery Lab: Two payments');
  });

  it('a caption or a preset stays the title', () => {
    expect(
      titled(
        '<delivery-lab-embed scenario-hash="s=2.abc" caption="The retry"></delivery-lab-embed>',
        'Two payments',
      ),
    ).toBe('Delivery Lab: The retry');
    expect(
      titled('<delivery-lab-embed preset="at-least-once"></delivery-lab-embed>', 'Two payments'),
    ).toBe('Delivery Lab: at-least-once');
  });
});

describe('what the element holds is its fallback, for a page where the loader does not run', () => {
  it('the player replaces it: the frame alone, the fallback link gone', () => {
    // Without the loader (JavaScript off, the script blocked by a CSP or an extension) the
    // browser shows an unknown element's content: the link to the lab. With it, that link beside
    // the player (as it was, appended after it) would repeat "Open in Delivery Lab ↗" above it.
    document.body.innerHTML =
      '<delivery-lab-embed preset="at-least-once"><a href="/lab/?preset=at-least-once">Open it in Delivery Lab</a></delivery-lab-embed>';
    const el = document.querySelector('delivery-lab-embed')!;
    expect([...el.children].map((c) => c.tagName)).toEqual(['IFRAME']);
    expect(el.textContent).toBe('');
  });
});

describe('the fallback, with the loader run before the page is parsed (in <head>, async or without defer)', () => {
  it('the element is upgraded at its start tag, its fallback parsed after the frame: removed as it is parsed', async () => {
    // A custom element defined before the parser reaches it is connected at its start tag
    // (https://html.spec.whatwg.org/multipage/custom-elements.html#upgrades): its content comes
    // after, beside the frame, unless the loader removes it once the document is parsed.
    Object.defineProperty(document, 'readyState', { configurable: true, get: () => 'loading' });
    try {
      const el = document.createElement('delivery-lab-embed');
      el.setAttribute('preset', 'at-least-once');
      document.body.replaceChildren(el);
      el.insertAdjacentHTML('beforeend', '<a href="/lab/?preset=at-least-once">Open it</a>');
      expect([...el.children].map((c) => c.tagName)).toEqual(['IFRAME', 'A']);
      // Gone at the next microtask checkpoint, before a paint: under the frame, its line moved
      // the text below by ~18 px when it went at the end of parsing.
      await Promise.resolve();
      expect([...el.children].map((c) => c.tagName)).toEqual(['IFRAME']);
      el.insertAdjacentHTML('beforeend', ' <span>more</span>');
      document.dispatchEvent(new Event('DOMContentLoaded'));
      expect([...el.children].map((c) => c.tagName)).toEqual(['IFRAME']);
    } finally {
      delete (document as { readyState?: unknown }).readyState;
    }
  });
});

describe('initial-height: the frame’s height until the player’s first height message', () => {
  /** The frame's height for `value` in a column `width` px wide (jsdom lays nothing out). */
  function startsAt(value: string | null, width: number, more = ''): string {
    const rect = vi
      .spyOn(HTMLIFrameElement.prototype, 'getBoundingClientRect')
      .mockReturnValue({ width } as DOMRect);
    try {
      const attr = value === null ? '' : ` initial-height="${value}"`;
      document.body.innerHTML = `<delivery-lab-embed preset="at-least-once"${attr}${more}></delivery-lab-embed>`;
      return document.querySelector('iframe')!.style.height;
    } finally {
      rect.mockRestore();
    }
  }

  it('is the entry the frame’s width fits, else the last; not sent to the player', () => {
    const perWidth = '(max-width: 479px) 1210px, 790px';
    expect(startsAt(perWidth, 720)).toBe('790px');
    expect(startsAt(perWidth, 358)).toBe('1210px');
    expect(startsAt(perWidth, 479)).toBe('1210px');
    expect(startsAt('820', 720)).toBe('820px');
    // Without it, or with a value check refuses: the 480 px it always had.
    expect(startsAt(null, 720)).toBe('480px');
    expect(startsAt('50em', 720)).toBe('480px');
    // A fixed height wins: the player scrolls inside it.
    expect(startsAt('790', 720, ' height="600"')).toBe('600px');
    expect(
      frameOf(
        `<delivery-lab-embed preset="at-least-once" initial-height="790"></delivery-lab-embed>`,
      ).searchParams.has('initial-height'),
    ).toBe(false);
  });

  it('takes the values delivery-lab check accepts, and ignores those it refuses', () => {
    // The loader is plain JS with its own reader: each value read alike by both.
    const values = [
      '790',
      '790px',
      ' 790PX ',
      '(max-width: 479px) 1210px, 790px',
      '(max-width:479px) 1210, (max-width: 760px) 900, 790',
      '199',
      '4001',
      '50em',
      '50%',
      '(max-width: 30em) 1210px, 790px',
      '790px, (max-width: 479px) 1210px',
      '',
      'tall',
    ];
    for (const value of values) {
      const read = parseInitialHeight(value);
      const loader = startsAt(value, 400);
      expect([value, loader === '480px' ? null : Number.parseFloat(loader)]).toEqual([
        value,
        read.ok ? initialHeightFor(read.rules, 400) : null,
      ]);
    }
  });
});

describe('src: a scenario file beside the page', () => {
  it('names it in the player’s address and answers the player’s request with the file this page fetched', async () => {
    const fetched: string[] = [];
    const fetchStub = vi.spyOn(globalThis, 'fetch').mockImplementation((url) => {
      fetched.push(String(url));
      return Promise.resolve(new Response('{"name": "Payments"}', { status: 200 }));
    });
    try {
      const u = frameOf('<delivery-lab-embed src="payments-lost-ack.json"></delivery-lab-embed>');
      expect([u.searchParams.get('file'), u.searchParams.has('src')]).toEqual([
        'payments-lost-ack.json',
        false,
      ]);
      // Resolved against the page's URL, fetched by the page (its origin, not the lab's).
      expect(fetched).toEqual([new URL('payments-lost-ack.json', document.baseURI).href]);
      const frame = document.querySelector('iframe')!;
      const sent: unknown[] = [];
      vi.spyOn(frame.contentWindow!, 'postMessage').mockImplementation((m: unknown) => {
        sent.push(m);
      });
      window.dispatchEvent(
        new MessageEvent('message', {
          origin: new URL(LAB).origin,
          source: frame.contentWindow,
          data: { type: 'delivery-lab:scenario-file', file: 'payments-lost-ack.json' },
        }),
      );
      await vi.waitFor(() => expect(sent).toHaveLength(1));
      expect(sent).toEqual([
        {
          type: 'delivery-lab:scenario-file',
          file: 'payments-lost-ack.json',
          text: '{"name": "Payments"}',
        },
      ]);
    } finally {
      fetchStub.mockRestore();
    }
  });
});

describe('the loader and delivery-lab check read the same attributes as options', () => {
  it("public/embed.js's NOT_OPTIONS is ELEMENT_NOT_OPTIONS", () => {
    // The loader is plain JS served as is (no build step, no import): its pattern is pinned here.
    const source = /const NOT_OPTIONS =\s*\/(.+)\/;/.exec(loader)?.[1];
    expect(source).toBe(ELEMENT_NOT_OPTIONS.source);
  });
});
