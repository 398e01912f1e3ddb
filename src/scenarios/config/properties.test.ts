/**
 * The .properties reader against java.util.Properties#load's rules
 * (https://docs.oracle.com/en/java/javase/21/docs/api/java.base/java/util/Properties.html#load(java.io.Reader)).
 * Each expectation is what Java's load gives for the same text, read off the spec's examples.
 */
import { describe, expect, it } from 'vitest';
import { parseProperties } from './properties';

function entries(text: string) {
  const r = parseProperties(text);
  if (!r.ok) throw new Error(`${r.line}: ${r.message}`);
  return Object.fromEntries(r.entries.map((e) => [e.key, e.value]));
}

describe('parseProperties', () => {
  it('separators: =, :, blanks, and blanks around them (the spec\'s three "Truth" lines)', () => {
    expect(entries('Truth = Beauty\n  Truth:Beauty\nTruth                    :Beauty')).toEqual({
      Truth: 'Beauty',
    });
    expect(entries('a=1\nb: 2\nc 3\nd\t=\t4\ne\f5')).toEqual({
      a: '1',
      b: '2',
      c: '3',
      d: '4',
      e: '5',
    });
  });

  it('comments (# and ! as the first non-blank character) and blank lines are skipped', () => {
    expect(entries('# a comment\n   ! another\n\n \t\nk=v # not a comment\n')).toEqual({
      k: 'v # not a comment',
    });
  });

  it('continuation lines: an odd number of trailing backslashes joins the next line, its leading blanks dropped', () => {
    // The spec's example: "fruits apple, banana, pear, \ cantaloupe…" gives one value.
    expect(
      entries(
        'fruits                           apple, banana, pear, \\\n                                 cantaloupe, watermelon, \\\n                                 kiwi, mango',
      ),
    ).toEqual({ fruits: 'apple, banana, pear, cantaloupe, watermelon, kiwi, mango' });
    // Two backslashes are one escaped backslash: no continuation.
    expect(entries('path=C:\\\\\nnext=1')).toEqual({ path: 'C:\\', next: '1' });
  });

  it('escapes: \\t \\n \\r \\f, \\uXXXX, an escaped separator in the key, any other \\c is c', () => {
    expect(entries('a\\=b\\:c\\ d = x\\ty\\u0041\\z')).toEqual({ 'a=b:c d': 'x\tyAz' });
    expect(entries('cheeses')).toEqual({ cheeses: '' });
  });

  it('\\r, \\n and \\r\\n all end a line; a key twice is listed twice, in order; lines are counted', () => {
    const r = parseProperties('a=1\r\nb=2\rc=3\na=4');
    expect(r).toEqual({
      ok: true,
      entries: [
        { key: 'a', value: '1', line: 1 },
        { key: 'b', value: '2', line: 2 },
        { key: 'c', value: '3', line: 3 },
        { key: 'a', value: '4', line: 4 },
      ],
    });
  });

  it('a malformed \\uXXXX is refused with its line (Java: "Malformed \\uxxxx encoding.")', () => {
    expect(parseProperties('ok=1\n# c\nacks=\\u00G1')).toEqual({
      ok: false,
      line: 3,
      message: 'malformed \\uxxxx encoding: "\\u00G1"',
    });
  });
});
