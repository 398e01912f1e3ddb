/**
 * A student's attempt as a solution, and back: the changes from the challenge's start in the
 * challenge format's own terms (`solution.knobs`, `solution.faults`: docs/challenges.md) — what
 * the challenge tab keeps when an attempt solves it and the phone sends with "Solved it"
 * (docs/classroom.md) — and, on the presenter's page, that solution made an attempt again and
 * judged as the challenge page judges one, before it opens on the projector.
 */
import { attemptChanges, parseScenario, type Challenge, type ScenarioInput } from '../../engine';
import { setKnob } from '../../scenarios/guarantees';
import { getKnob } from '../../scenarios/knobPaths';
import { RoomSolutionSchema, type RoomSolution } from '../room/protocol';
import { judgeOnPage, type AttemptOutcome } from './attempt';
import { goalWords } from './words';

/**
 * What `attempt` changed from `start` (both as written), as a solution: each knob whose value
 * differs, at its value in the attempt (defaults applied, as the rules compare them), and the
 * faults added after the start's own. Null when it changed nothing, changed what a solution
 * cannot say (the workload, the seed, the start's own faults) or is more than the room carries.
 */
export function solutionOfAttempt(
  start: ScenarioInput,
  attempt: ScenarioInput,
): RoomSolution | null {
  const s = parseScenario(start);
  const a = parseScenario(attempt);
  if (!s.ok || !a.ok) return null;
  const changes = attemptChanges(s.scenario, a.scenario);
  if (changes.fixed.length > 0 || changes.startFaultsChanged.length > 0) return null;
  const solution = {
    knobs: changes.knobs.map((path) => ({ path, value: getKnob(a.scenario, path) ?? null })),
    // Only the fields the student's fault was written with (the defaults are the format's).
    faults: (attempt.faults ?? []).slice(start.faults?.length ?? 0),
  };
  const checked = RoomSolutionSchema.safeParse(solution);
  return checked.success ? checked.data : null;
}

/** The attempt a solution makes from the challenge's start: its knobs set, its faults added. */
export function attemptOfSolution(start: ScenarioInput, solution: RoomSolution): ScenarioInput {
  let input = structuredClone(start);
  for (const k of solution.knobs) input = setKnob(input, k.path, k.value);
  return {
    ...input,
    faults: [...(input.faults ?? []), ...(structuredClone(solution.faults) as never[])],
  };
}

/**
 * A solution judged as the challenge page judges an attempt: the attempt to open when it solves
 * the challenge, or why not, in a sentence ("breaks the rules: …", "misses the goal: …").
 */
export function judgeSolution(
  c: Challenge,
  start: ScenarioInput,
  solution: RoomSolution,
): { ok: true; attempt: ScenarioInput } | { ok: false; why: string } {
  const attempt = attemptOfSolution(start, solution);
  const o: AttemptOutcome = judgeOnPage(c, start, attempt);
  switch (o.verdict) {
    case 'solved':
      return { ok: true, attempt };
    case 'refused':
      return { ok: false, why: `it breaks the challenge’s rules: ${o.reasons.join('; ')}` };
    case 'missed':
      return {
        ok: false,
        why: `it misses the goal (${goalWords(c.goal)}): its run lost ${o.lost} and applied ${o.duplicated} twice`,
      };
    case 'unchanged':
      return { ok: false, why: 'it changes nothing from the challenge’s start' };
    case 'invalid':
      return {
        ok: false,
        why: 'it is not a pipeline the lab can run (a knob or a fault it does not know)',
      };
    default: {
      const never: never = o;
      return never;
    }
  }
}
