/**
 * Whether a challenge is an exercise (docs/challenges.md, "Writing a challenge"): its start misses
 * the goal, its reference solution reaches it within its rules, and something the rules allow
 * solves it — for the author's `npx tsx scripts/challenge-counts.ts` and `delivery-lab check` on a
 * challenge file.
 */
import { judgeAttempt, parseScenario, simulate, type Challenge, type Issue } from '../../engine';
import { solutionInput, startInput } from '../../scenarios/challenges';
import type { SolutionCount } from './solutions';

/** The goal in words, for a problem's sentence. */
function goalWords(c: Challenge): string {
  const g = c.goal;
  return g.kind === 'exact'
    ? 'every event exactly once'
    : `${g.kind === 'lose' ? 'lose' : 'apply twice'} at least ${g.atLeast} event${g.atLeast > 1 ? 's' : ''}`;
}

/**
 * What makes a challenge no exercise, each naming its field (empty: none), judged as the page
 * judges a student's run: its start already meets the goal (nothing to do), its reference
 * solution misses it or breaks the rules, or no setting or placement within its rules reaches it.
 */
export function challengeProblems(c: Challenge, count: SolutionCount): Issue[] {
  const input = startInput(c);
  if (!input.ok) return input.issues;
  const start = parseScenario(input.input);
  if (!start.ok) return start.issues.map((i) => ({ path: `start.${i.path}`, message: i.message }));
  const out: Issue[] = [];
  const cutOff = simulate(start.scenario, { explain: false }).cutOff;
  // A start the goal already holds for: an unchanged run is no attempt (docs/challenges.md), so
  // the student would have nothing to find.
  const startRun = judgeAttempt(c, start.scenario, start.scenario, cutOff);
  if (startRun.verdict === 'solved')
    out.push({
      path: 'goal',
      message: `the start already meets it (${goalWords(c)}), before any change: nothing is left for the student to do`,
    });
  const solution = parseScenario(solutionInput(c, input.input));
  if (!solution.ok)
    out.push({
      path: 'solution',
      message: `not a valid scenario (${solution.issues.map((i) => `${i.path}: ${i.message}`).join('; ')})`,
    });
  else {
    const j = judgeAttempt(c, start.scenario, solution.scenario, cutOff);
    if (j.verdict === 'refused')
      out.push({
        path: 'solution',
        message: `breaks the challenge's own rules (${j.reasons.join('; ')})`,
      });
    else if (j.verdict === 'missed')
      out.push({ path: 'solution', message: `its run does not reach the goal (${goalWords(c)})` });
  }
  if (count.solutions === 0)
    out.push({
      path: 'allow',
      message: `none of the ${count.of} ${count.unit === 'placements' ? 'single-fault placements' : 'knob settings'} it allows reaches the goal (${goalWords(c)}): no student can solve it`,
    });
  return out;
}
