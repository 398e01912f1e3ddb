/**
 * The slide's repeats folded (issue 24): the anomaly's diagram (./anomalyDiagram.ts) must fit a
 * 1920×1080 slide with labels read from the back of a room, and most of a tall one was the same
 * thing said twice — a note that restates the message next to it ("ack e3 offset 3", then "e3
 * acknowledged, offset 3"), or the same exchange again and again ("produce e3" / "ack e3", "produce
 * e4" / "ack e4" …). Works on the mermaid statements of a sequence diagram
 * (https://mermaid.js.org/syntax/sequenceDiagram.html), one per line, each stamped "N ms · ".
 */

/** A statement of the diagram; `kept` ones (the anomaly's own steps) are never folded. */
export interface SlideLine {
  line: string;
  kept: boolean;
}

/** A message arrow or a note, parsed. */
type Statement =
  | { type: 'msg'; from: string; arrow: string; to: string; time: string; words: string }
  | { type: 'note'; over: string; time: string; words: string };

const MESSAGE = /^\s*(P\d+)(--?>>|--?x)(P\d+): (?:(\d+ ms) · )?(.*)$/;
const NOTE = /^\s*Note over (P\d+(?:,P\d+)?): (?:(\d+ ms) · )?(.*)$/;

function parse(line: string): Statement | null {
  const m = MESSAGE.exec(line);
  if (m)
    return { type: 'msg', from: m[1]!, arrow: m[2]!, to: m[3]!, time: m[4] ?? '', words: m[5]! };
  const n = NOTE.exec(line);
  if (n) return { type: 'note', over: n[1]!, time: n[2] ?? '', words: n[3]! };
  return null;
}

/**
 * Words that only say a message was received, acted on or sent again ("e3 acknowledged", "poll
 * e3", "process e3 (offset 2)" after "e3 from offset 2", "offset 3 committed", "retry e3 (attempt
 * 1)"): a note made of them and of the message's own words adds nothing to the message.
 */
const RESTATING = new Set([
  'ack',
  'acknowledged',
  'poll',
  'process',
  'commit',
  'committed',
  'retry',
  'attempt',
]);

/** A label's words, lower case, "e1 and 4 more" as "e1" (a fetch of 21 records polled 5 at a time). */
function words(text: string): string[] {
  return text
    .replace(/ and \d+ more\b/g, '')
    .toLowerCase()
    .split(/[\s,()·:]+/)
    .filter((w) => w !== '');
}

/** A note whose words, but for {@link RESTATING} ones, are all in the message's. */
function restates(note: string, message: string): boolean {
  const said = new Set(words(message));
  const own = words(note).filter((w) => !RESTATING.has(w));
  return own.length > 0 && own.every((w) => said.has(w));
}

/**
 * A statement's shape: who sends what to whom (or who notes what), every word with a digit (an
 * id, an offset, a row) as `#`. Two of the same shape differ only in which records they carry.
 */
function shape(s: Statement): string {
  const words = s.words.replace(/\S*\d\S*/g, '#');
  return s.type === 'msg' ? `${s.from}${s.arrow}${s.to} ${words}` : `over ${s.over} ${words}`;
}

/** "e3" and "e9" → "e3 … e9" in the first label where the last differs, word by word. */
function span(first: string, last: string): string {
  const a = first.split(' ');
  const b = last.split(' ');
  if (a.length !== b.length) return `${first} … ${last}`;
  return a.map((w, k) => (w === b[k] ? w : `${w} … ${b[k]}`)).join(' ');
}

/**
 * How many times the exchange at `at` (`period` messages: a request, or a request and its answer)
 * follows itself unbroken: 1 when it is not repeated.
 */
function repeats(s: (Statement | null)[], lines: SlideLine[], at: number, period: number): number {
  const head = s.slice(at, at + period).map((x) => (x ? shape(x) : null));
  if (head.length < period || head.some((x) => x === null)) return 1;
  let n = 1;
  for (let k = at + period; k + period <= s.length; k += period) {
    const same = head.every((h, j) => !lines[k + j]!.kept && shape(s[k + j]!) === h);
    if (!same) break;
    n++;
  }
  return lines.slice(at, at + period).some((l) => l.kept) ? 1 : n;
}

/** The statement that stands for `n` exchanges of one shape, from its first to its last. */
function folded(s: Statement[], at: number, period: number, n: number): string {
  const first = s[at]!;
  const last = s[at + (n - 1) * period]!;
  let text = `${span(first.words, last.words)} ×${n}`;
  if (period === 2) text += ` → ${span(s[at + 1]!.words, s[at + (n - 1) * period + 1]!.words)}`;
  const time = first.time ? `${first.time} · ` : '';
  return first.type === 'msg'
    ? `  ${first.from}${first.arrow}${first.to}: ${time}${text}`
    : `  Note over ${first.over}: ${time}${text}`;
}

/**
 * The statements with their repeats folded:
 * - a note that only restates the message just before it (over its receiver: "e3 acknowledged,
 *   offset 3" after "ack e3 offset 3") or just after it (over its sender, at the same time: "retry
 *   e3 (attempt 1)" before "produce e3 (retry 1)") goes;
 * - consecutive statements of the same shape — a message, a request and its answer, a note —
 *   become one with their count: "produce e3 … e9 ×7 → ack e3 … e9 offset 2 … 8".
 * Kept statements (the cause, the duplicate or lost rows) stay whole, and nothing folds across them.
 */
export function foldRepeats(lines: SlideLine[]): SlideLine[] {
  const parsed = lines.map((l) => parse(l.line));
  const dropped = lines.map(() => false);
  // The message a note may restate: the last statement before it that stays.
  let previous: Statement | null = null;
  for (let k = 0; k < lines.length; k++) {
    const s = parsed[k] ?? null;
    const after = parsed[k + 1];
    dropped[k] =
      !lines[k]!.kept &&
      s?.type === 'note' &&
      ((previous?.type === 'msg' && s.over === previous.to && restates(s.words, previous.words)) ||
        (after?.type === 'msg' &&
          s.over === after.from &&
          s.time === after.time &&
          restates(s.words, after.words)));
    if (!dropped[k]) previous = s;
  }
  const rest = lines.filter((_, k) => !dropped[k]);
  const s = parsed.filter((_, k) => !dropped[k]);
  const out: SlideLine[] = [];
  for (let k = 0; k < rest.length;) {
    // A request and its answer first: "produce / ack" pairs are the common repeat.
    const [a, b] = [s[k], s[k + 1]];
    const pair =
      a?.type === 'msg' && b?.type === 'msg' && a.to === b.from && b.to === a.from
        ? repeats(s, rest, k, 2)
        : 1;
    const one = pair > 1 ? 1 : repeats(s, rest, k, 1);
    if (pair > 1) {
      out.push({ line: folded(s as Statement[], k, 2, pair), kept: false });
      k += 2 * pair;
    } else if (one > 1) {
      out.push({ line: folded(s as Statement[], k, 1, one), kept: false });
      k += one;
    } else out.push(rest[k++]!);
  }
  return out;
}
