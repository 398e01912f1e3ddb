/**
 * A component's fault menu as offered: the actions of ./faultActions.ts that the validator
 * accepts. Apart from them because it reads zod, which the lab's first load does not (issue 24):
 * only the validation's chunk (src/views/run/validationParts.ts) imports it.
 */
import { parseScenario, type Scenario } from '../../engine';
import { menuActions, type ComponentId, type FaultAction, type FaultInput } from './faultActions';
import type { RunView } from '../run/runView';

/**
 * The fault menu of a component at the cursor: only the actions whose scenario the validator
 * accepts. Some of a component's faults need a configuration the scenario may not have — a
 * Flink crash at a checkpoint step needs checkpointing, a crash at a transaction commit needs a
 * transactional producer —; an action that would be refused is left out rather than offered and
 * then shown as a validation error. Which ones is decided by {@link parseScenario} on the
 * scenario each action would make, so the rules stay in the validator alone.
 * @param s - the scenario as run (defaults applied).
 * @param t - current virtual time (ms); faults get `at` = ⌊t⌋.
 * @param selected - the selected identity (-1: none), used by "re-send from the application".
 */
export function faultMenu(
  v: RunView,
  s: Scenario,
  component: ComponentId,
  t: number,
  idx: number,
  selected = -1,
): FaultAction[] {
  const actions = menuActions(v, s, component, t, idx, selected);
  if (actions.length === 0) return actions;
  // Only issues an action adds count: `s` is a scenario that ran, so normally it has none, but a
  // problem it already has is no reason to hide every action.
  const base = parseScenario(s);
  const known = new Set(base.ok ? [] : base.issues.map((i) => `${i.path}\u0000${i.message}`));
  return actions.filter((a) => {
    const faults: FaultInput[] = [...s.faults];
    if (a.effect.type === 'add') faults.push(a.effect.fault);
    else faults[a.effect.index] = a.effect.fault;
    const r = parseScenario({ ...s, faults });
    return r.ok || r.issues.every((i) => known.has(`${i.path}\u0000${i.message}`));
  });
}
