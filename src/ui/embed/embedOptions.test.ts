import { describe, expect, it } from 'vitest';
import {
  DEFAULT_EMBED,
  attr,
  embedQuery,
  embedSnippet,
  DEFAULT_PANELS,
  isEmbed,
  parseEmbedOptions,
  parsePanels,
} from './embedOptions';

describe('embed options', () => {
  it('a bare ?embed gets the defaults', () => {
    expect(isEmbed('?embed')).toBe(true);
    expect(isEmbed('?preset=x')).toBe(false);
    expect(parseEmbedOptions('?embed')).toEqual(DEFAULT_EMBED);
  });

  it('round-trips through the query string', () => {
    const o = {
      ...DEFAULT_EMBED,
      autoplay: true,
      start: 40000,
      speed: 0.5,
      panels: ['pipeline' as const, 'why' as const],
      caption: 'A lost ack & a retry',
      lock: true,
      predict: true,
      question: 'How many rows?',
      answer: '24',
      frameId: 'lesson-1',
    };
    const q = embedQuery(o, 'at-least-once/default');
    expect(q).toBe(
      '?embed&preset=at-least-once%2Fdefault&autoplay=1&t=40000&speed=0.5&panels=pipeline%2Cwhy&caption=A+lost+ack+%26+a+retry&lock=1&predict=1&q=How+many+rows%3F&a=24&id=lesson-1',
    );
    expect(parseEmbedOptions(q)).toEqual(o);
    expect(embedQuery(DEFAULT_EMBED)).toBe('?embed');
  });

  it('malformed values fall back; text is cut and loses control characters', () => {
    const o = parseEmbedOptions(
      `?embed&t=-5&speed=1e9&panels=nope,verdict&autoplay=0&caption=${encodeURIComponent('a\nb\u0000c' + 'x'.repeat(500))}`,
    );
    expect(o.start).toBe(0);
    expect(o.speed).toBeNull();
    expect(o.panels).toEqual(['verdict']);
    expect(o.autoplay).toBe(false);
    expect(o.caption.startsWith('a b c')).toBe(true);
    expect(o.caption.length).toBe(200);
  });
});

describe('the panels option (docs/embed.md: a malformed value falls back to its default)', () => {
  it('ignores unknown names and keeps the known ones, in display order', () => {
    expect(parsePanels('xyz,verdict')).toEqual(['verdict']);
    expect(parsePanels(' Why , pipeline,,')).toEqual(['pipeline', 'why']);
  });

  it('falls back to the default set when no name is a panel', () => {
    for (const bad of ['xyz', '', ',,', 'Pipelines', null])
      expect(parsePanels(bad)).toEqual([...DEFAULT_PANELS]);
    expect(parseEmbedOptions('?embed&panels=xyz&t=-5')).toEqual(DEFAULT_EMBED);
    expect(parseEmbedOptions('?embed&panels=').panels).toEqual([...DEFAULT_PANELS]);
  });
});

describe('the iframe snippet', () => {
  it('escapes attributes and checks the source and origin of messages', () => {
    const s = embedSnippet('https://docs.example/lab/?embed&caption=%3Cb%3E#s=1.abc', {
      title: 'Delivery Lab: "<b>x</b>" & more',
      frameId: 'f1',
      height: 480,
    });
    expect(s).toContain(
      '<iframe id="f1" src="https://docs.example/lab/?embed&amp;caption=%3Cb%3E#s=1.abc"',
    );
    expect(s).toContain('title="Delivery Lab: &quot;&lt;b&gt;x&lt;/b&gt;&quot; &amp; more"');
    expect(s).toContain('height: 480px');
    expect(s).toContain('event.source !== frame.contentWindow');
    expect(s).toContain('event.origin !== "https://docs.example"');
    expect(attr('<"&>')).toBe('&lt;&quot;&amp;&gt;');
  });
});
