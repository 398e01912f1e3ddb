import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { csvCell, csvRow, toCsv } from './csv';

/** A minimal RFC 4180 reader, to check that what we write reads back as one record per row. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (c === '"') quoted = false;
      else cell += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      row.push(cell);
      cell = '';
    } else if (c === '\r' && text[i + 1] === '\n') {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
      i++;
    } else cell += c;
  }
  return rows;
}

describe('csvCell', () => {
  it('neutralises text that a spreadsheet would run as a formula', () => {
    expect(csvCell('=1+1')).toBe("'=1+1");
    expect(csvCell('+1')).toBe("'+1");
    expect(csvCell('-1')).toBe("'-1");
    expect(csvCell('@SUM(A1)')).toBe("'@SUM(A1)");
    expect(csvCell('\t=1')).toBe("'\t=1");
    expect(csvCell('\r=1')).toBe('"\'\r=1"');
    // NUL, as OWASP ASVS 5.0 §1.2.10 lists it: one quote in front, the rest as it was.
    expect(csvCell('\u0000=1+1')).toBe("'\u0000=1+1");
    expect(csvCell('=HYPERLINK("http://x","y")')).toBe('"\'=HYPERLINK(""http://x"",""y"")"');
  });

  it('leaves ordinary text and our numbers alone', () => {
    expect(csvCell('p-77')).toBe('p-77');
    expect(csvCell('a=b')).toBe('a=b');
    expect(csvCell(-5)).toBe('-5');
    expect(csvCell(2.5)).toBe('2.5');
    expect(csvCell(Number.NaN)).toBe('');
    expect(csvCell(true)).toBe('true');
    expect(csvCell(null)).toBe('');
    expect(csvCell(undefined)).toBe('');
  });

  it('quotes commas, quotes and line breaks (RFC 4180)', () => {
    expect(csvCell('a,b')).toBe('"a,b"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell('line1\nline2')).toBe('"line1\nline2"');
    expect(csvRow(['a', 1, 'b,c'])).toBe('a,1,"b,c"\r\n');
    expect(toCsv(['x', 'y'], [[1, 'two']])).toBe('x,y\r\n1,two\r\n');
  });

  it('round-trips any text; no cell reads back starting with a formula character (property)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.string({ unit: 'binary', maxLength: 40 }), { maxLength: 6 }),
        (cells) => {
          const text = toCsv(
            ['h'],
            cells.map((c) => [c]),
          );
          const back = parseCsv(text)
            .slice(1)
            .map((r) => r[0]!);
          expect(back).toHaveLength(cells.length);
          back.forEach((b, i) => {
            expect(b).not.toMatch(/^[=+\-@\t\r\0]/);
            expect(b.replace(/^'(?=[=+\-@\t\r\0])/, '')).toBe(cells[i]);
          });
        },
      ),
      { seed: 4, numRuns: 300 },
    );
  });
});
