/**
 * `delivery-lab check` on a challenge file (docs/challenges.md, "The format"): validated as the
 * page validates a shipped one — the schema, the start, the knobs its solution and locks name —
 * then run as the author's `npx tsx scripts/challenge-counts.ts` runs it: the start misses the
 * goal, the reference solution reaches it, and something within its rules solves it. One result
 * per file: passed with its count ("7 of 264 settings solve it"), failed naming each problem's
 * field, or malformed. A lesson's own challenge is checked the same way (./checkLesson.ts).
 */
import { readJsonText, type Challenge, type ScenarioInput } from '../engine';
import { checkChallenge } from '../scenarios/challenges/resolve';
import { looksLikeChallenge } from '../scenarios/challenges/looksLike';
import { challengeProblems } from '../views/challenge/authoring';
import { countSolutions } from '../views/challenge/solutions';
import type { CheckResult } from './check';
import { malformedJson } from './checkReport';
import { jsonPathLines, lineOfPath } from './jsonPathLines';

/** Whether JSON text is a challenge file (see {@link looksLikeChallenge}). */
export function isChallengeText(text: string): boolean {
  const read = readJsonText(text);
  return read.ok && looksLikeChallenge(read.raw);
}

/** Check one challenge file. */
export function checkChallengeFile(file: string, text: string): CheckResult {
  const read = readJsonText(text, 'a challenge');
  const r = read.ok ? checkChallenge(read.raw) : read;
  if (!r.ok) return malformedJson(file, text, r.issues);
  return challengeResult(file, text, r.challenge, r.start);
}

/**
 * A validated challenge run as an exercise (its count, and each problem at its field's line):
 * a file's, or a lesson's own (`at`: its path in the lesson, `steps.N.challenge`; `name` before
 * the count, the lesson's step).
 */
export function challengeResult(
  file: string,
  text: string,
  c: Challenge,
  start: ScenarioInput,
  at?: { path: string; name: string },
): CheckResult {
  const count = countSolutions(c, start);
  const problems = challengeProblems(c, count).map((i) => ({
    ...i,
    path: at ? `${at.path}.${i.path}` : i.path,
  }));
  const lines = jsonPathLines(text);
  const counted = `challenge ${c.id}: ${count.solutions} of ${count.of} ${count.unit} solve it`;
  return {
    file,
    name: at ? `${at.name}, ${counted}` : counted,
    status: problems.length === 0 ? 'passed' : 'failed',
    problems: problems.map((i) => `${i.path}: ${i.message}`),
    lines: problems.map((i) => lineOfPath(text, i.path, lines)),
    line:
      problems.length > 0
        ? lineOfPath(text, problems[0]!.path, lines)
        : at
          ? lineOfPath(text, at.path, lines)
          : 1,
    ...(at ? { partLine: lineOfPath(text, at.path, lines) } : {}),
  };
}
