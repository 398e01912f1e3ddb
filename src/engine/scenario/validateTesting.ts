/** Shared by the scenario-validation tests: a minimal valid scenario and the paths of a value's issues. */
import { parseScenario } from './validate';

export const base = {
  version: 1,
  name: 'x',
  workload: { events: [{ id: 'e1', amount: 10, at: 0 }] },
};
export const paths = (v: unknown) => {
  const r = parseScenario(v);
  return r.ok ? [] : r.issues.map((i) => i.path);
};
