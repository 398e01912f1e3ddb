/**
 * Scenario in, view out, synchronously: validate with zod, then runScenario.ts (simulate, derive).
 * For the tests and the page's test API; the page's runs go through runScenario.ts's
 * `computeRunViewLazily`, which validates an untouched preset without zod.
 */
import { explain, parseScenario, simulate, type BufferPool } from '../../engine';
import { processorJobs } from '../../engine/processors/jobs';
import type { ComputeResult } from './compute';
import { runScenarioView } from './runScenario';

/** Memory reused from run to run (for the run worker; see the engine's BufferPool). */
export { BufferPool } from '../../engine';

/**
 * Validate (with zod) and run a scenario (as written, defaults not applied) and derive its view,
 * synchronously. Never throws: an invalid scenario gives its issues (each naming the field), an
 * engine failure its message. The page's run client and worker use runScenario.ts's
 * `computeRunViewLazily`, the same result with no zod for an untouched preset.
 */
export function computeRunView(
  input: unknown,
  onPhase: (phase: 'simulating' | 'deriving') => void = () => {},
  pool?: BufferPool,
): ComputeResult {
  const parsed = parseScenario(input);
  return parsed.ok
    ? runScenarioView(parsed.scenario, onPhase, pool, explain, processorJobs)
    : { ok: false, issues: parsed.issues };
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
