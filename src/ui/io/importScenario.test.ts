import { describe, expect, it } from 'vitest';
import { encodeShare } from '../../platform/share';
import { findPreset } from '../../scenarios';
import { importFile, importText, looksImportable } from './importScenario';

const good = { version: 1, name: 'ok', workload: { generate: { count: 2 } } };

describe('import', () => {
  it('gives back the scenario as written, or issues with field paths', async () => {
    expect(importText(JSON.stringify(good))).toMatchObject({ ok: true, input: good, name: 'ok' });
    const bad = importText(JSON.stringify({ ...good, producer: { acks: 'some' } }));
    expect(bad.ok).toBe(false);
    // One line of JSON: every field is on line 1.
    expect(!bad.ok && bad.lines.some((l) => l.startsWith('(pasted text):1: producer.acks: '))).toBe(
      true,
    );
    expect(importText('')).toMatchObject({ ok: false });
    const file = await importFile({
      name: 'x.json',
      size: 30,
      text: async () => '\uFEFF' + JSON.stringify(good),
    });
    expect(file).toMatchObject({ ok: true, input: good, from: '“x.json”' });
  });

  it('a JSON syntax error names its line and column, as `delivery-lab` prints it', async () => {
    // Position 29 is the text's end: line 2 (one \n before it, at 14), column 29 − 14 = 15.
    const text = '{"version": 1,\n  "name": "abc';
    const expected = 'not valid JSON: Unterminated string in JSON at position 29';
    const file = await importFile({ name: 'x.json', size: text.length, text: async () => text });
    expect(file).toMatchObject({ ok: false, lines: [`x.json:2:15: ${expected}`] });
    expect(importText(text)).toMatchObject({
      ok: false,
      lines: [`(pasted text):2:15: ${expected}`],
    });
  });

  it('a pasted share link opens its scenario', () => {
    const link = `https://lab.example/?preset=a#${encodeShare(good as never)}`;
    expect(importText(link)).toMatchObject({ ok: true, input: good, from: 'the share link' });
    expect(importText('https://lab.example/#s=1.AAAA')).toMatchObject({
      ok: false,
      from: 'the share link',
    });
  });

  it('a pasted link wrapped by a mail client (line breaks, spaces inside) opens as the link', () => {
    const link = `https://lab.example/?preset=a#${encodeShare(good as never)}`;
    const wrapped = `${link.slice(0, 30)}\r\n ${link.slice(30, 54)}\n${link.slice(54, 70)} \t${link.slice(70)}\n`;
    expect(importText(wrapped)).toMatchObject({ ok: true, input: good, from: 'the share link' });
    expect(
      importText('https://lab.example/?pre\nset=payment-resent-by-app/plain-insert'),
    ).toMatchObject({ ok: true, presetRef: 'payment-resent-by-app/plain-insert' });
    // Scenario JSON keeps its whitespace (a name with spaces).
    const spaced = { ...good, name: 'two  words' };
    expect(importText(JSON.stringify(spaced, null, 2))).toMatchObject({ ok: true, input: spaced });
  });

  it('a pasted page link naming a preset opens that preset, as the page and the CLI do', () => {
    const r = importText('  https://lab.example/?preset=payment-resent-by-app/plain-insert \n');
    expect(r).toMatchObject({
      ok: true,
      from: 'the preset link',
      presetRef: 'payment-resent-by-app/plain-insert',
    });
    expect(r.ok && r.input).toEqual(
      findPreset('payment-resent-by-app/plain-insert')!.variant.scenario,
    );
    // A bare id opens its default variant; the query alone will do.
    const bare = importText('?preset=Payment-Resent-By-App&embed=1');
    const first = findPreset('payment-resent-by-app')!;
    expect(bare).toMatchObject({
      ok: true,
      presetRef: `payment-resent-by-app/${first.variant.id}`,
    });
    expect(importText('https://lab.example/?preset=no-such-thing')).toEqual({
      ok: false,
      from: 'the preset link',
      lines: ['preset: No preset “no-such-thing” in the library.'],
    });
    expect(importText('https://lab.example/?theme=dark')).toMatchObject({
      ok: false,
      lines: [expect.stringContaining("a preset ('?preset=…'); this one has neither")],
    });
  });

  it('labels a problem with the whole input by what it was: pasted text, link or file', async () => {
    expect(importText('{"version":1')).toMatchObject({
      ok: false,
      from: 'the pasted text',
      lines: [expect.stringMatching(/^\(pasted text\):1:13: not valid JSON: /)],
    });
    // "nope": "n" may begin null, "o" cannot continue it — line 1, column 2.
    const file = await importFile({ name: 'x.json', size: 3, text: async () => 'nope' });
    expect(file).toMatchObject({
      ok: false,
      lines: [expect.stringMatching(/^x\.json:1:2: not valid JSON: /)],
    });
  });

  it('an empty share link says it is empty', () => {
    for (const link of ['#s=1.', 'https://lab.example/#s=1.', 'https://lab.example/#s='])
      expect(importText(link)).toEqual({
        ok: false,
        from: 'the share link',
        lines: ['share link: empty, it carries no scenario (was it cut short?)'],
      });
  });

  it('an oversized file is refused before it is read', async () => {
    let read = false;
    const r = await importFile({
      name: 'huge.json',
      size: 1e10,
      text: async () => {
        read = true;
        return '';
      },
    });
    expect(r.ok).toBe(false);
    expect(read).toBe(false);
  });
});

describe('a paste on the page', () => {
  it('is taken for scenario JSON, a share link (damaged too) or a preset link, wrapped or not', () => {
    expect(looksImportable('{ "version": 1 }')).toBe(true);
    expect(looksImportable('https://lab.example/#s=2.garbage')).toBe(true);
    expect(looksImportable('https://lab.example/?preset=at-least-once')).toBe(true);
    expect(looksImportable('https://lab.example/?x=1&pre\n  set=at-least-once')).toBe(true);
    expect(looksImportable('?preset=nope')).toBe(true);
  });

  it('is left alone when it is anything else: a word, another address, an empty preset', () => {
    expect(looksImportable('hello')).toBe(false);
    expect(looksImportable('https://kafka.apache.org/documentation/')).toBe(false);
    expect(looksImportable('https://lab.example/?preset=')).toBe(false);
    expect(looksImportable('see ?preset=x')).toBe(false);
  });
});
