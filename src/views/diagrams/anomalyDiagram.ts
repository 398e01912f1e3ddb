/**
 * The slide-shaped diagram of a run (issue 24): its first anomaly — the first business event
 * lost or applied twice at the end of the pipeline — told from its cause to the duplicate or the
 * loss. The steps before the cause fold into one note; the duplicate rows (or the loss) are
 * highlighted; records are named in words ("p-1 and 20 more", not "p-1 +20"). Short enough for a
 * 1920×1080 slide (src/platform/mermaid.ts slideCanvas). Pure: the page's "Slide" diagram and the
 * Markdown report build it from the same run.
 */
import type { Run } from '../../engine';
import { eventSequenceDiagram } from './eventSequence';
import { HIGHLIGHT } from './anomalyHighlight';
import { mermaidText } from './mermaidText';
import { formatCountOf } from '../run/format';
import { foldRepeats, type SlideLine } from './foldRepeats';

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

/** A step that is the cause of the anomaly: an injected fault, a crash, a message lost. */
const CAUSE = /⚡|✗|\(lost\)/;
/**
 * A step about a row of the event, or a side effect of it (a card charged), with its number (the
 * first row or effect is the original).
 */
const ROW = /(?:new row|inserted row|row|effect) (\d+)/;
/** A step that applies the event again to the row it has: an upsert's update of it. */
const UPDATED = /\bupdated\b/;

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
  const text = eventSequenceDiagram(run, anomaly.eventId);
  if (text === null) return null;
  const lines = text.trimEnd().split('\n');
  const all: string[] = [];
  const allSteps: string[] = [];
  for (const line of lines)
    (allSteps.length === 0 && /^(sequenceDiagram|\s+title |\s+participant )/.test(line)
      ? all
      : allSteps
    ).push(line);
  const beside = besideReaders(all, run.verdict.primary);
  const head = all.filter((l) => !beside.has(PARTICIPANT.exec(l)?.[1] ?? ''));
  // A reader's message goes with the note its receiver wrote on it (the coordinator's "offset 11
  // committed" of its commit).
  const steps = allSteps.filter(
    (l, k) =>
      !aboutOnly(l, beside) && !(k > 0 && NOTE_OVER.test(l) && aboutOnly(allSteps[k - 1]!, beside)),
  );
  const ids = head.flatMap((l) => PARTICIPANT.exec(l)?.[1] ?? []);
  const cause = Math.max(
    0,
    steps.findIndex((l) => CAUSE.test(l)),
  );
  const out = head.map((l) =>
    /^\s+title /.test(l)
      ? // The id is the scenario's: encoded as every other label (src/views/diagrams/mermaidText.ts).
        `  title ${mermaidText(`${anomaly.eventId} ${anomaly.fate === 'lost' ? 'lost' : 'applied twice'} — from the cause to the ${anomaly.fate === 'lost' ? 'loss' : 'duplicate'}`)}`
      : l,
  );
  if (cause > 0) {
    const span = ids.length > 1 ? `${ids[0]},${ids[ids.length - 1]}` : (ids[0] ?? 'P0');
    out.push(
      // Two lines: a note over several participants is as wide as they are apart (mermaid does
      // not size it to its text), and the slide's labels are large.
      `  Note over ${span}: Before: ${formatCountOf(cause, 'step')} as usual<br/>(${stepText(steps[0]!)} … ${stepText(steps[cause - 1]!)})`,
    );
  }
  // The event's first row, even when it was written before the cause and folded into the note
  // (a Spark batch replayed after a crash: row 21 before, row 31 the duplicate).
  let firstRow = steps.map((l) => ROW.exec(l)?.[1]).find((r) => r !== undefined) ?? null;
  const rest = steps.slice(cause);
  const told: SlideLine[] = [];
  const highlighted = new Set<SlideLine>();
  for (let k = 0; k < rest.length; k++) {
    const line = batchInWords(rest[k]!);
    const row = ROW.exec(line)?.[1] ?? null;
    if (row !== null) firstRow ??= row;
    // Duplicates: the steps of every row (or effect) of the event after its first, and of its
    // first row updated again after the cause (commit-after-process's upsert: "row 6 updated",
    // nothing was highlighted); a loss: its cause and its last step.
    const marked =
      anomaly.fate === 'duplicated'
        ? row !== null && (row !== firstRow || UPDATED.test(line))
        : k === 0 || k === rest.length - 1;
    // The cause and the marked steps are the anomaly's own: never folded.
    const step = { line, kept: marked || k === 0 };
    told.push(step);
    if (marked) highlighted.add(step);
  }
  // The story ends at the duplicate: what the pipeline did after it (a commit) is not the slide's.
  let end = told.length;
  while (end > 1 && anomaly.fate === 'duplicated' && !highlighted.has(told[end - 1]!)) end--;
  for (const step of foldRepeats(told.slice(0, end))) {
    if (highlighted.has(step))
      out.push(`  rect ${HIGHLIGHT[anomaly.fate]}`, `  ${step.line}`, '  end');
    else out.push(step.line);
  }
  return out.join('\n') + '\n';
}

const NOTE_OVER = /^\s+Note over /;
const PARTICIPANT = /^\s+participant (P\d+) as (.*)$/;

/**
 * The readers beside the pipeline — not the point where the anomaly is counted (`verdict.primary`:
 * "sink", or "reader:rc" for the reader named rc): the slide follows the event to that point, and
 * the "Event" diagram keeps them (aborted-transaction-dirty-read's read_committed reader, whose
 * column made the slide too wide for its labels).
 */
function besideReaders(head: string[], primary: string): Set<string> {
  const counted = primary.startsWith('reader:') ? primary.slice('reader:'.length) : null;
  const out = new Set<string>();
  for (const l of head) {
    const m = PARTICIPANT.exec(l);
    if (m && /^reader-/.test(m[2]!) && (counted === null || !m[2]!.includes(`(${counted},`)))
      out.add(m[1]!);
  }
  return out;
}

/** A step between such readers and the rest (a fetch, a commit), or a note over them only. */
function aboutOnly(step: string, readers: Set<string>): boolean {
  if (readers.size === 0) return false;
  const note = /^\s+Note over (P\d+)(?:,(P\d+))?:/.exec(step);
  if (note) return readers.has(note[1]!) && readers.has(note[2] ?? note[1]!);
  const msg = /^\s+(P\d+)-[^P]*(P\d+):/.exec(step);
  return msg !== null && (readers.has(msg[1]!) || readers.has(msg[2]!));
}

/** A step's words without its arrow or note prefix ("155 ms · produce p-4"). */
function stepText(line: string): string {
  return batchInWords(line.slice(line.indexOf(':') + 1).trim());
}
