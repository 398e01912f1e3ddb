import { describe, expect, it } from 'vitest';
import loader from '../../../public/embed.js?raw';
import { addressAs, embedElementSnippet } from './embedElement';
import { EMBED_PARAMS } from './embedOptions';

describe('the loader snippet', () => {
  const url = 'https://docs.example.org/lab/?embed&predict=1&caption=A+%22lost%22+ack&t=1#s=2.abc';

  it('names the loader beside the lab and the options as attributes, with no origin in relative form', () => {
    expect(embedElementSnippet(url, 'absolute')).toBe(
      `<script src="https://docs.example.org/lab/embed.js"></script>
<delivery-lab-embed predict caption="A &quot;lost&quot; ack" t="1" scenario-hash="s=2.abc">
  <a href="https://docs.example.org/lab/#s=2.abc">Open “A "lost" ack” in Delivery Lab</a>
</delivery-lab-embed>
`,
    );
    const relative = embedElementSnippet(url, 'relative');
    expect(relative).toContain('<script src="/lab/embed.js">');
    expect(relative).toContain('<a href="/lab/#s=2.abc">');
    expect(relative).not.toContain('docs.example.org');
  });

  it('holds a link to the same scenario on the lab’s page, for a page where the loader does not run', () => {
    // A preset: its page (?preset=…), named by the preset where no caption names it.
    expect(
      embedElementSnippet(
        'https://docs.example.org/lab/?embed&preset=at-least-once&autoplay=1',
        'relative',
      ),
    ).toContain('<a href="/lab/?preset=at-least-once">Open “at-least-once” in Delivery Lab</a>');
    // Markup in a caption stays text.
    expect(
      embedElementSnippet(
        'https://docs.example.org/lab/?embed&caption=%3Cb%3Ex%3C%2Fb%3E#s=2.a',
        'absolute',
      ),
    ).toContain('>Open “&lt;b&gt;x&lt;/b&gt;” in Delivery Lab</a>');
  });

  it('writes an address from the site root in relative form', () => {
    expect(addressAs(url, 'relative')).toBe(
      '/lab/?embed&predict=1&caption=A+%22lost%22+ack&t=1#s=2.abc',
    );
    expect(addressAs(url, 'absolute')).toBe(url);
  });
});

describe('the loader and the player read the same options', () => {
  it("public/embed.js's OPTIONS are EMBED_PARAMS but the scenario's (embed, preset, file)", () => {
    // The loader is plain JS served as is (no build step, no import): its list is pinned here.
    const list = /const OPTIONS = \[([^\]]*)\]/.exec(loader)?.[1] ?? '';
    const options = [...list.matchAll(/'([^']+)'/g)].map((m) => m[1]);
    expect(options).toEqual(
      EMBED_PARAMS.filter((p) => p !== 'embed' && p !== 'preset' && p !== 'file'),
    );
  });
});
