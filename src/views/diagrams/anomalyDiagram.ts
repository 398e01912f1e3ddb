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
  const head: string[] = [];
  const steps: string[] = [];
  for (const line of lines)
    (steps.length === 0 && /^(sequenceDiagram|\s+title |\s+participant )/.test(line)
      ? head
      : steps
    ).push(line);
  const participants = head.filter((l) => /^\s+participant /.test(l)).length;
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
    const span = participants > 1 ? `P0,P${participants - 1}` : 'P0';
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
    if (marked) out.push(`  rect ${HIGHLIGHT[anomaly.fate]}`, `  ${line}`, '  end');
    else out.push(line);
  }
  return out.join('\n') + '\n';
}

/** A step's words without its arrow or note prefix ("155 ms · produce p-4"). */
function stepText(line: string): string {
  return batchInWords(line.slice(line.indexOf(':') + 1).trim());
}
