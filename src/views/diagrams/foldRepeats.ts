/**
 * The slide's repeats folded (issue 24): the anomaly's diagram (./anomalyDiagram.ts) must fit a
 * 1920×1080 slide with labels read from the back of a room, and most of a tall one was the same
 * thing said twice — a note that restates the message next to it ("ack e3 offset 3", then "e3
 * acknowledged, offset 3"), or the same exchange again and again ("produce e3" / "ack e3", "produce
 * e4" / "ack e4" …). Works on the diagram's steps (./sequenceReader.ts), before they are written.
 */
import type { Step } from './sequenceReader';

/** A step of the slide; `kept` ones (the anomaly's own steps) are never folded. */
export interface SlideStep {
  step: Step;
  kept: boolean;
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
 * A step's shape: who sends what to whom (or who notes what), every word with a digit (an
 * id, an offset, a row) as `#`. Two of the same shape differ only in which records they carry.
 */
function shape(s: Step): string {
  const words = s.text.replace(/\S*\d\S*/g, '#');
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
function repeats(steps: SlideStep[], at: number, period: number): number {
  const head = steps.slice(at, at + period);
  if (head.length < period || head.some((x) => x.kept)) return 1;
  const shapes = head.map((x) => shape(x.step));
  let n = 1;
  for (let k = at + period; k + period <= steps.length; k += period) {
    const same = shapes.every((h, j) => !steps[k + j]!.kept && shape(steps[k + j]!.step) === h);
    if (!same) break;
    n++;
  }
  return n;
}

/** The step that stands for `n` exchanges of one shape, from its first to its last. */
function folded(s: Step[], at: number, period: number, n: number): Step {
  const first = s[at]!;
  const last = s[at + (n - 1) * period]!;
  let text = `${span(first.text, last.text)} ×${n}`;
  if (period === 2) text += ` → ${span(s[at + 1]!.text, s[at + (n - 1) * period + 1]!.text)}`;
  return { ...first, text };
}

/** A note over the one actor `a`. */
function over(s: Step, a: number): boolean {
  return s.type === 'note' && s.over.length === 1 && s.over[0] === a;
}

/**
 * The steps with their repeats folded:
 * - a note that only restates the message just before it (over its receiver: "e3 acknowledged,
 *   offset 3" after "ack e3 offset 3") or just after it (over its sender, at the same time: "retry
 *   e3 (attempt 1)" before "produce e3 (retry 1)") goes;
 * - consecutive steps of the same shape — a message, a request and its answer, a note —
 *   become one with their count: "produce e3 … e9 ×7 → ack e3 … e9 offset 2 … 8".
 * Kept steps (the cause, the duplicate or lost rows) stay whole, and nothing folds across them.
 */
export function foldRepeats(steps: SlideStep[]): SlideStep[] {
  // The message a note may restate: the last step before it that stays.
  let previous: Step | null = null;
  const rest = steps.filter(({ step: s, kept }, k) => {
    const after = steps[k + 1]?.step;
    const dropped =
      !kept &&
      s.type === 'note' &&
      ((previous?.type === 'msg' && over(s, previous.to) && restates(s.text, previous.text)) ||
        (after?.type === 'msg' &&
          over(s, after.from) &&
          s.time === after.time &&
          restates(s.text, after.text)));
    if (!dropped) previous = s;
    return !dropped;
  });
  const s = rest.map((x) => x.step);
  const out: SlideStep[] = [];
  for (let k = 0; k < rest.length;) {
    // A request and its answer first: "produce / ack" pairs are the common repeat.
    const [a, b] = [s[k], s[k + 1]];
    const pair =
      a?.type === 'msg' && b?.type === 'msg' && a.to === b.from && b.to === a.from
        ? repeats(rest, k, 2)
        : 1;
    const one = pair > 1 ? 1 : repeats(rest, k, 1);
    if (pair > 1) {
      out.push({ step: folded(s, k, 2, pair), kept: false });
      k += 2 * pair;
    } else if (one > 1) {
      out.push({ step: folded(s, k, 1, one), kept: false });
      k += one;
    } else out.push(rest[k++]!);
  }
  return out;
}
