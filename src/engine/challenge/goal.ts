/**
 * Whether a run reaches a challenge's goal, and the judgement of one attempt — decided on the
 * student's own run by the checker, as the fault atlas classifies its trials ({@link classify}):
 * the same counts of lost and duplicated events at the end of the pipeline (and of the
 * processor's side effects), so the atlas's count of a challenge's solutions and the page's
 * verdict on an attempt cannot disagree.
 */
import { classify, type TrialResult } from '../atlas/explore';
import type { Scenario } from '../scenario/schema';
import { simulate, type Run } from '../simulate';
import { attemptChanges, ruleIssues } from './rules';
import type { Challenge, Goal } from './schema';

/**
 * Whether a classified run reaches the goal. A run cut off with work pending where the start
 * drained (`stuck`) reaches none: its counts are not final.
 */
export function goalMet(goal: Goal, r: TrialResult): boolean {
  if (r.outcome === 'stuck') return false;
  switch (goal.kind) {
    case 'lose':
      return r.lost >= goal.atLeast;
    case 'duplicate':
      return r.duplicated >= goal.atLeast;
    case 'exact':
      return r.lost === 0 && r.duplicated === 0;
    default: {
      const never: never = goal;
      return never;
    }
  }
}

/** The judgement of one attempt. */
export type Judgement =
  | { verdict: 'refused'; reasons: string[] }
  | { verdict: 'solved' | 'missed'; result: TrialResult; run: Run };

/**
 * Judge an attempt: refused when it breaks the challenge's rules (nothing is run), else run it
 * and check the goal.
 * @param startCutOff - whether the start's own run was cut off (see {@link classify}).
 */
export function judgeAttempt(
  c: Challenge,
  start: Scenario,
  attempt: Scenario,
  startCutOff: boolean,
): Judgement {
  const changes = attemptChanges(start, attempt);
  const reasons = ruleIssues(c, changes);
  if (reasons.length > 0) return { verdict: 'refused', reasons };
  const run = simulate(attempt);
  const result = classify(run, startCutOff, changes.added.length);
  return { verdict: goalMet(c.goal, result) ? 'solved' : 'missed', result, run };
}
