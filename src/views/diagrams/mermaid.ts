/**
 * Mermaid diagrams of a run, as text (pure: no mermaid import here — `platform/mermaid` renders
 * the text in the page, the CLI prints it).
 *
 * - {@link runSequenceDiagram}: the whole run as a sequence diagram, condensed — one arrow per
 *   network message ('msg' / 'msg-lost' trace entries), lost messages drawn with a cross (`-x`),
 *   crashes, restarts, faults and the other turning points as notes; idle polls left out; long
 *   runs capped with a "showing N of M" note.
 * - {@link eventSequenceDiagram}: the causal chain of one business event — every entry about it
 *   and the entries they cite (send, lost ack, retry, offsets, crash, replay, duplicate write),
 *   each stamped with its virtual time.
 * - {@link topologyFlowchart}: the pipeline's topology with the knobs that decide the guarantee.
 *
 * Every piece of scenario text goes through {@link mermaidText} (entity codes, truncation), so a
 * hostile business id cannot break a diagram or inject anything into it.
 * Syntax: https://mermaid.js.org/syntax/sequenceDiagram.html and
 * https://mermaid.js.org/syntax/flowchart.html
 */
import { type Run } from '../../engine';
import { anomalyDiagram } from './anomalyDiagram';
import { runSequenceDiagram } from './runSequence';
import { eventSequenceDiagram } from './eventSequence';
import { topologyFlowchart } from './flowchart';

export { mermaidText } from './mermaidText';
export { runSequenceDiagram } from './runSequence';
export { eventChain, eventSequenceDiagram } from './eventSequence';
export { topologyFlowchart } from './flowchart';

/** Every diagram a run offers, for pickers and the CLI's `--diagram`. */
export type DiagramKind = 'sequence' | 'flow' | 'anomaly' | `event:${string}`;

/**
 * One diagram of a run by kind: `sequence` (the whole run), `flow` (the topology) or
 * `event:<business id>` (one event's causal chain) or `anomaly` (the first loss or duplicate, from
 * its cause, for a slide: src/views/diagrams/anomalyDiagram.ts).
 * @returns the mermaid text, or null for an unknown event id.
 */
export function diagramOf(run: Run, kind: DiagramKind): string | null {
  switch (kind) {
    case 'sequence':
      return runSequenceDiagram(run);
    case 'flow':
      return topologyFlowchart(run.scenario);
    case 'anomaly':
      return anomalyDiagram(run);
    default: {
      // Only `event:<id>` is left: a new DiagramKind without its case is a type error here, and
      // an untyped caller's unknown kind an error rather than an event id made of its tail.
      const event: `event:${string}` = kind;
      if (!event.startsWith('event:')) throw new Error(`unknown diagram kind "${String(kind)}"`);
      return eventSequenceDiagram(run, event.slice('event:'.length));
    }
  }
}
