/**
 * Which run a scenario object stands for. Opening or closing Compare and ticking the fault atlas's
 * kinds put a copy of the unchanged scenario on screen (labStore's `setCompare`, `setAtlas`: a new
 * object, so what watches the scenario sees a change), and undo or redo brings back the object of
 * each step. What is kept per run — "this run's end was seen" (`PredictionContext`), "this is the
 * replay of a link or a file" (`LabState.replay`) — is kept under the object the copies came from,
 * so a copy is the same run and an edit (a new scenario, even one equal to an earlier one) is not:
 * a preset opened again is a new object, and its outcome waits again (docs/page.md, "the outcome in
 * its time").
 */
import type { ScenarioInput } from '../engine';

/** Each copy made by {@link copyOfSameRun}, to the scenario object it is a copy of. */
const origins = new WeakMap<ScenarioInput, ScenarioInput>();

/** A copy of `scenario` (a new object, the same fields) that stands for the same run. */
export function copyOfSameRun(scenario: ScenarioInput): ScenarioInput {
  const copy = { ...scenario };
  origins.set(copy, runOf(scenario));
  return copy;
}

/** The scenario object `scenario`'s run is kept under: the one its copies came from. */
export function runOf(scenario: ScenarioInput): ScenarioInput {
  return origins.get(scenario) ?? scenario;
}

/** Whether `a` and `b` stand for the same run (one is a copy of the other, or both of one). */
export function sameRun(a: ScenarioInput | null, b: ScenarioInput | null): boolean {
  return a !== null && b !== null && runOf(a) === runOf(b);
}
