/**
 * What `delivery-lab check` writes for CI systems: a JUnit XML report (one testcase per scenario
 * file or embed; a mismatch is a `<failure>`, a malformed file an `<error>`, an unpinned embed
 * `<skipped>`) and GitHub workflow commands
 * (https://docs.github.com/en/actions/reference/workflow-commands-for-github-actions#setting-an-error-message).
 */
import type { CheckResult } from './check';

/** The 1-based line of the first `"key":` in a JSON text, or 1. */
export function lineOfKey(text: string, key: string): number {
  const at = text.indexOf(`${JSON.stringify(key)}`);
  if (at < 0) return 1;
  let line = 1;
  for (let i = 0; i < at; i++) if (text.charCodeAt(i) === 10) line++;
  return line;
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
    const open = `    <testcase classname="${xml(r.file)}" name="${xml(r.name)}" file="${xml(r.file)}" line="${r.line}"`;
    if (r.status === 'passed') return `${open}/>`;
    if (r.status === 'unpinned')
      return `${open}>\n      <skipped message="unpinned: no expectation to check"/>\n    </testcase>`;
    const tag = r.status === 'failed' ? 'failure' : 'error';
    const body = r.problems.join('\n');
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

export function githubAnnotation(r: CheckResult): string {
  const title =
    r.status === 'failed' ? 'delivery-lab: expect mismatch' : 'delivery-lab: malformed scenario';
  return `::error file=${escapeProperty(r.file)},line=${r.line},title=${escapeProperty(title)}::${escapeData(r.problems.join('\n'))}`;
}
