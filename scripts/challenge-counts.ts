/**
 * Counts the solutions of every shipped challenge (src/views/challenge/solutions.ts: the fault
 * atlas for a challenge of faults, the knob settings for one of knobs) and writes them to
 * src/scenarios/challenges/solutionCounts.json, which the page shows ("10 of 202 placements")
 * without running a few thousand simulations. A unit test (src/views/challenge/solutions.test.ts)
 * fails when the file differs from a fresh count.
 *
 * It is also the author's check of a challenge being written (docs/challenges.md, "Writing a
 * challenge"): it prints each challenge's count, and refuses — writing nothing, exit 1, each
 * problem naming the challenge and its field — a start that already meets the goal, a reference
 * solution that does not reach it, or a challenge nothing within its rules solves.
 *
 *   npx tsx scripts/challenge-counts.ts
 */
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { judgeAttempt, parseScenario, simulate, type Challenge } from '../src/engine';
import { challenges, solutionInput, startInput } from '../src/scenarios/challenges';
import { countSolutions, type SolutionCount } from '../src/views/challenge/solutions';

export const COUNTS_PATH = 'src/scenarios/challenges/solutionCounts.json';

/** Every shipped challenge's count, by id, in list order. */
export function freshCounts(): Record<string, SolutionCount> {
  const out: Record<string, SolutionCount> = {};
  for (const c of challenges()) {
    const start = startInput(c);
    if (!start.ok) throw new Error(`challenge ${c.id}: no start`);
    out[c.id] = countSolutions(c, start.input);
  }
  return out;
}

/** The goal in words, for a problem's sentence. */
function goalWords(c: Challenge): string {
  const g = c.goal;
  return g.kind === 'exact'
    ? 'every event exactly once'
    : `${g.kind === 'lose' ? 'lose' : 'apply twice'} at least ${g.atLeast} event${g.atLeast > 1 ? 's' : ''}`;
}

/**
 * What makes a challenge no exercise, one `id: field: sentence` each (empty: none), judged as the
 * page judges a student's run: its start already meets the goal (nothing to do), its reference
 * solution misses it or breaks the rules, or no setting or placement within its rules reaches it.
 */
export function challengeProblems(c: Challenge, count: SolutionCount): string[] {
  const input = startInput(c);
  if (!input.ok) return input.issues.map((i) => `${c.id}: ${i.path}: ${i.message}`);
  const start = parseScenario(input.input);
  if (!start.ok) return start.issues.map((i) => `${c.id}: start.${i.path}: ${i.message}`);
  const out: string[] = [];
  const cutOff = simulate(start.scenario, { explain: false }).cutOff;
  // A start the goal already holds for: an unchanged run is no attempt (docs/challenges.md), so
  // the student would have nothing to find.
  const startRun = judgeAttempt(c, start.scenario, start.scenario, cutOff);
  if (startRun.verdict === 'solved')
    out.push(
      `${c.id}: goal: the start already meets it (${goalWords(c)}), before any change: nothing is left for the student to do`,
    );
  const solution = parseScenario(solutionInput(c, input.input));
  if (!solution.ok)
    out.push(
      `${c.id}: solution: not a valid scenario (${solution.issues.map((i) => `${i.path}: ${i.message}`).join('; ')})`,
    );
  else {
    const j = judgeAttempt(c, start.scenario, solution.scenario, cutOff);
    if (j.verdict === 'refused')
      out.push(`${c.id}: solution: breaks the challenge's own rules (${j.reasons.join('; ')})`);
    else if (j.verdict === 'missed')
      out.push(`${c.id}: solution: its run does not reach the goal (${goalWords(c)})`);
  }
  if (count.solutions === 0)
    out.push(
      `${c.id}: allow: none of the ${count.of} ${count.unit === 'placements' ? 'single-fault placements' : 'knob settings'} it allows reaches the goal (${goalWords(c)}): no student can solve it`,
    );
  return out;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const counts = freshCounts();
  const problems = challenges().flatMap((c) => challengeProblems(c, counts[c.id]!));
  for (const c of challenges()) {
    const n = counts[c.id]!;
    process.stdout.write(`${c.id}: ${n.solutions} of ${n.of} ${n.unit} solve it\n`);
  }
  if (problems.length > 0) {
    process.stderr.write(`${problems.join('\n')}\nnot written: ${COUNTS_PATH}\n`);
    process.exit(1);
  }
  writeFileSync(COUNTS_PATH, `${JSON.stringify(counts, null, 2)}\n`);
  process.stdout.write(`wrote ${COUNTS_PATH}\n`);
}
