/**
 * For the atlas views' tests: the one-event scenario their hand-built atlases explore (its run
 * is never looked at: the placements and results are written by hand) and the results they give.
 */
import { parseScenario, type Scenario, type TrialResult } from '../../engine';

const parsed = parseScenario({
  version: 1,
  name: 'hand-made atlas',
  claim: 'exactly-once',
  workload: { events: [{ id: 'e1', amount: 1, at: 0 }] },
});
if (!parsed.ok) throw new Error('invalid scenario');
export const handMadeScenario: Scenario = parsed.scenario;

export const HELD: TrialResult = { outcome: 'held', duplicated: 0, lost: 0, fired: true };
export const ONE_DUPLICATE: TrialResult = {
  outcome: 'duplicates',
  duplicated: 1,
  lost: 0,
  fired: true,
};
