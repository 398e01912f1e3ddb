/**
 * A validated scenario in, its view out: simulate and derive. Zod-free, so the page's first run of
 * a preset loads no schema (its parse comes from ./parseForRun.ts); computeRun.ts puts zod's
 * validation in front of it for any scenario as written.
 */
import { simulate, type BufferPool, type Scenario } from '../../engine';
import { toRunView } from './runView';
import type { ComputeResult } from './compute';
import { parseForRun } from './parseForRun';

/** Memory reused from run to run (for the run worker; see the engine's BufferPool). */
export { BufferPool } from '../../engine';

/**
 * Run a validated scenario and derive its view. Never throws: an engine failure gives its
 * message. `onPhase` reports progress between the (synchronous) steps.
 * @param pool - memory reused from run to run (the run worker's): the run's arrays are given
 *   back as soon as the view is derived, so the view must be posted (transferred or copied)
 *   before the next call with the same pool.
 */
export function runScenarioView(
  scenario: Scenario,
  onPhase: (phase: 'simulating' | 'deriving') => void = () => {},
  pool?: BufferPool,
): ComputeResult {
  try {
    onPhase('simulating');
    const run = simulate(scenario, { pool });
    onPhase('deriving');
    const view = toRunView(run);
    pool?.reclaim(run);
    return { ok: true, view };
  } catch (e) {
    return { ok: false, error: e instanceof Error ? e.message : String(e) };
  }
}

/**
 * Validate (./parseForRun.ts: no zod for an untouched preset) and run a scenario as written:
 * the same result as computeRun.ts's `computeRunView`, for the run client and the run worker.
 */
export async function computeRunViewLazily(
  input: unknown,
  onPhase?: (phase: 'simulating' | 'deriving') => void,
  pool?: BufferPool,
): Promise<ComputeResult> {
  const parsed = await parseForRun(input);
  return parsed.ok
    ? runScenarioView(parsed.scenario, onPhase, pool)
    : { ok: false, issues: parsed.issues };
}
