/**
 * Run the lanes of a compare where the engine is at hand (the CLI, the Markdown artifact): each
 * lane's scenario simulated, its view derived, and the compare model of the lanes that ran. A lane
 * that cannot be built (an unavailable guarantee, a refused knob) keeps its reason, and the model
 * is of the others.
 */
import { simulate, type Run, type Scenario, type ScenarioInput } from '../../engine';
import { toRunView } from '../run/runView';
import { compareModel, type CompareModel } from './compareModel';
import { laneScenarios, laneTitle, type CompareSpec, type LaneScenario } from './lanes';

/** One lane: its title, and its run or why it has none. */
type LaneResult =
  | { title: string; ok: true; run: Run; scenario: Scenario }
  | { title: string; ok: false; reason: string };

/** Lanes that ran and their model (null when fewer than two ran). */
export interface ComparedRuns {
  lanes: LaneResult[];
  model: CompareModel | null;
}

/** Compare scenarios already built: the first is the one the others are compared with. */
export function compareBuilt(
  lanes: readonly { title: string; lane: LaneScenario }[],
  run: (s: Scenario) => Run = simulate,
): ComparedRuns {
  const results: LaneResult[] = lanes.map(({ title, lane }) =>
    lane.ok
      ? { title, ok: true, run: run(lane.scenario), scenario: lane.scenario }
      : { title, ok: false, reason: lane.reason },
  );
  const ran = results.filter((l): l is Extract<LaneResult, { ok: true }> => l.ok);
  return {
    lanes: results,
    model:
      ran.length >= 2
        ? compareModel(ran.map((l) => ({ title: l.title, view: toRunView(l.run) })))
        : null,
  };
}

/** Compare `base` with the lanes of `spec`. */
export function compareScenario(
  base: ScenarioInput,
  spec: CompareSpec,
  run?: (s: Scenario) => Run,
): ComparedRuns {
  const lanes = laneScenarios(base, spec);
  return compareBuilt(
    lanes.map((lane, i) => ({ title: laneTitle(base, i === 0 ? null : spec.lanes[i - 1]!), lane })),
    run,
  );
}
