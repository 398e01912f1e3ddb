import { parseScenario, type Scenario } from '../src/engine';
import { findPreset } from '../src/scenarios';

/** A library preset variant's scenario, parsed (`id`: "preset/variant"); throws on an unknown id. */
export function presetScenario(id: string): Scenario {
  const raw = findPreset(id)?.variant;
  if (!raw) throw new Error(`no preset variant ${id}`);
  const parsed = parseScenario(raw.scenario);
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.issues));
  return parsed.scenario;
}
