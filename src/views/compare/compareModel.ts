/**
 * Everything Compare shows across lanes, from the lanes' runs: each lane's outcome, the per-event
 * diff, the knobs that differ and where each lane's run departs from the first lane's. Pure: the
 * page derives it from its RunViews, the CLI and the Markdown report from theirs.
 */
import { laneOutcome, eventDiff, type DiffRow, type LaneOutcome } from './diff';
import { firstDivergence, type Divergence } from './divergence';
import { knobDifferences, type KnobDifference } from './knobDiff';
import { unfiredFaults, type UnfiredFault } from './laneFaults';
import { eventIdOf, type RunView } from '../run/runView';

/** A lane with its run. */
export interface LaneRun {
  title: string;
  view: RunView;
}

/** What Compare shows across lanes. */
export interface CompareModel {
  outcomes: LaneOutcome[];
  diff: DiffRow[];
  /** How many diff rows differ (they come first). */
  differing: number;
  knobs: KnobDifference[];
  /** Per lane after the first: where its run departs from the first lane's (null: identical). */
  divergences: (Divergence | null)[];
  /** Per lane: its faults that never fired. */
  unfired: UnfiredFault[][];
}

/** A lane's outcome from its RunView. */
function outcomeOfView(v: RunView): LaneOutcome {
  return laneOutcome(v.verdict, v.events.identities, (j) => eventIdOf(v.events, j));
}

/** The compare model of two or three lanes (the first is the one the others are compared with). */
export function compareModel(lanes: readonly LaneRun[]): CompareModel {
  const outcomes = lanes.map((l) => outcomeOfView(l.view));
  const diff = eventDiff(outcomes);
  return {
    outcomes,
    diff,
    differing: diff.filter((r) => r.differs).length,
    knobs: knobDifferences(lanes.map((l) => l.view.scenario)),
    divergences: lanes.slice(1).map((l) => firstDivergence(lanes[0]!.view, l.view)),
    unfired: lanes.map((l) => unfiredFaults(l.view)),
  };
}
