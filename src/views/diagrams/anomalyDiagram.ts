/**
 * The slide-shaped diagram of a run (issue 24): its first anomaly — the first business event
 * lost or applied twice at the end of the pipeline — told from its cause to the duplicate or the
 * loss. The steps before the cause fold into one note; the duplicate rows (or the loss) are
 * highlighted; records are named in words ("p-1 and 20 more", not "p-1 +20"). Short enough for a
 * 1920×1080 slide (src/platform/mermaid.ts slideCanvas). Pure: the page's "Slide" diagram and the
 * Markdown report build it from the same run.
 */
import type { EntryKind, Run } from '../../engine';
import { eventSequenceSteps } from './eventSequence';
import { HIGHLIGHT } from './anomalyHighlight';
import { formatCountOf } from '../run/format';
import { foldRepeats, type SlideStep } from './foldRepeats';
import type { Reader, Step } from './sequenceReader';
import { render, stamped } from './sequenceSteps';

/** The first anomaly of a run: the business event and its fate at the primary point. */
export interface Anomaly {
  eventId: string;
  fate: 'lost' | 'duplicated';
}

/** The first business event (workload order) lost or duplicated at the primary point, or null. */
export function firstAnomaly(run: Run): Anomaly | null {
  const fate = run.verdict.fate;
  for (let j = 0; j < fate.length; j++)
    if (fate[j] !== 1)
      return { eventId: run.events.identityId(j), fate: fate[j] === 0 ? 'lost' : 'duplicated' };
  return null;
}

/**
 * The entries that can be the anomaly's cause: an injected fault, a crash (or a failover, a fenced
 * producer's exit), a consumer leaving its group on a poll timeout, a message lost.
 */
const CAUSES: ReadonlySet<EntryKind> = new Set(['fault', 'crash', 'leave-group', 'msg-lost']);

/** "p-1 +20" → "p-1 and 20 more" (a batch named by its first record). */
export function batchInWords(label: string): string {
  return label.replace(/(\S+) \+(\d+)\b/g, (_, id: string, n: string) => `${id} and ${n} more`);
}

/**
 * The anomaly's diagram, or null when the run has none (every event applied once).
 * @param run - a finished run (`simulate(scenario)`).
 * @returns mermaid `sequenceDiagram` text, one statement per line, ending with a newline.
 */
export function anomalyDiagram(run: Run): string | null {
  const anomaly = firstAnomaly(run);
  if (!anomaly) return null;
  const seq = eventSequenceSteps(run, anomaly.eventId);
  if (seq === null) return null;
  const r = seq.reader;
  const beside = besideReaders(r, seq.steps, run.verdict.primary);
  const participants = [...actorsOf(seq.steps)].filter((a) => !beside.has(a));
  // A reader's message goes with the note its receiver wrote on it (the coordinator's "offset 11
  // committed" of its commit).
  const steps = seq.steps.filter(
    (s, k) =>
      !aboutOnly(s, beside) &&
      !(k > 0 && s.type === 'note' && aboutOnly(seq.steps[k - 1]!, beside)),
  );
  const cause = Math.max(
    0,
    steps.findIndex((s) => s.entry !== undefined && CAUSES.has(r.t.kindOf(s.entry))),
  );
  const before: Step[] = [];
  if (cause > 0)
    before.push({
      type: 'note',
      over: participants,
      text: `Before the cause, ${formatCountOf(cause, 'step')} as usual`,
      // A second line: a note over several participants is as wide as they are apart (mermaid
      // does not size it to its text), and the slide's labels are large.
      more: `(${batchInWords(stamped(steps[0]!))} … ${batchInWords(stamped(steps[cause - 1]!))})`,
    });
  // The event's first row, even when it was written before the cause and folded into the note
  // (a Spark batch replayed after a crash: row 21 before, row 31 the duplicate).
  // A step's row (or side effect: a card charged) is the trace's: the row its entry wrote.
  const writes = (s: Step) => (s.entry === undefined ? null : r.written(s.entry));
  let firstRow = steps.map((s) => writes(s)?.row).find((row) => row !== undefined) ?? null;
  const told: SlideStep[] = steps.slice(cause).map((s, k, rest) => {
    const text = batchInWords(s.text);
    const written = writes(s);
    if (written !== null) firstRow ??= written.row;
    // Duplicates: the steps of every row (or effect) of the event after its first, and of its
    // first row updated again after the cause (commit-after-process's upsert: "row 6 updated",
    // nothing was highlighted); a loss: its cause and its last step.
    const marked =
      anomaly.fate === 'duplicated'
        ? written !== null && (written.row !== firstRow || written.updated)
        : k === 0 || k === rest.length - 1;
    const rect = marked ? HIGHLIGHT[anomaly.fate] : undefined;
    // The cause and the marked steps are the anomaly's own: never folded.
    return { step: { ...s, text, rect }, kept: marked || k === 0 };
  });
  // The story ends at the duplicate: what the pipeline did after it (a commit) is not the slide's.
  let end = told.length;
  while (end > 1 && anomaly.fate === 'duplicated' && told[end - 1]!.step.rect === undefined) end--;
  const title = `${anomaly.eventId} ${anomaly.fate === 'lost' ? 'lost' : 'applied twice'} — from the cause to the ${anomaly.fate === 'lost' ? 'loss' : 'duplicate'}`;
  // The cause at its own time, every step after it by how long after the cause it came ("+594 ms
  // · produce e100 (retry 1)"): the story's clock, and labels short enough to draw large (a slide
  // is as wide as its widest note; six-digit times pushed the outer ones past the columns).
  const t0 = steps[cause]?.time;
  const sinceCause = (s: Step, k: number): Step =>
    k === 0 || t0 === undefined || s.time === undefined
      ? s
      : { ...s, time: undefined, text: `+${s.time - t0} ms · ${s.text}` };
  const shown = [
    ...before,
    ...foldRepeats(told.slice(0, end)).map((x, k) => sinceCause(x.step, k)),
  ];
  // Long notes in two lines where the slide has height to spare.
  return render(r, shown.length <= WRAP_UP_TO ? shown.map(inTwoLines) : shown, {
    title,
    participants,
  });
}

/**
 * A note longer than this (in characters, its time included) is drawn on two lines: mermaid
 * spaces the columns to fit a note, and a slide is scaled to its widest extent, while its height
 * has room to spare.
 */
const NOTE_LINE = 40;
/**
 * Steps up to which a slide's long notes go on two lines: a slide of more is already as tall as
 * 16:9 allows (at 16 steps and more the PNG's height, not its width, sets its scale), and a second
 * line would only draw it smaller.
 */
const WRAP_UP_TO = 15;

/** A long note in two lines, broken at the space nearest its middle. */
function inTwoLines(s: Step): Step {
  if (s.type !== 'note' || s.more !== undefined) return s;
  const text = stamped(s);
  if (text.length <= NOTE_LINE) return s;
  let at = -1;
  for (let k = text.indexOf(' '); k >= 0; k = text.indexOf(' ', k + 1))
    if (at < 0 || Math.abs(k - text.length / 2) < Math.abs(at - text.length / 2)) at = k;
  if (at < 0) return s;
  return { ...s, time: undefined, text: text.slice(0, at), more: text.slice(at + 1) };
}

/** The actors a step is drawn between or over. */
function actorsOf(steps: Step[]): Set<number> {
  const out = new Set<number>();
  for (const s of steps) for (const a of s.type === 'msg' ? [s.from, s.to] : s.over) out.add(a);
  return out;
}

/**
 * The readers beside the pipeline — not the point where the anomaly is counted (`verdict.primary`:
 * "sink", or "reader:rc" for the reader named rc): the slide follows the event to that point, and
 * the "Event" diagram keeps them (aborted-transaction-dirty-read's read_committed reader, whose
 * column made the slide too wide for its labels).
 */
function besideReaders(r: Reader, steps: Step[], primary: string): Set<number> {
  const counted = primary.startsWith('reader:') ? primary.slice('reader:'.length) : null;
  const out = new Set<number>();
  for (const a of actorsOf(steps)) {
    const reader = /^reader-(\d+)$/.exec(r.t.actors[a] ?? '');
    if (reader && r.s.readers[Number(reader[1])]?.name !== counted) out.add(a);
  }
  return out;
}

/** A step between such readers and the rest (a fetch, a commit), or a note over them only. */
function aboutOnly(step: Step, readers: Set<number>): boolean {
  if (readers.size === 0) return false;
  if (step.type === 'note') return step.over.every((a) => readers.has(a));
  return readers.has(step.from) || readers.has(step.to);
}
