/**
 * Whether a run reaches a challenge's goal, and the judgement of one attempt — decided on the
 * student's own run by the checker, as the fault atlas classifies its trials ({@link classify}):
 * the same counts of lost and duplicated events at the end of the pipeline (and of the
 * processor's side effects), so the atlas's count of a challenge's solutions and the page's
 * verdict on an attempt cannot disagree.
 */
import { classify, type TrialResult } from '../atlas/explore';
import type { Scenario } from '../scenario/schema';
import { faultsNeverFired } from '../neverFired';
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
  const dodged = dodgedStartFaults(start, run, changes.knobs);
  if (dodged.length > 0) return { verdict: 'refused', reasons: dodged };
  const result = classify(run, startCutOff, changes.added.length);
  return { verdict: goalMet(c.goal, result) ? 'solved' : 'missed', result, run };
}

/**
 * The challenge's own faults that fired in the start's run but not in the attempt's, one sentence
 * each. They "stay as they are" (docs/challenges.md): a setting that keeps them from happening
 * (acks=0 leaves no acknowledgement to lose, a consumer that hands its batch off never crashes
 * mid-batch) avoids the situation instead of handling it, so its run proves nothing. The start is
 * run only when the attempt has such a fault (rarely).
 */
function dodgedStartFaults(start: Scenario, run: Run, knobs: readonly string[]): string[] {
  const unfired = faultsNeverFired(run).filter((u) => u.index < start.faults.length);
  if (unfired.length === 0) return [];
  const unfiredAtStart = new Set(
    faultsNeverFired(simulate(start, { explain: false })).map((u) => u.index),
  );
  const undo = `The goal is to be reached with the challenge's faults happening: undo the change that stops it${knobs.length > 0 ? ` (${knobs.join(', ')} changed)` : ''}`;
  return unfired
    .filter((u) => !unfiredAtStart.has(u.index))
    .map(({ index, fault, why }) => {
      const name = fault.id !== undefined ? ` (${fault.id})` : '';
      return `the challenge's fault ${index + 1}${name} never fired in this run${why !== null ? `: ${why}` : ''}. ${undo}`;
    });
}
