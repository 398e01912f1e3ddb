import { describe, expect, it } from 'vitest';
import {
  withSharePrediction,
  DEFAULT_EMBED,
  attr,
  embedQuery,
  embedSnippet,
  DEFAULT_PANELS,
  isEmbed,
  parseEmbedOptions,
  parsePanels,
  EMBED_PARAMS,
  invalidEmbedValues,
  likelyEmbedParam,
  speedChoices,
  startPastEndLine,
  embedOptionsNotice,
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
    // Out of range, a speed goes to the nearest end of it (the lab's fastest, ×1000).
    expect(o.speed).toBe(1000);
    expect(o.panels).toEqual(['verdict']);
    expect(o.autoplay).toBe(false);
    expect(o.caption.startsWith('a b c')).toBe(true);
    expect(o.caption.length).toBe(200);
  });
});

describe('a share link’s “Predict first” (p=) in an embed', () => {
  const asks = { ask: true as const, question: 'How many rows?', answer: '11 rows' };
  const read = (search: string, shared: Parameters<typeof withSharePrediction>[2]) =>
    withSharePrediction(parseEmbedOptions(search), search, shared);

  it('p=1 asks its question, as the page does; p=0 and no p ask nothing', () => {
    expect(read('?embed&autoplay=1', asks)).toEqual({
      ...DEFAULT_EMBED,
      autoplay: true,
      predict: true,
      question: 'How many rows?',
      answer: '11 rows',
    });
    // No question written: the embed's own (a preset's, else the generic one), as predict=1.
    expect(read('?embed', { ask: true, question: '', answer: '' })).toEqual({
      ...DEFAULT_EMBED,
      predict: true,
    });
    expect(read('?embed', { ask: false })).toEqual(DEFAULT_EMBED);
    expect(read('?embed', null)).toEqual(DEFAULT_EMBED);
  });

  it('the embed’s own predict= decides; the link’s question fills in a q= and a= left out', () => {
    expect(read('?embed&predict=0', asks)).toEqual(DEFAULT_EMBED);
    expect(read('?embed&predict=1', asks)).toMatchObject({
      predict: true,
      question: 'How many rows?',
      answer: '11 rows',
    });
    expect(read('?embed&predict=1&q=Mine%3F', asks)).toMatchObject({
      predict: true,
      question: 'Mine?',
      answer: '',
    });
    expect(read('?embed&predict=1', { ask: false })).toMatchObject({ predict: true, question: '' });
    // Without predict=, a q= is not asked (the notice says so): the link's question is.
    expect(read('?embed&q=Mine%3F', asks)).toMatchObject({
      predict: true,
      question: 'How many rows?',
    });
    expect(read('?embed&q=Mine%3F', { ask: false })).toMatchObject({
      predict: false,
      question: '',
    });
  });
});

describe('the panels option (docs/embed.md: a malformed value falls back to its default)', () => {
  it('ignores unknown names and keeps the known ones, in display order', () => {
    expect(parsePanels('xyz,verdict')).toEqual(['verdict']);
    expect(parsePanels(' Why , pipeline,,')).toEqual(['pipeline', 'why']);
    // Compare: the lanes of the link (c=), src/ui/compare/EmbedCompare.tsx.
    expect(parsePanels('compare,pipeline')).toEqual(['pipeline', 'compare']);
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
    // The frame the message came from (src/ui/embed/embedSnippetListener.test.ts runs it).
    expect(s).toContain('(f) => f.contentWindow === event.source');
    expect(s).toContain('event.origin !== "https://docs.example"');
    // No Frame id, no id attribute: two snippets on a page would share one.
    expect(embedSnippet('https://docs.example/lab/?embed', { title: 'x' })).toMatch(
      /^<iframe src="/,
    );
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
        layout: 'compact',
        theme: 'host',
        height: 600,
      },
      'at-least-once/default',
    );
    expect(unknownEmbedParams(all)).toEqual([]);
    expect(embedOptionsNotice(all)).toBeNull();
    expect(embedOptionsNotice('?embed')).toBeNull();
    // The page's own `?preset=` parameter, by the same name.
    expect(EMBED_PARAMS).toContain(PRESET_PARAM);
    expect(EMBED_PARAMS).toHaveLength(16);
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
    expect(embedOptionsNotice('?embed&autoply=1&preset=at-least-once')).toEqual({
      tone: 'warn',
      text: 'This embed ignores an option it does not know. Its options: embed, preset, file, autoplay, t, speed, panels, caption, lock, predict, q, a, id, layout, theme, height.',
      lines: ['“autoply” — did you mean “autoplay”?'],
    });
    const long = 'z'.repeat(100);
    expect(embedOptionsNotice(`?embed&Lock=1&${long}=1&captoin=Hi`)).toEqual({
      tone: 'warn',
      text: 'This embed ignores 3 options it does not know. Its options: embed, preset, file, autoplay, t, speed, panels, caption, lock, predict, q, a, id, layout, theme, height.',
      lines: [
        '“Lock” — did you mean “lock”?',
        `“${'z'.repeat(40)}…”`,
        '“captoin” — did you mean “caption”?',
      ],
    });
  });

  it('a misspelt attribute of the loader’s element (expects, expect_file, scenario_hash), passed on by the loader: the attribute meant', () => {
    // The loader passes an attribute it does not know to the player, which named it bare: the
    // pin or the scenario the author meant was nowhere in the notice.
    expect(
      embedOptionsNotice('?embed&preset=x&expects=%7B%7D&expect_file=p.json&scenario_hash=2.a')!
        .lines,
    ).toEqual([
      '“expects” — did you mean the element’s “expect” (the pin delivery-lab check compares the run with; misspelt, the embed is not pinned)?',
      '“expect_file” — did you mean the element’s “expect-file” (a file beside the page holding the pin; misspelt, the embed is not pinned)?',
      "“scenario_hash” — did you mean the element’s “scenario-hash” (the scenario, a share link's s=2.…; misspelt, the embed plays nothing)?",
    ]);
  });
});

describe('option values the embed cannot use as written: the notice says what was used and what the option takes', () => {
  const SPEED = '(speed: 0.001 to 1000, virtual ms per real ms)';
  const T = '(t: a virtual time in ms, from 0 to the run’s end)';
  const PANELS = '(panels: pipeline, transport, counters, verdict, why, compare)';

  it('speed: not a number or not above 0 plays at the lab’s ×0.01; out of range, at the nearest end', () => {
    const line = (v: string) => invalidEmbedValues(`?embed&speed=${v}`);
    expect(line('abc')).toEqual([
      `“speed=abc” — not a number: played at the scenario’s own pace ${SPEED}`,
    ]);
    expect(line('')).toEqual([
      `“speed=” — not a number: played at the scenario’s own pace ${SPEED}`,
    ]);
    expect(line('0')).toEqual([
      `“speed=0” — not above 0: played at the scenario’s own pace ${SPEED}`,
    ]);
    expect(line('1e9')).toEqual([`“speed=1e9” — above the fastest: played at ×1000 ${SPEED}`]);
    expect(line('0.0001')).toEqual([
      `“speed=0.0001” — below the slowest: played at ×0.001 ${SPEED}`,
    ]);
    expect(parseEmbedOptions('?embed&speed=abc').speed).toBeNull();
    expect(parseEmbedOptions('?embed&speed=0').speed).toBeNull();
    expect(parseEmbedOptions('?embed&speed=0.0001').speed).toBe(0.001);
    // In range, and at both ends: no line.
    for (const ok of ['0.001', '0.5', '1000', '2e-3']) expect(line(ok), ok).toEqual([]);
    expect(parseEmbedOptions('?embed&speed=2e-3').speed).toBe(0.002);
  });

  it('t: not a number or negative opens at 0; past the run’s end is said once the run is known', () => {
    expect(invalidEmbedValues('?embed&t=abc')).toEqual([
      `“t=abc” — not a number: opened at 0 ms ${T}`,
    ]);
    expect(invalidEmbedValues('?embed&t=-5')).toEqual([
      `“t=-5” — before the run’s start: opened at 0 ms ${T}`,
    ]);
    expect(invalidEmbedValues('?embed&t=')).toEqual([`“t=” — not a number: opened at 0 ms ${T}`]);
    // A fraction of a millisecond is dropped without a word: 1.5 opens at 1.
    expect(invalidEmbedValues('?embed&t=1.5')).toEqual([]);
    expect(parseEmbedOptions('?embed&t=1.5').start).toBe(1);
    expect(startPastEndLine(99_999, 61_234)).toBe(
      '“t=99999” — past the run’s end, 61,234 ms: opened at its end (t: a virtual time in ms, from 0 to 61,234)',
    );
    expect(startPastEndLine(61_234, 61_234)).toBeNull();
    expect(startPastEndLine(0, 0)).toBeNull();
  });

  it('panels: a name that is no panel is named (with the one meant), the others shown; none at all, the default', () => {
    expect(invalidEmbedValues('?embed&panels=bogus,verdict')).toEqual([
      `“panels=bogus,verdict” — no panel “bogus”: showed verdict ${PANELS}`,
    ]);
    expect(invalidEmbedValues('?embed&panels=verdcit,why,bogus,bogus')).toEqual([
      `“panels=verdcit,why,bogus,bogus” — no panel “verdcit” (did you mean “verdict”?), “bogus”: showed why ${PANELS}`,
    ]);
    expect(invalidEmbedValues('?embed&panels=xyz')).toEqual([
      `“panels=xyz” — no panel “xyz”: showed the default, pipeline, transport, counters, verdict ${PANELS}`,
    ]);
    expect(invalidEmbedValues('?embed&panels=')).toEqual([
      `“panels=” — names no panel: showed the default, pipeline, transport, counters, verdict ${PANELS}`,
    ]);
    // Case, spaces and empty names are not mistakes.
    expect(invalidEmbedValues('?embed&panels= Why ,pipeline,,')).toEqual([]);
  });

  it('switches: 0/false/no/off in any case are off; another value is read as on and said', () => {
    expect(parseEmbedOptions('?embed&lock=off&autoplay=False&predict=NO')).toMatchObject({
      lock: false,
      autoplay: false,
      predict: false,
    });
    expect(invalidEmbedValues('?embed&lock=off&autoplay=False&predict=NO')).toEqual([]);
    expect(parseEmbedOptions('?embed&lock&autoplay=Yes&predict=on')).toMatchObject({
      lock: true,
      autoplay: true,
      predict: true,
    });
    expect(invalidEmbedValues('?embed&lock=maybe')).toEqual([
      '“lock=maybe” — neither on nor off: read as on (lock: 1, true, yes or on; 0, false, no or off)',
    ]);
    expect(parseEmbedOptions('?embed&lock=maybe').lock).toBe(true);
  });

  it('text cut to size is said; a question without predict=1 is not asked, which is said', () => {
    expect(invalidEmbedValues(`?embed&caption=${'x'.repeat(250)}`)).toEqual([
      '“caption” — 250 characters: cut to its first 200 (caption: at most 200)',
    ]);
    expect(invalidEmbedValues(`?embed&predict=1&q=Q&a=${'y'.repeat(601)}`)).toEqual([
      '“a” — 601 characters: cut to its first 600 (a: at most 600)',
    ]);
    expect(invalidEmbedValues('?embed&q=How+many%3F&a=3')).toEqual([
      '“q” and “a” — asked only with predict=1, which this address does not have: not asked',
    ]);
    expect(invalidEmbedValues('?embed&a=3')).toEqual([
      '“a” — asked only with predict=1, which this address does not have: not asked',
    ]);
    expect(invalidEmbedValues('?embed&predict=1&q=How+many%3F&a=3')).toEqual([]);
  });

  it('one notice: the unknown names first, then the values; a hostile value is quoted cut short', () => {
    expect(embedOptionsNotice('?embed&speed=abc&panels=bogus,verdict')).toEqual({
      tone: 'warn',
      text: 'This embed could not use 2 options as written:',
      lines: [
        `“speed=abc” — not a number: played at the scenario’s own pace ${SPEED}`,
        `“panels=bogus,verdict” — no panel “bogus”: showed verdict ${PANELS}`,
      ],
    });
    expect(embedOptionsNotice('?embed&t=-1')).toEqual({
      tone: 'warn',
      text: 'This embed could not use an option as written:',
      lines: [`“t=-1” — before the run’s start: opened at 0 ms ${T}`],
    });
    expect(embedOptionsNotice('?embed&autoply=1&speed=1e9')).toEqual({
      tone: 'warn',
      text: 'This embed ignores an option it does not know and could not use an option as written. Its options: embed, preset, file, autoplay, t, speed, panels, caption, lock, predict, q, a, id, layout, theme, height.',
      lines: [
        '“autoply” — did you mean “autoplay”?',
        `“speed=1e9” — above the fastest: played at ×1000 ${SPEED}`,
      ],
    });
    expect(embedOptionsNotice(`?embed&speed=${'9'.repeat(100)}`)!.lines).toEqual([
      `“speed=${'9'.repeat(40)}…” — above the fastest: played at ×1000 ${SPEED}`,
    ]);
    // What the Embed dialog writes is never wrong.
    expect(
      embedOptionsNotice(
        embedQuery({
          ...DEFAULT_EMBED,
          speed: 0.001,
          start: 1,
          panels: ['why'],
          predict: true,
          question: 'Q',
        }),
      ),
    ).toBeNull();
  });
});

describe('the Embed dialog’s speed choices', () => {
  it('the default first, then the 1-2-5 ladder; the lab’s speed now in its place when on neither', () => {
    const labels = (x: number) => speedChoices(x).map((c) => c.label);
    const values = (x: number) => speedChoices(x).map((c) => c.value);
    const ladder = [0.001, 0.002, 0.005, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 100, 1000];
    expect(values(0.01)).toEqual([null, ...ladder]);
    // In the words the page's speed says it (formatSpeedShown), then the speed= it writes:
    // 1000 / 0.01 = 100,000 ms = 1.7 min; 1000 / 0.001 = 1,000,000 ms = 17 min.
    expect(labels(0.01)[0]).toBe('1 s in 1.7 min, the run’s own pace (as it plays now)');
    expect(labels(0.01)[1]).toBe('1 s in 17 min (speed=0.001)');
    expect(labels(0.1)[0]).toBe('1 s in 1.7 min, the run’s own pace');
    expect(labels(0.1)[6]).toBe('1 s in 10 s (speed=0.1, as the lab plays now)');
    expect(values(0.037)).toEqual([
      null,
      0.001,
      0.002,
      0.005,
      0.02,
      0.037,
      0.05,
      ...ladder.slice(5),
    ]);
    // 1000 / 0.037 = 27,027 ms.
    expect(labels(0.037)[5]).toBe('1 s in 27 s (speed=0.037, as the lab plays now)');
    // The fast end: 1000 / 1000 = 1 ms.
    expect(labels(0.037).at(-1)).toBe('1 s in 1 ms (speed=1000)');
  });

  it('the default is the run’s own pace, which an embed without speed= plays at — not ×0.01', () => {
    // lost-ack-retry plays at ×0.0056 in the lab and in its embed; the dialog offered
    // "×0.01, the lab’s default" for the choice that writes no speed=. 1000 / 0.0056 = 3 min.
    const choices = speedChoices(0.0056, 0.0056);
    expect(choices[0]).toEqual({
      value: null,
      label: '1 s in 3 min, the run’s own pace (as it plays now)',
    });
    // Not offered twice: the pace is the default's.
    expect(choices.filter((c) => c.value === 0.0056)).toEqual([]);
    expect(speedChoices(0.05, 0.0056)[0]!.label).toBe('1 s in 3 min, the run’s own pace');
  });

  it('every choice goes through the address as it is, without a word in the notice', () => {
    for (const c of speedChoices(0.037)) {
      const q = embedQuery({ ...DEFAULT_EMBED, speed: c.value });
      expect(parseEmbedOptions(q).speed, q).toBe(c.value);
      expect(embedOptionsNotice(q), q).toBeNull();
    }
    expect(embedQuery({ ...DEFAULT_EMBED, speed: 0.1 })).toBe('?embed&speed=0.1');
  });
});
