/**
 * A `.properties` file read as java.util.Properties#load reads it
 * (https://docs.oracle.com/en/java/javase/21/docs/api/java.base/java/util/Properties.html#load(java.io.Reader)):
 * lines end at \n, \r or \r\n; a line whose first non-blank character is `#` or `!` is a comment;
 * a line ending in an odd number of backslashes continues on the next, whose leading blanks are
 * dropped; the key runs to the first unescaped `=`, `:` or blank, then blanks, one optional `=` or
 * `:` and blanks separate it from the value; `\t \n \r \f`, `\uXXXX` and `\<any>` are escapes.
 * Blanks are space, tab and form feed. Every entry is listed, in the file's order: a later key
 * replaces an earlier one, as in Java, where they are applied (importConfig reports the earlier
 * one as overridden, rather than drop it unseen).
 */

/** One key and its value, with the 1-based line where its logical line starts. */
interface PropertyEntry {
  key: string;
  value: string;
  line: number;
}

export type PropertiesResult =
  { ok: true; entries: PropertyEntry[] } | { ok: false; line: number; message: string };

const BLANK = new Set([' ', '\t', '\f']);

/** Decode the escapes of a key or value; an error message for a malformed `\uXXXX`. */
function unescape(raw: string): string | { error: string } {
  let out = '';
  for (let i = 0; i < raw.length; i++) {
    const c = raw[i]!;
    if (c !== '\\') {
      out += c;
      continue;
    }
    const n = raw[++i];
    if (n === undefined) break; // a lone trailing backslash (end of file) is dropped, as in Java
    if (n === 'u') {
      const hex = raw.slice(i + 1, i + 5);
      // Java: IllegalArgumentException "Malformed \uxxxx encoding."
      if (!/^[0-9a-fA-F]{4}$/.test(hex))
        return { error: `malformed \\uxxxx encoding: "\\u${hex}"` };
      out += String.fromCharCode(parseInt(hex, 16));
      i += 4;
    } else out += n === 't' ? '\t' : n === 'n' ? '\n' : n === 'r' ? '\r' : n === 'f' ? '\f' : n;
  }
  return out;
}

/** The count of backslashes that end `s`. */
function trailingBackslashes(s: string): number {
  let n = 0;
  while (n < s.length && s[s.length - 1 - n] === '\\') n++;
  return n;
}

export function parseProperties(text: string): PropertiesResult {
  const lines = text.split(/\r\n|\r|\n/);
  const entries: PropertyEntry[] = [];
  for (let i = 0; i < lines.length; i++) {
    const startLine = i + 1;
    let logical = lines[i]!.replace(/^[ \t\f]+/, '');
    if (logical === '' || logical.startsWith('#') || logical.startsWith('!')) continue;
    while (trailingBackslashes(logical) % 2 === 1 && i + 1 < lines.length) {
      logical = logical.slice(0, -1) + lines[++i]!.replace(/^[ \t\f]+/, '');
    }
    if (trailingBackslashes(logical) % 2 === 1) logical = logical.slice(0, -1);
    // The key: up to the first unescaped separator or blank.
    let k = 0;
    while (k < logical.length) {
      const c = logical[k]!;
      if (c === '\\') k += 2;
      else if (c === '=' || c === ':' || BLANK.has(c)) break;
      else k++;
    }
    const keyEnd = Math.min(k, logical.length);
    let v = keyEnd;
    while (v < logical.length && BLANK.has(logical[v]!)) v++;
    if (logical[v] === '=' || logical[v] === ':') v++;
    while (v < logical.length && BLANK.has(logical[v]!)) v++;
    const key = unescape(logical.slice(0, keyEnd));
    const value = unescape(logical.slice(v));
    for (const part of [key, value])
      if (typeof part !== 'string') return { ok: false, line: startLine, message: part.error };
    entries.push({ key: key as string, value: value as string, line: startLine });
  }
  return { ok: true, entries };
}
