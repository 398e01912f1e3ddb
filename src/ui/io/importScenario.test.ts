import { describe, expect, it } from 'vitest';
import { encodeShare } from '../../platform/share';
import { importFile, importText } from './importScenario';

const good = { version: 1, name: 'ok', workload: { generate: { count: 2 } } };

describe('import', () => {
  it('gives back the scenario as written, or issues with field paths', async () => {
    expect(importText(JSON.stringify(good))).toMatchObject({ ok: true, input: good, name: 'ok' });
    const bad = importText(JSON.stringify({ ...good, producer: { acks: 'some' } }));
    expect(bad.ok).toBe(false);
    expect(!bad.ok && bad.lines.some((l) => l.startsWith('producer.acks: '))).toBe(true);
    expect(importText('')).toMatchObject({ ok: false });
    const file = await importFile({
      name: 'x.json',
      size: 30,
      text: async () => '\uFEFF' + JSON.stringify(good),
    });
    expect(file).toMatchObject({ ok: true, input: good, from: '“x.json”' });
  });

  it('a pasted share link opens its scenario', () => {
    const link = `https://lab.example/?preset=a#${encodeShare(good as never)}`;
    expect(importText(link)).toMatchObject({ ok: true, input: good, from: 'the share link' });
    expect(importText('https://lab.example/#s=1.AAAA')).toMatchObject({
      ok: false,
      from: 'the share link',
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
