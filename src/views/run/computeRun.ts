/**
 * Scenario in, view out: validate, simulate, derive — the simulation itself, apart from the small
 * helpers of compute.ts so that the page loads it lazily (src/platform/runClient.ts) and its
 * first paint does not wait for the engine; the run worker imports it directly.
 */
import { parseScenario, simulate, type BufferPool } from '../../engine';
import { toRunView } from './runView';
import type { ComputeResult } from './compute';

/** Memory reused from run to run (for the run worker; see the engine's BufferPool). */
export { BufferPool } from '../../engine';

/**
 * Validate and run a scenario (as written, defaults not applied) and derive its view.
 * Never throws: an invalid scenario gives its issues (each naming the field), an engine failure
 * its message. `onPhase` reports progress between the (synchronous) steps.
 * @param pool - memory reused from run to run (the run worker's): the run's arrays are given
 *   back as soon as the view is derived, so the view must be posted (transferred or copied)
 *   before the next call with the same pool.
 */
export function computeRunView(
  input: unknown,
  onPhase: (phase: 'simulating' | 'deriving') => void = () => {},
  pool?: BufferPool,
): ComputeResult {
  const parsed = parseScenario(input);
  if (!parsed.ok) return { ok: false, issues: parsed.issues };
  try {
    onPhase('simulating');
    const run = simulate(parsed.scenario, { pool });
    onPhase('deriving');
    const view = toRunView(run);
    pool?.reclaim(run);
    return { ok: true, view };
  } catch (e) {
    return { ok: false, error: e instanceof Error ? e.message : String(e) };
  }
}

/**
 * The engine's own totals at the primary point for the run cut off at time `t` (`stopAtMs = t`):
 * the reference the dashboard's live counters must equal at cursor time t (the browser tests
 * compare them). Null for an invalid scenario.
 */
export function cutOffTotals(
  input: unknown,
  t: number,
): { rows: number; duplicates: number; lost: number; observedSum: number } | null {
  const parsed = parseScenario(input);
  if (!parsed.ok) return null;
  const run = simulate({ ...parsed.scenario, stopAtMs: Math.floor(t) });
  const p = run.verdict.points.find((x) => x.name === run.verdict.primary)!;
  return {
    rows: p.totals.rows,
    duplicates: p.totals.duplicates,
    lost: p.totals.lost,
    observedSum: p.totals.observedSum,
  };
}
