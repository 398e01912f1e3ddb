import { describe, expect, it } from 'vitest';
import loader from '../../../public/embed.js?raw';
import { addressAs, embedElementSnippet } from './embedElement';
import { EMBED_PARAMS } from './embedOptions';

describe('the loader snippet', () => {
  const url = 'https://docs.example.org/lab/?embed&predict=1&caption=A+%22lost%22+ack&t=1#s=2.abc';

  it('names the loader beside the lab and the options as attributes, with no origin in relative form', () => {
    expect(embedElementSnippet(url, 'absolute')).toBe(
      `<script src="https://docs.example.org/lab/embed.js" defer></script>
<delivery-lab-embed predict caption="A &quot;lost&quot; ack" t="1" scenario-hash="s=2.abc"></delivery-lab-embed>
`,
    );
    const relative = embedElementSnippet(url, 'relative');
    expect(relative).toContain('<script src="/lab/embed.js" defer>');
    expect(relative).not.toContain('docs.example.org');
  });

  it('writes an address from the site root in relative form', () => {
    expect(addressAs(url, 'relative')).toBe(
      '/lab/?embed&predict=1&caption=A+%22lost%22+ack&t=1#s=2.abc',
    );
    expect(addressAs(url, 'absolute')).toBe(url);
  });
});

describe('the loader and the player read the same options', () => {
  it("public/embed.js's OPTIONS are EMBED_PARAMS but the scenario's (embed, preset)", () => {
    // The loader is plain JS served as is (no build step, no import): its list is pinned here.
    const list = /const OPTIONS = \[([^\]]*)\]/.exec(loader)?.[1] ?? '';
    const options = [...list.matchAll(/'([^']+)'/g)].map((m) => m[1]);
    expect(options).toEqual(EMBED_PARAMS.filter((p) => p !== 'embed' && p !== 'preset'));
  });
});
