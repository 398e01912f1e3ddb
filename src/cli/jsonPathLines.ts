/**
 * Where a field is in a JSON text (src/engine/scenario/pathLines.ts, shared with the page), so that
 * `delivery-lab check` names each problem's own line; and a file's issues as `delivery-lab <file>`
 * prints them.
 */
import { formatIssues, type Issue } from '../engine';
import { jsonSyntaxLine } from '../engine/scenario/issueWords';

export { jsonPathLines, lineOfPath } from '../engine/scenario/pathLines';

/**
 * A file's issues as the CLI prints them: a JSON syntax error at `file:line:column` (the engine's
 * message carries "(line N column M)" when V8 gives a position; "Unexpected end of JSON input"
 * is at the text's end), every other issue as the page labels it, `(file): …` or `field: …`.
 */
export function fileIssuesText(file: string, text: string, issues: readonly Issue[]): string {
  return issues.map((i) => jsonSyntaxLine(file, text, i) ?? formatIssues([i], '(file)')).join('\n');
}
