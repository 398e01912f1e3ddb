/** Shared by the run-view tests: a scenario parsed or thrown, a preset's run view, an exactly-once Kafka output. */
import { parseScenario, simulate, type Scenario, type ScenarioInput } from '../../engine';
import { findPreset } from '../../scenarios';
import { toRunView, type RunView } from './runView';

export function scenarioOf(input: ScenarioInput): Scenario {
  const r = parseScenario(input);
  if (!r.ok) throw new Error(r.issues.map((i) => `${i.path}: ${i.message}`).join('; '));
  return r.scenario;
}

/** KafkaSink EXACTLY_ONCE into `out` (prefix `job`, 60 s transactions), read by `rc` with read_committed. */
export const exactlyOnceOut: Pick<ScenarioInput, 'sink' | 'readers'> = {
  sink: {
    type: 'kafka',
    topic: 'out',
    deliveryGuarantee: 'EXACTLY_ONCE',
    transactionalIdPrefix: 'job',
    'transaction.timeout.ms': 60_000,
  },
  readers: [{ name: 'rc', topic: 'out', 'isolation.level': 'read_committed' }],
};

export function viewOf(ref: string): RunView {
  return toRunView(simulate(scenarioOf(findPreset(ref)!.variant.scenario)));
}

