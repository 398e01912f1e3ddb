/**
 * `delivery-lab check` on a lesson file (docs/workshops.md): each step that has an `expect` — a
 * library preset's, or an inline scenario's own — is run and compared with it, one result per
 * step, and each challenge of the lesson's own is run as a challenge file is (its count); a
 * malformed lesson is one result naming the field, as a scenario file's is.
 */
import { parseScenario, readJsonText, type Challenge, type ScenarioInput } from '../engine';
import {
  looksLikeLesson,
  parseLesson,
  resolveStep,
  type Lesson,
  type ResolvedStep,
} from '../scenarios/lessons';
import { startInput } from '../scenarios/challenges/resolve';
import { challengeResult } from './checkChallenge';
import type { CheckResult } from './check';
import { malformedJson } from './checkReport';
import { lineOfPath } from './jsonPathLines';
import { pinCheck } from './atlasPin';
import { acceptNow, mismatchLine, pinJson, repinned } from './repin';

/** Whether JSON text is meant as a lesson (it lists `steps`), not a scenario. */
export function isLessonText(text: string): boolean {
  const read = readJsonText(text);
  return read.ok && looksLikeLesson(read.raw);
}

/** Check every step of a lesson file that has an `expect`. */
export function checkLessonFile(file: string, text: string): CheckResult[] {
  const read = readJsonText(text, 'a lesson');
  const parsed = read.ok ? parseLesson(read.raw) : read;
  if (!parsed.ok) return [malformedJson(file, text, parsed.issues)];
  const { lesson } = parsed;
  const line = lineOfPath(text, 'steps');
  const results = lesson.steps.flatMap((_, k): CheckResult[] => {
    const step = resolveStep(lesson, k);
    // The lesson's own challenge: an exercise, as a challenge file is checked (its count).
    const own =
      step.challenge?.carried != null
        ? [
            challengeResult(
              file,
              text,
              step.challenge.challenge,
              startOf(step.challenge.challenge),
              { path: `steps.${k}.challenge`, name: `${lesson.title}, step ${k + 1}` },
            ),
          ]
        : [];
    return [...own, ...expectResult(file, text, lesson, k, step)];
  });
  return results.length > 0
    ? results
    : [
        {
          file,
          name: lesson.title,
          status: 'failed',
          problems: ['no step has an "expect" block, nor a challenge of its own'],
          line,
        },
      ];
}

/** Step `k`'s `expect`, run and compared (none when the step has none). */
function expectResult(
  file: string,
  text: string,
  lesson: Lesson,
  k: number,
  step: ResolvedStep,
): CheckResult[] {
  const r = parseScenario(step.scenario);
  // parseLesson validated every step's scenario: this holds.
  if (!r.ok || !r.scenario.expect) return [];
  // On the engine of the step's kind (a batch job's: the batch engine), as a scenario file's.
  const { diff, unfired } = pinCheck(r.scenario, r.scenario.expect);
  // An inline scenario's expect is the author's own: its differences at its line, with the pin
  // that holds now (as a scenario file's). A preset's is the library's, at the step.
  const inline = lesson.steps[k]!.scenario !== undefined;
  const at = inline ? `steps.${k}.scenario.expect` : `steps.${k}`;
  const atLine = lineOfPath(text, at);
  return [
    {
      file,
      name: `${lesson.title}, step ${k + 1}: ${step.title}`,
      status: diff.length === 0 ? 'passed' : 'failed',
      problems: diff.map((d) => `steps.${k}: ${mismatchLine(d)}`),
      line: atLine,
      // Steps are told apart by their line: `lesson.json:12 (…, step 2: …)`.
      partLine: lineOfPath(text, `steps.${k}`),
      ...(unfired.length > 0 ? { notes: unfired } : {}),
      ...(inline && diff.length > 0
        ? {
            update: {
              line: atLine,
              text: acceptNow(`set ${at} to ${pinJson(repinned(r.scenario.expect, diff))}`),
            },
          }
        : {}),
    },
  ];
}

/** A validated challenge's start (parseLesson checked that it can be made). */
function startOf(c: Challenge): ScenarioInput {
  const s = startInput(c);
  if (!s.ok) throw new Error(`challenge ${c.id}: ${JSON.stringify(s.issues)}`);
  return s.input;
}
