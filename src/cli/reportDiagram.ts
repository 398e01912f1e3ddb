/**
 * The diagram reports, `--format mermaid` and `--format markdown` (the same text as the page's
 * views), apart from the text and JSON reports (src/cli/report.ts): the runner imports them only
 * when asked (src/cli/optionalParts.ts).
 */
import { traceHash, type Run } from '../engine';
import { DEFAULT_HEADING_LEVEL, markdownReport, type HeadingLevel } from '../views/io/markdown';
import { diagramOf, type DiagramKind } from '../views/diagrams/mermaid';
import type { TraceHasher } from './report';

export { parseHeadingLevel } from '../views/io/markdown';
/** A batch scenario's `--format markdown` (src/cli/batchReport.ts): the page's batch report. */
export { batchMarkdownReport } from '../views/batch/batchMarkdown';

/**
 * The `--format mermaid` output: the diagram's text (views/mermaid), without the final newline
 * (the CLI prints one). An unknown event id gives an empty string; the CLI checks ids first.
 */
export function mermaidReport(run: Run, diagram: DiagramKind = 'sequence'): string {
  return (diagramOf(run, diagram) ?? '').trimEnd();
}

/**
 * The `--format markdown` output: views/markdown's report with this run's trace hash. Its
 * diagram is the first anomaly's unless `--diagram` names one (views/markdown).
 */
export function markdownDoc(
  run: Run,
  preset?: string,
  diagram: DiagramKind = 'anomaly',
  hash: TraceHasher = traceHash,
  headingLevel: HeadingLevel = DEFAULT_HEADING_LEVEL,
): string {
  return markdownReport(run, {
    diagram,
    headingLevel,
    traceHash: hash(run.trace),
    ...(preset ? { preset } : {}),
  }).trimEnd();
}
