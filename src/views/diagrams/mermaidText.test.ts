import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { mermaidText, shortName, truncate } from './mermaidText';

/** Mermaid's decoding of `#NNN;` entity codes, as the rendered SVG shows them. */
function decode(text: string): string {
  return text.replace(/#(\d+);/g, (_, n: string) => String.fromCodePoint(Number(n)));
}

/** What a label should show for `input`: one line, XML-safe characters, cut to `max`. */
function expected(input: string, max: number): string {
  let out = '';
  for (const ch of truncate(input, max)) {
    const cp = ch.codePointAt(0)!;
    if (cp < 0x20 || (cp >= 0x7f && cp <= 0x9f)) out += ' ';
    else if ((cp >= 0xd800 && cp <= 0xdfff) || cp === 0xfffe || cp === 0xffff) out += '\ufffd';
    else out += ch;
  }
  return out;
}

describe('mermaidText', () => {
  it('encodes what means something to mermaid or to markup as entity codes', () => {
    expect(mermaidText('a;b')).toBe('a#59;b');
    expect(mermaidText('#35;')).toBe('#35;35#59;');
    expect(mermaidText('%%{init: {"theme":"dark"}}%%')).toBe(
      '#37;#37;#123;init#58; #123;#34;theme#34;#58;#34;dark#34;#125;#125;#37;#37;',
    );
    expect(mermaidText('<script>alert(1)</script>')).toBe('#60;script#62;alert(1)#60;/script#62;');
    expect(mermaidText('<img src=x onerror="x()">')).toBe('#60;img src=x onerror=#34;x()#34;#62;');
    expect(mermaidText('javascript:alert(1)')).toBe('javascript#58;alert(1)');
    expect(mermaidText('a|b[c]{d}`e`$$f$$&g\\h')).toBe(
      'a#124;b#91;c#93;#123;d#125;#96;e#96;#36;#36;f#36;#36;#38;g#92;h',
    );
  });

  it('keeps letters of any script, digits and harmless punctuation as they are', () => {
    expect(mermaidText("p-77 café Zürich 東京 e_1.2,3 (x) /y 'z' +=!?@*^~")).toBe(
      "p-77 café Zürich 東京 e_1.2,3 (x) /y 'z' +=!?@*^~",
    );
  });

  it('makes a label one line: line breaks and controls become spaces', () => {
    expect(mermaidText('line1\nNote over P0: injected')).toBe('line1 Note over P0#58; injected');
    expect(mermaidText('a\r\nb\tc\u0000d\u0085e')).toBe('a  b c d e');
  });

  it('keeps the SVG well-formed XML: lone surrogates and non-characters become U+FFFD', () => {
    expect(mermaidText('a\ud800b\ufffe')).toBe('a#65533;b#65533;');
    expect(mermaidText('💥')).toBe('#128165;');
    expect(mermaidText('\u202eevil')).toBe('#8238;evil');
  });

  it('cuts 100 KB of text to the label limit with an ellipsis', () => {
    const out = mermaidText('x'.repeat(100_000));
    expect(out).toBe(`${'x'.repeat(159)}…`);
    expect(mermaidText('<'.repeat(100_000), 10)).toBe(`${'#60;'.repeat(9)}…`);
  });

  it('never lets a character through that mermaid or markup could act on (property)', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: 'binary', maxLength: 300 }),
        fc.integer({ min: 1, max: 200 }),
        (s, max) => {
          const out = mermaidText(s, max);
          const bare = out.replace(/#\d+;/g, '');
          expect(bare).not.toMatch(/[#;%:<>&"`{}[\]|\\$\n\r\u0000-\u001f]/);
          expect(decode(out)).toBe(expected(s, max));
        },
      ),
      { seed: 6, numRuns: 500 },
    );
  });
});

describe('truncate and shortName', () => {
  it('counts code points, never splitting a surrogate pair', () => {
    expect(truncate('abc', 3)).toBe('abc');
    expect(truncate('abcd', 3)).toBe('ab…');
    expect(truncate('💥💥💥', 3)).toBe('💥💥💥');
    expect(truncate('💥💥💥💥', 3)).toBe('💥💥…');
  });

  it('makes a name one line and short', () => {
    expect(shortName('a\n\tb')).toBe('a b');
    expect(shortName('y'.repeat(60))).toBe(`${'y'.repeat(47)}…`);
  });
});
