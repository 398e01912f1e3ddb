import { describe, expect, it } from 'vitest';
import { parseEmbedOptions, embedQuery, DEFAULT_EMBED, invalidEmbedValues } from './embedOptions';
import { isCompact, themeFromMessage } from './embedLook';
import { readHeight } from '../../views/io/embedValues';

describe('embed look options', () => {
  it('picks the compact layout by width unless layout= forces one', () => {
    // 760 px is the widest docs column that gets it (COMPACT_MAX_WIDTH); 1280 px is a dashboard.
    expect(isCompact('auto', 480)).toBe(true);
    expect(isCompact('auto', 760)).toBe(true);
    expect(isCompact('auto', 761)).toBe(false);
    expect(isCompact('compact', 1280)).toBe(true);
    expect(isCompact('full', 480)).toBe(false);
  });

  it('reads layout, theme and height, and writes them back only when not the default', () => {
    const o = parseEmbedOptions('?embed&layout=Compact&theme=host&height=640');
    expect([o.layout, o.theme, o.height]).toEqual(['compact', 'host', 640]);
    expect(embedQuery(o)).toBe('?embed&layout=compact&theme=host&height=640');
    expect(embedQuery(DEFAULT_EMBED)).toBe('?embed');
  });

  it('falls back from a value it cannot use, and says so', () => {
    const o = parseEmbedOptions('?embed&layout=tiny&theme=pink&height=abc');
    expect([o.layout, o.theme, o.height]).toEqual(['auto', 'auto', null]);
    expect(invalidEmbedValues('?embed&layout=tiny&theme=pink&height=abc')).toEqual([
      '“layout=tiny” — not a choice: used auto (layout: auto, compact, full)',
      '“theme=pink” — not a choice: used auto (theme: auto, light, dark, host)',
      '“height=abc” — not a number: sized to the run (height: CSS px, 200 to 4000)',
    ]);
    expect(readHeight('50').value).toBe(200);
  });

  it('reads the host theme message and nothing else', () => {
    expect(themeFromMessage({ type: 'delivery-lab:theme', theme: 'dark' })).toBe('dark');
    expect(themeFromMessage({ type: 'delivery-lab:theme', theme: 'blue' })).toBeNull();
    expect(themeFromMessage({ type: 'delivery-lab:height', theme: 'dark' })).toBeNull();
    expect(themeFromMessage('dark')).toBeNull();
  });
});
