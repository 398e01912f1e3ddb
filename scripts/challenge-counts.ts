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
import { challenges, startInput } from '../src/scenarios/challenges';
import { challengeProblems } from '../src/views/challenge/authoring';
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

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const counts = freshCounts();
  const problems = challenges().flatMap((c) =>
    challengeProblems(c, counts[c.id]!).map((i) => `${c.id}: ${i.path}: ${i.message}`),
  );
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
