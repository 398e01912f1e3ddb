/**
 * A challenge being written (docs/challenges.md, "Writing a challenge"): the mistakes its author
 * makes by hand are refused, each naming the challenge and the field — a knob path that names no
 * knob (in the solution, or locked), a start that already meets the goal, a reference solution that
 * misses it, a challenge no allowed setting solves — by `validated` (its knobs) and by
 * `npx tsx scripts/challenge-counts.ts` (its runs).
 */
import { describe, expect, it } from 'vitest';
import { parseChallenge, type Challenge, type ChallengeInput } from '../../engine';
import { challengeProblems } from '../../views/challenge/authoring';
import { countSolutions } from '../../views/challenge/solutions';
import { challengeById, knobIssues, startInput } from './index';
import { shippedChallenges } from './shipped';

const mine = shippedChallenges.find((c) => c.id === 'commit-first-exactly-once')!;

function parsed(raw: ChallengeInput): Challenge {
  const r = parseChallenge(raw);
  if (!r.ok) throw new Error(JSON.stringify(r.issues));
  return r.challenge;
}

function problems(raw: ChallengeInput): string[] {
  const c = parsed(raw);
  const start = startInput(c);
  if (!start.ok) throw new Error(JSON.stringify(start.issues));
  return challengeProblems(c, countSolutions(c, start.input)).map(
    (i) => `${c.id}: ${i.path}: ${i.message}`,
  );
}

function knobs(raw: ChallengeInput) {
  const c = parsed(raw);
  const start = startInput(c);
  if (!start.ok) throw new Error(JSON.stringify(start.issues));
  return knobIssues(c, start.input);
}

describe('a challenge being written', () => {
  it('as shipped: its knobs exist and its runs make an exercise', () => {
    expect(challengeById('commit-first-exactly-once')?.title).toBe(
      'Exactly once, the crash left in',
    );
    expect(knobs(mine)).toEqual([]);
    expect(problems(mine)).toEqual([]);
  }, 60_000);

  it('refuses a lock or a solution knob that names no knob, naming the field', () => {
    const lock = knobs({
      ...mine,
      allow: {
        faults: { max: 0 },
        knobs: { max: 2, locked: ['procesor.commit', 'producer', 'producer.transactional.id'] },
      },
    });
    // Only the misspelt one: `producer` is a section of knobs, transactional.id a knob left unset.
    expect(lock.map((i) => i.path)).toEqual(['allow.knobs.locked.0']);
    expect(lock[0]!.message).toContain(
      'procesor.commit names no knob of the start, so it would lock nothing',
    );
    expect(lock[0]!.message).toContain('did you mean "processor"?');
    const solution = knobs({
      ...mine,
      solution: {
        ...mine.solution,
        knobs: [
          { path: 'processor.comit', value: 'after-processing' },
          { path: 'sink.statement', value: 'on-conflict-do-nothin' },
        ],
      },
    });
    expect(solution.map((i) => i.path)).toEqual([
      'solution.knobs.0.path',
      'solution.knobs.1.value',
    ]);
    expect(solution[0]!.message).toContain('did you mean "commit"?');
    expect(solution[1]!.message).toContain('sink.statement = "on-conflict-do-nothin"');
  });

  it('refuses a start that already meets the goal', () => {
    // The start loses e8..e10 (commit before the writes, a crash 2 records into the second
    // batch): "lose at least one" holds before any change, and the reference solution (exact)
    // no longer reaches it.
    expect(problems({ ...mine, goal: { kind: 'lose', atLeast: 1 } })).toEqual([
      'commit-first-exactly-once: goal: the start already meets it (lose at least 1 event), before any change: nothing is left for the student to do',
      'commit-first-exactly-once: solution: its run does not reach the goal (lose at least 1 event)',
    ]);
  }, 60_000);

  it('refuses a reference solution that misses the goal', () => {
    // Committing after the writes alone replays the second batch's e6 and e7: 2 duplicates.
    expect(
      problems({
        ...mine,
        solution: {
          ...mine.solution,
          knobs: [{ path: 'processor.commit', value: 'after-processing' }],
        },
      }),
    ).toEqual([
      'commit-first-exactly-once: solution: its run does not reach the goal (every event exactly once)',
    ]);
  }, 60_000);

  it('refuses a challenge no allowed knob solves', () => {
    // The processor locked and one knob allowed: no sink setting brings back e8..e10, which the
    // commit skipped before they were written.
    const out = problems({
      ...mine,
      allow: { faults: { max: 0 }, knobs: { max: 1, locked: ['processor'] } },
      solution: {
        ...mine.solution,
        knobs: [{ path: 'sink.statement', value: 'on-conflict-do-nothing' }],
      },
    });
    expect(out).toHaveLength(2);
    expect(out[0]).toBe(
      'commit-first-exactly-once: solution: its run does not reach the goal (every event exactly once)',
    );
    expect(out[1]).toMatch(
      /^commit-first-exactly-once: allow: none of the \d+ knob settings it allows reaches the goal \(every event exactly once\): no student can solve it$/,
    );
  }, 60_000);
});
