/**
 * How many ways solve a challenge, counted by running them: the proof that it is solvable, and a
 * measure of how hard ("1 of 119 placements").
 * - A challenge of faults: the fault atlas (src/engine/atlas) places one fault of each allowed kind
 *   at every chance the start's run gives it; each placement is judged as an attempt.
 * - A challenge of knobs: every other value of each knob the Knobs tab offers as a choice (the
 *   enumerated, on/off and unset/on/off knobs; numbers have no natural grid), alone and, when two
 *   changes are allowed, in pairs; each setting is judged as an attempt.
 * Judged by {@link judgeAttempt}, as the page judges a student's run.
 */
import {
  enumeratePlacements,
  firstRun,
  goalMet,
  judgeAttempt,
  parseScenario,
  runTrials,
  simulate,
  type Challenge,
  type Scenario,
  type ScenarioInput,
} from '../../engine';
import { getKnob } from '../../scenarios';
import { editKnob, knobsFor } from '../edit/knobs';

/** The count of a challenge's solutions. */
export interface SolutionCount {
  /** What was tried: single fault placements, or knob settings (of up to `allow.knobs.max`). */
  unit: 'placements' | 'settings';
  solutions: number;
  of: number;
}

/** Count the solutions of a challenge from its start (see the module comment). */
export function countSolutions(c: Challenge, start: ScenarioInput): SolutionCount {
  const parsed = parseScenario(start);
  if (!parsed.ok) throw new Error(`challenge ${c.id}: its start is not a valid scenario`);
  return c.allow.faults.max > 0
    ? countPlacements(c, parsed.scenario)
    : countSettings(c, start, parsed.scenario);
}

function countPlacements(c: Challenge, start: Scenario): SolutionCount {
  const first = firstRun(start);
  // The placements whose fault is of a kind the challenge allows (a leader failover is placed as
  // a `random` fault: allowed where `random` is).
  const kinds = c.allow.faults.kinds;
  const placements = enumeratePlacements(start, first).filter(
    (p) => !kinds || kinds.includes(p.fault.kind),
  );
  const results = runTrials(
    start,
    placements.map((p) => [p.fault]),
    first.cutOff,
  );
  const solutions = results.filter((r) => goalMet(c.goal, r)).length;
  return { unit: 'placements', solutions, of: placements.length };
}

/** Every other value of each knob offered as a choice: `[path, value]`. */
function knobMoves(s: Scenario): [string, unknown][] {
  const out: [string, unknown][] = [];
  for (const k of knobsFor(s)) {
    const e = k.editor;
    const values: unknown[] =
      e.type === 'enum' || e.type === 'key'
        ? [...e.options]
        : e.type === 'boolean' || e.type === 'tristate'
          ? [true, false]
          : [];
    const now = getKnob(s, k.path);
    for (const v of values) if (v !== now) out.push([k.path, v]);
  }
  return out;
}

function countSettings(c: Challenge, input: ScenarioInput, start: Scenario): SolutionCount {
  const moves = knobMoves(start);
  const combos: [string, unknown][][] = moves.map((m) => [m]);
  if (c.allow.knobs.max >= 2)
    for (let i = 0; i < moves.length; i++)
      for (let j = i + 1; j < moves.length; j++)
        if (moves[i]![0] !== moves[j]![0]) combos.push([moves[i]!, moves[j]!]);
  const startCutOff = simulate(start, { explain: false }).cutOff;
  let of = 0;
  let solutions = 0;
  for (const combo of combos) {
    let s = input;
    for (const [path, value] of combo) s = editKnob(s, path, value).scenario;
    const parsed = parseScenario(s);
    if (!parsed.ok) continue; // a combination the real systems refuse is no setting
    of++;
    if (judgeAttempt(c, start, parsed.scenario, startCutOff).verdict === 'solved') solutions++;
  }
  return { unit: 'settings', solutions, of };
}
