/**
 * What `delivery-lab check` writes for CI systems: a JUnit XML report (one testcase per scenario
 * file or embed; a mismatch is a `<failure>`, a malformed file an `<error>`, an unpinned embed
 * `<skipped>`) and GitHub workflow commands
 * (https://docs.github.com/en/actions/reference/workflow-commands-for-github-actions#setting-an-error-message).
 */
import type { CheckResult } from './check';
import { issueLines, type Issue } from '../engine';
import { jsonSyntaxAt } from '../engine/scenario/issueWords';
import { jsonPathLines, lineOfPath } from './jsonPathLines';

/** A malformed JSON file's result: every problem, each at its own field's line. */
export function malformedJson(file: string, text: string, issues: readonly Issue[]): CheckResult {
  const paths = jsonPathLines(text);
  // A syntax error at the line and column the parser gave (as the CLI's and the page's other
  // messages put it), not at line 1 with the place at the end of its words.
  const syntax = issues.map((i) => jsonSyntaxAt(text, i));
  const lines = issues.map((i, k) => syntax[k]?.line || lineOfPath(text, i.path, paths));
  return {
    file,
    name: file,
    status: 'malformed',
    problems: issues.map((i, k) => {
      const at = syntax[k];
      if (!at) return issueLines([i], '(file)')[0]!;
      return at.line > 0 ? `column ${at.column}: ${at.message}` : at.message;
    }),
    line: lines[0] ?? 1,
    lines,
  };
}

/**
 * Where a result is reported, in the text and in JUnit alike: an embed at its tag's line (its
 * problems at their fields' lines), a scenario or lesson file at its first problem's line.
 */
export function resultLine(r: CheckResult): number {
  return r.partLine ?? r.line;
}

/** XML text or attribute: escaped, and without the characters XML 1.0 cannot hold. */
function xml(s: string): string {
  return s
    .replace(/[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu, '\uFFFD')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;');
}

export function junitReport(results: readonly CheckResult[]): string {
  const failures = results.filter((r) => r.status === 'failed').length;
  const errors = results.filter((r) => r.status === 'malformed').length;
  const skipped = results.filter((r) => r.status === 'unpinned').length;
  const counts = `tests="${results.length}" failures="${failures}" errors="${errors}"`;
  const cases = results.map((r) => {
    const open = `    <testcase classname="${xml(r.file)}" name="${xml(r.name)}" file="${xml(r.file)}" line="${resultLine(r)}"`;
    if (r.status === 'passed') return `${open}/>`;
    if (r.status === 'unpinned')
      return `${open}>\n      <skipped message="unpinned: no expectation to check"/>\n    </testcase>`;
    const tag = r.status === 'failed' ? 'failure' : 'error';
    const body = [...r.problems, ...(r.update ? [r.update.text] : [])].join('\n');
    return `${open}>\n      <${tag} message="${xml(r.problems[0] ?? '')}">${xml(body)}</${tag}>\n    </testcase>`;
  });
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="delivery-lab check" ${counts}>`,
    `  <testsuite name="delivery-lab check" ${counts} skipped="${skipped}">`,
    ...cases,
    '  </testsuite>',
    '</testsuites>',
    '',
  ].join('\n');
}

/** GitHub's escaping of a workflow command's message and of its properties. */
const escapeData = (s: string) =>
  s.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
const escapeProperty = (s: string) => escapeData(s).replace(/:/g, '%3A').replace(/,/g, '%2C');

/** The result's annotations: one per problem where each has its own line, else one. */
export function githubAnnotation(r: CheckResult): string {
  const title =
    r.status === 'failed' ? 'delivery-lab: expect mismatch' : 'delivery-lab: malformed scenario';
  const one = (line: number, text: string) =>
    `::error file=${escapeProperty(r.file)},line=${line},title=${escapeProperty(title)}::${escapeData(text)}`;
  const errors = r.lines
    ? r.problems.map((p, k) => one(r.lines![k] ?? r.line, p)).join('\n')
    : one(r.line, r.problems.join('\n'));
  if (!r.update) return errors;
  // How to accept what the run shows now, on the pin's line: a notice, not one more error.
  const accept = 'delivery-lab: to accept what the run shows now';
  return `${errors}\n::notice file=${escapeProperty(r.file)},line=${r.update.line},title=${escapeProperty(accept)}::${escapeData(r.update.text)}`;
}
