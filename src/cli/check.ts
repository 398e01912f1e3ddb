/**
 * `delivery-lab check <files | directories | globs…>`: every scenario found is run and compared
 * with its `expect` block, as `--check` does for one; in HTML and Markdown pages, every embed of
 * the lab with the expectation pinned to it (./checkDocs.ts). One line per scenario or embed, a
 * summary line, exit 0 all matched · 2 a file or embed is malformed (named, with the field and
 * line) or an argument is wrong · 3 a scenario differs from its `expect` (or a scenario file has
 * none). An embed with no expectation is unpinned: listed, not a failure. `--reporter junit --output report.xml` writes a
 * JUnit XML report for CI systems; with GITHUB_ACTIONS set, each failure is also a GitHub
 * annotation (`::error file=…,line=…::`) on the file's line.
 */
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { isAbsolute, join, relative, sep } from 'node:path';
import { parseScenarioJson } from '../engine';
import { junitReport, githubAnnotation, malformedJson, resultLine } from './checkReport';
import { jsonPathLines, lineOfPath } from './jsonPathLines';
import { checkDocFile } from './checkDocs';
import { pageKind } from './checkDocsScan';
import { checkLessonFile, isLessonText } from './checkLesson';
import { checkChallengeFile, isChallengeText } from './checkChallenge';
import { looksLikeChallenge } from '../scenarios/challenges/looksLike';
import { commandArgs, isChoice } from './commandArgs';
import { pinOfRun } from './scenarioEngine';
import { pinCheck } from './atlasPin';
import { acceptNow, mismatchLine, pinJson, repinned } from './repin';

/** One scenario file's outcome, or one embed's. */
export interface CheckResult {
  file: string;
  name: string;
  /** `unpinned`: an embed with no expectation to check (not a failure). */
  status: 'passed' | 'failed' | 'malformed' | 'unpinned';
  /** Why it failed or is malformed, one line each. */
  problems: string[];
  /** The 1-based line the first problem points at (the `expect` block, or the field). */
  line: number;
  /** Each problem's own line (its field's), in the order of `problems`: a malformed file's, a failed embed's. */
  lines?: number[];
  /**
   * Where in its file this result's part starts, for a file that holds several: an embed's tag in
   * a page, a step of a lesson. The result's own line is printed with the file (`file:line`).
   */
  partLine?: number;
  /**
   * A failed result's way to accept what the run shows now (the pin with the run's values), at
   * the pin's line: printed under the differences, in the JUnit failure too.
   */
  update?: { line: number; text: string };
  /**
   * What holds but deserves a look, one line each, printed with ⚠ under the result: the
   * scenario's own faults that never fired (its pin describes a run without them).
   */
  notes?: string[];
}

const SKIPPED_DIRS = new Set(['node_modules', '.git']);

/**
 * A copy of the lab's build (`npm run build`'s dist/): its loader and its scenario schema beside
 * its index.html. A docs site that hosts the lab beside its pages (`/lab/embed.js`,
 * docs/embed.md) has one under its docs folder; its example scenarios are the lab's, not pins of
 * the site's text.
 */
function isLabBuild(dir: string): boolean {
  return ['index.html', 'embed.js', 'scenario.schema.json'].every((f) => {
    try {
      return statSync(join(dir, f)).isFile();
    } catch {
      return false;
    }
  });
}

/**
 * Every scenario or page file (.json, HTML, Markdown) under `dir`, sorted, skipping node_modules,
 * dot folders and a copy of the lab's build below it (each one skipped is added to `passedOver`).
 */
function filesUnder(dir: string, passedOver: string[], top = true): string[] {
  if (!top && isLabBuild(dir)) {
    passedOver.push(dir);
    return [];
  }
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) =>
    a.name < b.name ? -1 : 1,
  )) {
    if (entry.name.startsWith('.') || SKIPPED_DIRS.has(entry.name)) continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...filesUnder(path, passedOver, false));
    else if (entry.name.endsWith('.json') || pageKind(entry.name)) out.push(path);
  }
  return out;
}

/** A glob (`*`, `?` within a name, `**` across folders) as a regular expression over paths. */
function globRegExp(glob: string): RegExp {
  let re = '';
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i]!;
    if (c === '*' && glob[i + 1] === '*') {
      // `**/` is any number of folders, none included.
      re += glob[i + 2] === '/' ? '(?:.*/)?' : '.*';
      i += glob[i + 2] === '/' ? 2 : 1;
    } else if (c === '*') re += '[^/]*';
    else if (c === '?') re += '[^/]';
    else re += c.replace(/[.+^${}()|[\]\\]/g, '\\$&');
  }
  return new RegExp(`^${re}$`);
}

/** The files an argument names: a file, every scenario under a directory, or a glob's matches. */
function expand(arg: string, passedOver: string[]): string[] | { problem: string } {
  if (/[*?]/.test(arg)) {
    const segments = arg.split('/');
    const firstWild = segments.findIndex((s) => /[*?]/.test(s));
    const base = segments.slice(0, firstWild).join('/') || '.';
    let candidates: string[];
    try {
      candidates = filesUnder(base, passedOver);
    } catch {
      return { problem: `${arg}: no folder ${base}` };
    }
    const re = globRegExp(arg.replace(/^\.\//, ''));
    const hits = candidates.filter((f) => re.test(f.split(sep).join('/').replace(/^\.\//, '')));
    return hits.length > 0 ? hits : { problem: `${arg}: matches no file` };
  }
  try {
    return statSync(arg).isDirectory() ? filesUnder(arg, passedOver) : [arg];
  } catch {
    return { problem: `${arg}: no such file or directory` };
  }
}

/** A JSON file found in a directory that is no scenario (a package.json…) is not checked. */
function looksLikeScenario(text: string): boolean {
  try {
    const v = JSON.parse(text) as unknown;
    // A lesson (`steps`) is checked step by step: ./checkLesson.ts; a challenge (`start` and
    // `goal`) as ./checkChallenge.ts says. A batch scenario may have
    // no workload (its source table's rows are its events).
    return (
      v !== null &&
      typeof v === 'object' &&
      ('workload' in v || 'batch' in v || 'steps' in v || looksLikeChallenge(v)) &&
      'version' in v
    );
  } catch {
    return true; // malformed: reported as such
  }
}

/** Run one scenario file against its `expect` block. */
function checkFile(file: string, text: string): CheckResult {
  const parsed = parseScenarioJson(text);
  if (!parsed.ok) return malformedJson(file, text, parsed.issues);
  const scenario = parsed.scenario;
  const line = lineOfPath(text, 'expect');
  if (!scenario.expect)
    return {
      file,
      name: scenario.name,
      status: 'failed',
      problems: ['no "expect" block'],
      line,
      update: { line, text: acceptNow(`add "expect": ${pinJson(pinOfRun(scenario))}`) },
    };
  // On the engine of its kind (a batch job's: the batch engine), as `sim --check` runs it.
  const { diff, unfired } = pinCheck(scenario, scenario.expect);
  // Each mismatch at its own field's line in the block (`"rows": 10`), as an embed's inline pin's.
  const paths = jsonPathLines(text);
  const lines = diff.map((d) => lineOfPath(text, `expect.${d.path}`, paths));
  return {
    file,
    name: scenario.name,
    status: diff.length === 0 ? 'passed' : 'failed',
    problems: diff.map(mismatchLine),
    line: lines[0] ?? line,
    ...(diff.length > 0 ? { lines } : {}),
    ...(unfired.length > 0 ? { notes: unfired } : {}),
    ...(diff.length > 0
      ? {
          update: {
            line,
            text: acceptNow(
              `set its "expect" block to ${pinJson(repinned(scenario.expect, diff))}`,
            ),
          },
        }
      : {}),
  };
}

const USAGE =
  'usage: delivery-lab check <files | directories | globs…> [--reporter text|junit] [--output FILE]';

const MARKS: Record<CheckResult['status'], string> = {
  passed: '✓',
  failed: '✗',
  malformed: '!',
  unpinned: '·',
};

export function checkCommand(
  argv: string[],
  out: (s: string) => void,
  err: (s: string) => void,
  env: Record<string, string | undefined> = process.env,
): number {
  const args = commandArgs(
    argv,
    { reporter: { type: 'string' }, output: { type: 'string' } },
    USAGE,
    'check: give the scenario files, pages, directories or globs to check',
    out,
    err,
  );
  if (typeof args === 'number') return args;
  const { values, positionals } = args;
  const reporter = values.reporter ?? 'text';
  if (!isChoice('--reporter', reporter, ['text', 'junit'], err)) return 2;
  if (reporter === 'junit' && values.output === undefined) {
    err('--reporter junit: give the report file with --output FILE');
    return 2;
  }
  // Each file once; `fromDirectory`: found by a directory or glob, so a JSON file that is no
  // scenario (a package.json…) is passed over instead of failing.
  const files = new Map<string, { fromDirectory: boolean }>();
  const passedOver: string[] = [];
  for (const arg of positionals) {
    const found = expand(arg, passedOver);
    if ('problem' in found) {
      err(found.problem);
      return 2;
    }
    const fromDirectory = found.length !== 1 || found[0] !== arg;
    for (const f of found) if (!files.has(f)) files.set(f, { fromDirectory });
  }
  for (const folder of new Set(passedOver)) {
    const shown = isAbsolute(folder) ? folder : relative('.', folder) || folder;
    err(
      `check: passed over ${shown}/, a copy of the lab's build (embed.js, scenario.schema.json): its example scenarios are the lab's, not your pages' (name the folder to check it)`,
    );
  }
  const results: CheckResult[] = [];
  for (const [file, { fromDirectory }] of files) {
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch (e) {
      results.push({
        file,
        name: file,
        status: 'malformed',
        problems: [(e as Error).message],
        line: 1,
      });
      continue;
    }
    // Shown as given: an absolute path stays absolute (a CI log or an editor opens it from
    // anywhere), a relative one stays relative to the working directory.
    const shown = isAbsolute(file) ? file : relative('.', file) || file;
    const page = pageKind(file);
    if (page) {
      results.push(...checkDocFile(shown, file, text, page));
      continue;
    }
    if (fromDirectory && !looksLikeScenario(text)) continue;
    if (isLessonText(text)) results.push(...checkLessonFile(shown, text));
    else if (isChallengeText(text)) results.push(checkChallengeFile(shown, text));
    else results.push(checkFile(shown, text));
  }
  const annotate = env.GITHUB_ACTIONS === 'true' || env.GITHUB_ACTIONS === '1';
  for (const r of results) {
    const at = r.partLine === undefined ? r.file : `${r.file}:${resultLine(r)}`;
    const unpinned = r.status === 'unpinned' ? ': unpinned, no expectation to check' : '';
    out(`${MARKS[r.status]} ${at}${r.name !== r.file ? ` (${r.name})` : ''}${unpinned}`);
    r.problems.forEach((p, k) => out(`    ${r.file}:${r.lines?.[k] ?? r.line}: ${p}`));
    if (r.update) out(`    ${r.file}:${r.update.line}: ${r.update.text}`);
    for (const n of r.notes ?? []) out(`    ${r.file}:${resultLine(r)}: ⚠ ${n}`);
    if (annotate && (r.status === 'failed' || r.status === 'malformed')) out(githubAnnotation(r));
  }
  const count = (s: CheckResult['status']) => results.filter((r) => r.status === s).length;
  const [passed, failed, malformed] = [count('passed'), count('failed'), count('malformed')];
  const unpinned = count('unpinned');
  out(
    `check: ${results.length} scenario${results.length === 1 ? '' : 's'}: ${passed} passed, ${failed} failed, ${malformed} malformed${unpinned > 0 ? `, ${unpinned} unpinned` : ''}`,
  );
  if (values.output !== undefined) {
    try {
      writeFileSync(values.output, junitReport(results));
    } catch (e) {
      err(`--output: cannot write ${values.output}: ${(e as Error).message}`);
      return 2;
    }
  }
  if (results.length === 0) {
    err('check: no scenario found (nor an embed of the lab in a page)');
    return 2;
  }
  return malformed > 0 ? 2 : failed > 0 ? 3 : 0;
}
