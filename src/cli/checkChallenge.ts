/**
 * `delivery-lab check` on a challenge file (docs/challenges.md, "The format"): validated as the
 * page validates a shipped one — the schema, the start, the knobs its solution and locks name —
 * then run as the author's `npx tsx scripts/challenge-counts.ts` runs it: the start misses the
 * goal, the reference solution reaches it, and something within its rules solves it. One result
 * per file: passed with its count ("7 of 264 settings solve it"), failed naming each problem's
 * field, or malformed.
 */
import { parseChallenge, readJsonText } from '../engine';
import { knobIssues, startInput } from '../scenarios/challenges';
import { startScenario } from '../scenarios/challenges/resolve';
import { challengeProblems } from '../views/challenge/authoring';
import { countSolutions } from '../views/challenge/solutions';
import type { CheckResult } from './check';
import { malformedJson } from './checkReport';
import { jsonPathLines, lineOfPath } from './jsonPathLines';

/** The fields only a challenge has (docs/challenges.md): two of them make a file a challenge. */
const CHALLENGE_FIELDS = ['start', 'goal', 'allow', 'solution', 'hints', 'intro', 'area'];

/**
 * Whether a JSON value is meant as a challenge: two of its own fields, and no workload, batch job
 * or steps — so one misspelt field (`gaol`) still reads as a challenge with a typo, not as a
 * scenario missing its workload.
 */
export function looksLikeChallenge(raw: unknown): boolean {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return false;
  if ('workload' in raw || 'batch' in raw || 'steps' in raw) return false;
  return CHALLENGE_FIELDS.filter((k) => k in raw).length >= 2;
}

/** Whether JSON text is a challenge file (see {@link looksLikeChallenge}). */
export function isChallengeText(text: string): boolean {
  const read = readJsonText(text);
  return read.ok && looksLikeChallenge(read.raw);
}

/** Check one challenge file. */
export function checkChallengeFile(file: string, text: string): CheckResult {
  const read = readJsonText(text, 'a challenge');
  const parsed = read.ok ? parseChallenge(read.raw) : read;
  if (!parsed.ok) return malformedJson(file, text, parsed.issues);
  const c = parsed.challenge;
  const start = startScenario(c);
  if (!start.ok) return malformedJson(file, text, start.issues);
  const input = startInput(c);
  const knobs = input.ok ? knobIssues(c, input.input) : [];
  if (knobs.length > 0) return malformedJson(file, text, knobs);
  if (!input.ok) return malformedJson(file, text, input.issues);
  const count = countSolutions(c, input.input);
  const problems = challengeProblems(c, count);
  const lines = jsonPathLines(text);
  const name = `challenge ${c.id}: ${count.solutions} of ${count.of} ${count.unit} solve it`;
  return {
    file,
    name,
    status: problems.length === 0 ? 'passed' : 'failed',
    problems: problems.map((i) => `${i.path}: ${i.message}`),
    lines: problems.map((i) => lineOfPath(text, i.path, lines)),
    line: problems.length > 0 ? lineOfPath(text, problems[0]!.path, lines) : 1,
  };
}
