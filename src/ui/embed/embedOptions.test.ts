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
  EMBED_PARAMS,
  likelyEmbedParam,
  unknownEmbedNotice,
  unknownEmbedParams,
} from './embedOptions';
import { PRESET_PARAM } from '../../platform/presetUrl';

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

describe('unknown embed options: the author is told (a notice), the embed plays on', () => {
  it('every option the embed writes or reads is known: no notice', () => {
    const all = embedQuery(
      {
        ...DEFAULT_EMBED,
        autoplay: true,
        start: 5,
        speed: 2,
        panels: ['why'],
        caption: 'c',
        lock: true,
        predict: true,
        question: 'Q',
        answer: 'A',
        frameId: 'f',
      },
      'at-least-once/default',
    );
    expect(unknownEmbedParams(all)).toEqual([]);
    expect(unknownEmbedNotice(all)).toBeNull();
    expect(unknownEmbedNotice('?embed')).toBeNull();
    // The page's own `?preset=` parameter, by the same name.
    expect(EMBED_PARAMS).toContain(PRESET_PARAM);
    expect(EMBED_PARAMS).toHaveLength(12);
  });

  it('lists each unknown name once, in order; case counts (Autoplay is not autoplay); empty names are not parameters', () => {
    expect(unknownEmbedParams('?embed&autoply=1&Autoplay=1&foo=2&autoply=3&&=x&t=5')).toEqual([
      'autoply',
      'Autoplay',
      'foo',
    ]);
  });

  it('guesses the option meant: another case, one edit from 4+ letters, two from 6+; never a one-letter one', () => {
    expect(likelyEmbedParam('Autoplay')).toBe('autoplay');
    expect(likelyEmbedParam('T')).toBe('t');
    expect(likelyEmbedParam('autoply')).toBe('autoplay'); // one letter missing
    expect(likelyEmbedParam('captoin')).toBe('caption'); // two swapped: 2 edits, 7 letters
    expect(likelyEmbedParam('pannels')).toBe('panels');
    expect(likelyEmbedParam('lok')).toBe('lock');
    expect(likelyEmbedParam('presets')).toBe('preset');
    expect(likelyEmbedParam('loc')).toBe('lock');
    expect(likelyEmbedParam('x')).toBeNull(); // one edit from t, q and a: no guess
    expect(likelyEmbedParam('ids')).toBeNull(); // `id` has 2 letters: case only
    expect(likelyEmbedParam('spd')).toBeNull(); // 2 edits from `speed` (5 letters: 1 allowed)
    expect(likelyEmbedParam('utm_source')).toBeNull();
  });

  it('the notice names the unknown options, the likely one meant, and lists the known ones', () => {
    expect(unknownEmbedNotice('?embed&autoply=1&preset=at-least-once')).toEqual({
      tone: 'warn',
      text: 'This embed ignores an option it does not know. Its options: embed, preset, autoplay, t, speed, panels, caption, lock, predict, q, a, id.',
      lines: ['“autoply” — did you mean “autoplay”?'],
    });
    const long = 'z'.repeat(100);
    expect(unknownEmbedNotice(`?embed&Lock=1&${long}=1&captoin=Hi`)).toEqual({
      tone: 'warn',
      text: 'This embed ignores 3 options it does not know. Its options: embed, preset, autoplay, t, speed, panels, caption, lock, predict, q, a, id.',
      lines: [
        '“Lock” — did you mean “lock”?',
        `“${'z'.repeat(40)}…”`,
        '“captoin” — did you mean “caption”?',
      ],
    });
  });
});
