/**
 * A validated scenario in, its view out: simulate and derive. Zod-free, so the page's first run of
 * a preset loads no schema (its parse comes from ./parseForRun.ts); computeRun.ts puts zod's
 * validation in front of it for any scenario as written. The explanations (src/engine/explain,
 * ~18 kB gzip) are the caller's to pass in: the run client loads them beside this chunk when it
 * wants them (the lab's page, always), the embed only once it shows a "why" (issue 31).
 */
import { BufferPool, type Explanation, type Scenario, type Verdict } from '../../engine/index';
import type { Run } from '../../engine/simulate';
import { simulateUnexplained } from '../../engine/simulateUnexplained';
import type { ProcessorJobs } from '../../engine/processors/jobs';
import { toRunView } from './runView';
import type { ComputeResult } from './compute';
import { parseForRun } from './parseForRun';

/** Memory reused from run to run (for the run worker; see the engine's BufferPool). */
export { BufferPool };

/** The engine's `explain` (src/engine/explain), or null: the view without explanations. */
export type Explainer = ((run: Run, verdict: Verdict) => Explanation[]) | null;

/**
 * Run a validated scenario and derive its view. Never throws: an engine failure gives its
 * message. `onPhase` reports progress between the (synchronous) steps.
 * @param pool - memory reused from run to run (the run worker's): the run's arrays are given
 *   back as soon as the view is derived, so the view must be posted (transferred or copied)
 *   before the next call with the same pool.
 * @param explainer - the engine's `explain` (the same run as `simulate`'s); null leaves the
 *   verdict's explanations empty and marks the view `unexplained`.
 * @param jobs - the Flink and Spark builders, for a scenario with such a processor
 *   ({@link jobsFor}).
 */
export function runScenarioView(
  scenario: Scenario,
  onPhase: (phase: 'simulating' | 'deriving') => void,
  pool: BufferPool | undefined,
  explainer: Explainer,
  jobs: ProcessorJobs | undefined,
): ComputeResult {
  try {
    onPhase('simulating');
    const run = simulateUnexplained(scenario, { pool, jobs });
    if (explainer) run.verdict.explanations = explainer(run, run.verdict);
    onPhase('deriving');
    const view = toRunView(run);
    if (!explainer) view.verdict.unexplained = true;
    pool?.reclaim(run);
    return { ok: true, view };
  } catch (e) {
    return { ok: false, error: e instanceof Error ? e.message : String(e) };
  }
}

/** The Flink job's builder (a chunk of its own). */
const flinkBuilder = () => import('../../engine/processors/flink').then((m) => m.buildFlink);
/** The Spark query's builder (a chunk of its own). */
const sparkBuilder = () => import('../../engine/processors/spark').then((m) => m.buildSpark);

/** The builder of the processor a run does not have: simulateUnexplained never calls it. */
function notLoaded(what: string): never {
  throw new Error(`${what} is not loaded for this run (src/views/run/runScenario.ts)`);
}

/**
 * The builder of `scenario`'s processor if it is Flink or Spark, imported then, each a chunk of
 * its own: a consumer scenario's run (the embed's usual first) fetches neither, a Flink job's no
 * Spark code and a Spark query's no Flink code (issue 31: the embeds ≤ 150 KB gzip).
 */
async function jobsFor(scenario: Scenario): Promise<ProcessorJobs | undefined> {
  switch (scenario.processor.type) {
    case 'consumer':
      return undefined;
    case 'flink':
      return { buildFlink: await flinkBuilder(), buildSpark: () => notLoaded('buildSpark') };
    case 'spark':
      return { buildFlink: () => notLoaded('buildFlink'), buildSpark: await sparkBuilder() };
  }
}

/**
 * Validate (./parseForRun.ts: no zod for an untouched preset) and run a scenario as written:
 * the same result as computeRun.ts's `computeRunView`, for the run client and the run worker.
 */
export async function computeRunViewLazily(
  input: unknown,
  onPhase: (phase: 'simulating' | 'deriving') => void,
  pool: BufferPool | undefined,
  explainer: Explainer,
): Promise<ComputeResult> {
  // The builders' download starts beside the parse's when the scenario as written names such a
  // processor (only a hint: the parsed scenario decides).
  const kind = (input as { processor?: { type?: unknown } } | null)?.processor?.type;
  if (kind === 'flink') flinkBuilder().catch(() => {});
  if (kind === 'spark') sparkBuilder().catch(() => {});
  const parsed = await parseForRun(input);
  return parsed.ok
    ? runScenarioView(parsed.scenario, onPhase, pool, explainer, await jobsFor(parsed.scenario))
    : { ok: false, issues: parsed.issues };
}
