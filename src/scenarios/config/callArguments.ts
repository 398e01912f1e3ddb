/**
 * The arguments of one call written in Python's literal syntax — Airflow's `DAG(…)` and a dbt
 * model's Jinja `{{ config(…) }}` (Jinja's literals are Python's:
 * https://jinja.palletsprojects.com/en/stable/templates/#literals) — each with its line. Not a
 * Python parser: strings, numbers, booleans, None, lists, tuples, dicts, names and calls are read;
 * anything else (an operator, an f-string, a subscript) is kept as text, marked `expr`, so that a
 * caller reports it as not a literal rather than guess its value (docs/cli.md#batch-files).
 */

export type PyValue =
  | { kind: 'str'; value: string }
  | { kind: 'num'; value: number }
  | { kind: 'bool'; value: boolean }
  | { kind: 'none' }
  | { kind: 'list'; items: PyValue[] }
  | { kind: 'dict'; entries: { key: PyValue; value: PyValue; line: number; text: string }[] }
  | { kind: 'call'; name: string; args: PyArg[] }
  | { kind: 'name'; name: string }
  | { kind: 'expr' };

/** One argument: `name=value` (keyword) or a value alone (positional), its text as written. */
export interface PyArg {
  name?: string;
  value: PyValue;
  line: number;
  text: string;
}

/** How deep lists, dicts and calls nest before the rest is passed over as an expression. */
const MAX_DEPTH = 64;

/** A reader over one text: `at` moves, `line` counts. */
class Reader {
  at: number;
  /** Brackets open now: past {@link MAX_DEPTH} a value is not read (a hostile file cannot overflow the stack). */
  depth = 0;
  constructor(
    readonly text: string,
    start: number,
  ) {
    this.at = start;
  }
  lineAt(i: number): number {
    let n = 1;
    for (let k = 0; k < i && k < this.text.length; k++) if (this.text[k] === '\n') n++;
    return n;
  }
  /** Skip blanks, newlines and `#` comments (Python's; Jinja has none inside a call). */
  skip(): void {
    for (;;) {
      const c = this.text[this.at];
      if (c === undefined) return;
      if (/\s/.test(c) || c === '\\') this.at++;
      else if (c === '#')
        while (this.at < this.text.length && this.text[this.at] !== '\n') this.at++;
      else return;
    }
  }
  peek(): string | undefined {
    return this.text[this.at];
  }
}

const CLOSERS: Record<string, string> = { '(': ')', '[': ']', '{': '}' };

/**
 * Skip to the next `,` or closing bracket at this depth (strings and nested brackets passed over);
 * to a `:` too where it ends a dict's key (a lambda's `:` is inside its value).
 */
function skipExpression(r: Reader, colonEnds = false): void {
  const stack: string[] = [];
  while (r.at < r.text.length) {
    const c = r.text[r.at]!;
    if (c === '"' || c === "'") {
      readString(r);
      continue;
    }
    if (c in CLOSERS) stack.push(CLOSERS[c]!);
    else if (
      stack.length === 0 &&
      (c === ',' || c === ')' || c === ']' || c === '}' || (colonEnds && c === ':'))
    )
      return;
    else if (c === stack[stack.length - 1]) stack.pop();
    r.at++;
  }
}

/** A quoted string (no prefix): its value with the common escapes read. */
function readString(r: Reader): string | null {
  const q = r.text[r.at]!;
  const triple = r.text.startsWith(q.repeat(3), r.at);
  const end = triple ? q.repeat(3) : q;
  r.at += end.length;
  let out = '';
  while (r.at < r.text.length) {
    if (r.text.startsWith(end, r.at)) {
      r.at += end.length;
      return out;
    }
    const c = r.text[r.at]!;
    if (c === '\\') {
      const n = r.text[r.at + 1] ?? '';
      out += n === 'n' ? '\n' : n === 't' ? '\t' : n;
      r.at += 2;
      continue;
    }
    if (c === '\n' && !triple) return null;
    out += c;
    r.at++;
  }
  return null;
}

const KEYWORD = /([A-Za-z_]\w*)\s*=(?!=)/y;

/** A list of values up to `close`, each with its line (a call's arguments: names too). */
function readItems(r: Reader, close: string, named: boolean): PyArg[] | null {
  const out: PyArg[] = [];
  for (;;) {
    r.skip();
    if (r.peek() === close) {
      r.at++;
      return out;
    }
    if (r.peek() === undefined) return null;
    const start = r.at;
    const line = r.lineAt(start);
    let name: string | undefined;
    KEYWORD.lastIndex = r.at;
    const kw = named ? KEYWORD.exec(r.text) : null;
    if (kw) {
      name = kw[1]!;
      r.at += kw[0].length;
    }
    const value = readValue(r);
    if (value === null) return null;
    out.push({
      ...(name !== undefined ? { name } : {}),
      value,
      line,
      text: r.text.slice(start, r.at).trim(),
    });
    r.skip();
    if (r.peek() === ',') r.at++;
    else if (r.peek() !== close) return null;
  }
}

/** One value; an expression that is no literal comes back as `expr`, its text passed over. */
function readValue(r: Reader, isKey = false): PyValue | null {
  r.skip();
  const start = r.at;
  const value = readPrimary(r);
  if (value === null) return null;
  r.skip();
  const next = r.peek();
  // Anything after the literal but a delimiter makes it an expression (`a + b`, `x[0]`, `d.get()`).
  if (next !== undefined && !(isKey ? ',)]}:' : ',)]}').includes(next)) {
    r.at = start;
    skipExpression(r, isKey);
    return { kind: 'expr' };
  }
  return value;
}

const NUMBER = /-?\d[\d_]*(\.\d+)?/y;
const NAME = /[A-Za-z_][\w.]*/y;

/** `re` (sticky) at the reader's place, without copying the rest of the text. */
function match(r: Reader, re: RegExp): string | null {
  re.lastIndex = r.at;
  const m = re.exec(r.text);
  if (!m) return null;
  r.at += m[0].length;
  return m[0];
}

function readPrimary(r: Reader): PyValue | null {
  if (r.depth >= MAX_DEPTH) {
    skipExpression(r);
    return { kind: 'expr' };
  }
  r.depth++;
  try {
    return readPrimaryAt(r);
  } finally {
    r.depth--;
  }
}

function readPrimaryAt(r: Reader): PyValue | null {
  const c = r.peek();
  if (c === undefined) return null;
  if (c === '"' || c === "'") {
    const s = readString(r);
    return s === null ? null : { kind: 'str', value: s };
  }
  if (c === '[' || c === '(') {
    r.at++;
    const items = readItems(r, c === '[' ? ']' : ')', false);
    return items === null ? null : { kind: 'list', items: items.map((i) => i.value) };
  }
  if (c === '{') {
    r.at++;
    const entries: { key: PyValue; value: PyValue; line: number; text: string }[] = [];
    for (;;) {
      r.skip();
      if (r.peek() === '}') {
        r.at++;
        return { kind: 'dict', entries };
      }
      const line = r.lineAt(r.at);
      const key = readValue(r, true);
      r.skip();
      if (key?.kind === 'expr' && (r.peek() === ',' || r.peek() === '}')) {
        // `**other`: entries the reader cannot see.
        entries.push({ key, value: { kind: 'expr' }, line, text: '' });
        if (r.peek() === ',') r.at++;
        continue;
      }
      if (key === null || r.peek() !== ':') return null;
      r.at++;
      const from = r.at;
      const value = readValue(r);
      if (value === null) return null;
      entries.push({ key, value, line, text: r.text.slice(from, r.at).trim() });
      r.skip();
      if (r.peek() === ',') r.at++;
      else if (r.peek() !== '}') return null;
    }
  }
  const num = match(r, NUMBER);
  if (num !== null) return { kind: 'num', value: Number(num.replaceAll('_', '')) };
  const word = match(r, NAME);
  if (word !== null) {
    if (word === 'True' || word === 'true') return { kind: 'bool', value: true };
    if (word === 'False' || word === 'false') return { kind: 'bool', value: false };
    if (word === 'None' || word === 'none') return { kind: 'none' };
    r.skip();
    if (r.peek() === '(') {
      r.at++;
      const args = readItems(r, ')', true);
      return args === null ? null : { kind: 'call', name: word, args };
    }
    return { kind: 'name', name: word };
  }
  // Any other start (an f-string, a lambda, an operator): an expression.
  skipExpression(r);
  return { kind: 'expr' };
}

/**
 * The arguments of the call whose `(` is at `open` in `text`, or null when its brackets or
 * strings do not close (the line of the opening then names the problem).
 */
export function callArguments(text: string, open: number): PyArg[] | null {
  const r = new Reader(text, open + 1);
  return readItems(r, ')', true);
}

/**
 * The value written at `start` (a module-level assignment's right side), or null when the line
 * goes on after it (`{…} | other`: computed).
 */
export function valueAt(text: string, start: number): PyValue | null {
  const r = new Reader(text, start);
  const value = readPrimary(r);
  const rest = /^[ \t]*(#[^\n]*)?(\n|$)/.test(text.slice(r.at));
  return value !== null && rest ? value : null;
}

/** The 1-based line of offset `i` in `text`. */
export function lineOf(text: string, i: number): number {
  return new Reader(text, 0).lineAt(i);
}
