/**
 * The lab's one reading of JSON's grammar (RFC 8259, https://www.rfc-editor.org/rfc/rfc8259),
 * for what `JSON.parse` does not say: where the text first breaks the grammar, and on which line
 * each field is. V8's `JSON.parse` says "at position N" for most errors, but not for "Unexpected
 * token 'x', "…" is not valid JSON" (a stray `}`, a misspelt `true`) — there the lab finds the
 * place itself, so a file's message still reads `file:line:column` (docs/cli.md); and
 * `delivery-lab check` names each problem's own line (src/cli/jsonPathLines.ts).
 * Nesting is bounded before this runs (validate.ts's tooDeepText), so the recursion is too.
 */

/** What {@link walkJson} reports as it reads: each value's dotted path and the line it is on. */
export interface JsonFieldVisitor {
  /**
   * An object member (`path` its key joined to the object's path with a dot, as the validator's
   * paths write it — a key holding dots is one step) on the line of its key, or an array item
   * (`path` ending in its index) on the line its value starts.
   */
  field(path: string, line: number): void;
  /**
   * A key its object already has (JSON.parse keeps the last, RFC 8259 §4 leaves it open): told at
   * each repeat with the line of the key's first occurrence and the repeat's value as written.
   */
  duplicate?(path: string, line: number, firstLine: number, valueText: string): void;
}

/**
 * Read `text` as JSON (a leading byte-order mark skipped), telling `visitor` of every field.
 * @returns the offset of the first character that cannot continue valid JSON (the text's length
 *   when it ends too early), or null when the text is valid JSON.
 */
export function walkJson(text: string, visitor?: JsonFieldVisitor): number | null {
  let i = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  let line = 1;
  const ws = () => {
    for (; i < text.length; i++) {
      const c = text[i];
      if (c === '\n') line++;
      else if (c !== ' ' && c !== '\t' && c !== '\r') break;
    }
  };
  class Stop {
    constructor(readonly at: number) {}
  }
  const fail = (): never => {
    throw new Stop(i);
  };
  const literal = (word: string) => {
    for (const ch of word) {
      if (text[i] !== ch) fail();
      i++;
    }
  };
  const digits = () => {
    const start = i;
    while (i < text.length && text[i]! >= '0' && text[i]! <= '9') i++;
    if (i === start) fail();
  };
  const number = () => {
    if (text[i] === '-') i++;
    if (text[i] === '0') i++;
    else digits();
    if (text[i] === '.') {
      i++;
      digits();
    }
    if (text[i] === 'e' || text[i] === 'E') {
      i++;
      if (text[i] === '+' || text[i] === '-') i++;
      digits();
    }
  };
  /** A string; its value when `decode` (a key a visitor is told of), else ''. */
  const string = (decode = false): string => {
    const start = i;
    i++; // the opening quote
    for (;;) {
      if (i >= text.length) fail();
      const ch = text.charCodeAt(i);
      if (ch === 0x22) {
        i++;
        return decode ? (JSON.parse(text.slice(start, i)) as string) : '';
      }
      if (ch < 0x20) fail();
      if (ch === 0x5c) {
        i++;
        const esc = text[i];
        if (esc === 'u') {
          i++;
          for (let k = 0; k < 4; k++) {
            if (!/[0-9a-fA-F]/.test(text[i] ?? '')) fail();
            i++;
          }
        } else if (esc !== undefined && '"\\/bfnrt'.includes(esc)) i++;
        else fail();
      } else i++;
    }
  };
  const join = (path: string, step: string) => (path === '' ? step : `${path}.${step}`);
  const value = (path: string): void => {
    ws();
    const ch = text[i];
    if (ch === '{') {
      i++;
      ws();
      if (text[i] === '}') {
        i++;
        return;
      }
      const firstLines = visitor?.duplicate ? new Map<string, number>() : undefined;
      for (;;) {
        ws();
        if (text[i] !== '"') fail();
        const keyLine = line;
        const key = string(visitor !== undefined);
        const at = join(path, key);
        visitor?.field(at, keyLine);
        ws();
        if (text[i] !== ':') fail();
        i++;
        ws();
        const valueAt = i;
        value(at);
        if (firstLines) {
          const first = firstLines.get(key);
          if (first === undefined) firstLines.set(key, keyLine);
          else visitor!.duplicate!(at, keyLine, first, text.slice(valueAt, i));
        }
        ws();
        if (text[i] === ',') i++;
        else if (text[i] === '}') {
          i++;
          return;
        } else fail();
      }
    }
    if (ch === '[') {
      i++;
      ws();
      if (text[i] === ']') {
        i++;
        return;
      }
      for (let k = 0; ; k++) {
        ws();
        const at = join(path, String(k));
        visitor?.field(at, line);
        value(at);
        ws();
        if (text[i] === ',') i++;
        else if (text[i] === ']') {
          i++;
          return;
        } else fail();
      }
    }
    if (ch === '"') {
      string();
      return;
    }
    if (ch === 't') return literal('true');
    if (ch === 'f') return literal('false');
    if (ch === 'n') return literal('null');
    if (ch === '-' || (ch !== undefined && ch >= '0' && ch <= '9')) return number();
    fail();
  };
  try {
    value('');
    ws();
    if (i < text.length) fail();
    return null;
  } catch (e) {
    if (e instanceof Stop) return Math.min(e.at, text.length);
    throw e;
  }
}

/** Where `text` first breaks JSON's grammar (see {@link walkJson}), or null when it is JSON. */
export function jsonErrorAt(text: string): number | null {
  return walkJson(text);
}
