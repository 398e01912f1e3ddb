/**
 * One trial of the fault atlas run from scratch: the reference every faster path must equal,
 * byte for byte (src/engine/atlas/continuation.ts forks instead).
 */
import type { FaultSpec, Scenario } from '../scenario/schema';
import { simulate, type Run } from '../simulate';
import type { BufferPool } from '../core/pool';
import type { Events } from '../scenario/workload';

/** The scenario with `faults` appended to its own. */
export function withFaults(s: Scenario, faults: readonly FaultSpec[]): Scenario {
  return { ...s, faults: [...s.faults, ...faults] };
}

/**
 * One trial: `s` run with `faults` added, without explanations, sharing `events` (built by
 * `buildEvents(s.workload, s.seed)` outside the pool). The same run as
 * `simulate(withFaults(s, faults))`, byte for byte (src/scenarios/atlasTrials.prop.test.ts).
 */
export function runTrial(
  s: Scenario,
  faults: readonly FaultSpec[],
  events: Events,
  pool?: BufferPool,
): Run {
  return simulate(withFaults(s, faults), { pool, explain: false, events });
}
