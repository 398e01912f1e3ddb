/**
 * The kept attempt: a solving attempt as the changes from the challenge's start, made an attempt
 * again on the presenter's page and judged as the challenge page judges one.
 */
import { describe, expect, it } from 'vitest';
import type { ScenarioInput } from '../../engine';
import { challengeById, solutionInput, startInput } from '../../scenarios/challenges';
import { attemptOfSolution, judgeSolution, solutionOfAttempt } from './solutionAttempt';
import { judgeOnPage } from './attempt';

function opened(id: string) {
  const challenge = challengeById(id)!;
  const made = startInput(challenge);
  if (!made.ok) throw new Error(`${id} has no start`);
  return { challenge, start: made.input };
}

describe('a solving attempt as a solution', () => {
  it('a knob challenge: the knob set, at its value; back, it solves the challenge', () => {
    const { challenge, start } = opened('fix-at-least-once');
    const attempt = solutionInput(challenge, start);
    expect(judgeOnPage(challenge, start, attempt).verdict).toBe('solved');
    const solution = solutionOfAttempt(start, attempt);
    expect(solution).toEqual({
      knobs: [{ path: 'sink.statement', value: 'on-conflict-do-nothing' }],
      faults: [],
    });
    expect(judgeSolution(challenge, start, solution!)).toEqual({
      ok: true,
      attempt: attemptOfSolution(start, solution!),
    });
  });

  it('a fault challenge: the fault added, as written; back, it solves the challenge', () => {
    const { challenge, start } = opened('commit-before-crash-point');
    const attempt: ScenarioInput = {
      ...start,
      faults: [{ kind: 'crash', target: 'consumer-0', point: 'after-commit', at: 0 }],
    };
    const solution = solutionOfAttempt(start, attempt);
    expect(solution).toEqual({
      knobs: [],
      faults: [{ kind: 'crash', target: 'consumer-0', point: 'after-commit', at: 0 }],
    });
    const judged = judgeSolution(challenge, start, solution!);
    expect(judged.ok).toBe(true);
  });

  it('nothing changed, or the seed changed: no solution', () => {
    const { start } = opened('commit-before-crash-point');
    expect(solutionOfAttempt(start, structuredClone(start))).toBeNull();
    expect(solutionOfAttempt(start, { ...start, seed: 99 })).toBeNull();
  });

  it('says plainly why a solution that breaks the rules or misses the goal does not open', () => {
    const { challenge, start } = opened('commit-before-crash-point');
    // Two crashes: the challenge allows one.
    const two = {
      knobs: [],
      faults: [
        { kind: 'crash', target: 'consumer-0', point: 'after-commit', at: 0 },
        { kind: 'crash', target: 'consumer-0', point: 'after-poll', at: 0 },
      ],
    };
    expect(judgeSolution(challenge, start, two)).toEqual({
      ok: false,
      why: 'it breaks the challenge’s rules: 2 faults added: at most 1',
    });
    // A crash before the commit loses nothing: the batch is read again.
    const early = {
      knobs: [],
      faults: [{ kind: 'crash', target: 'consumer-0', point: 'before-commit', at: 0 }],
    };
    expect(judgeSolution(challenge, start, early)).toEqual({
      ok: false,
      why: 'it misses the goal (Lose an event: never written at the end of the pipeline.): its run lost 0 and applied 0 twice',
    });
    expect(
      judgeSolution(challenge, start, { knobs: [], faults: [{ kind: 'no-such-fault' }] }),
    ).toEqual({
      ok: false,
      why: 'it is not a pipeline the lab can run (a knob or a fault it does not know)',
    });
  });
});
