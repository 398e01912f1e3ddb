/**
 * `simulate(scenario) → run` with the verdict's explanations (./explain: why each event was lost
 * or duplicated, in a sentence): ./simulateUnexplained.ts runs the scenario, then ./explain reads
 * the run. Everything the run is and does is ./simulateUnexplained.ts's, re-exported here where
 * its users have always imported it from — with the Flink and Spark builders
 * (./processors/jobs.ts) in hand, so any scenario runs.
 */
import { explain } from './explain';
import { processorJobs } from './processors/jobs';
import {
  assembleRun as assembleRunWith,
  finishRunUnexplained,
  simulateUnexplained as simulateUnexplainedWith,
  type AssembledRun,
  type Run,
  type SimulateOptions,
} from './simulateUnexplained';
import type { Scenario } from './scenario/schema';

export * from './simulateUnexplained';

/** `opts` with the Flink and Spark builders, unless it brings its own. */
function withJobs(opts: SimulateOptions): SimulateOptions {
  return opts.jobs === undefined ? { ...opts, jobs: processorJobs } : opts;
}

/** ./simulateUnexplained.ts's, for any processor (these names win over the `export *`). */
export function simulateUnexplained(scenario: Scenario, opts: SimulateOptions = {}): Run {
  return simulateUnexplainedWith(scenario, withJobs(opts));
}

/** ./simulateUnexplained.ts's, for any processor. */
export function assembleRun(scenario: Scenario, opts: SimulateOptions = {}): AssembledRun {
  return assembleRunWith(scenario, withJobs(opts));
}

/** The run's verdict explained, unless `opts.explain` is false. */
function explained(run: Run, opts: SimulateOptions): Run {
  if (opts.explain !== false) run.verdict.explanations = explain(run, run.verdict);
  return run;
}

/**
 * Run a validated scenario. Throws only on an internal error (a bug), never on a valid scenario.
 * @returns the run: the trace, the final state and the checker's verdict (with its explanations
 *   unless `opts.explain` is false).
 */
export function simulate(scenario: Scenario, opts: SimulateOptions = {}): Run {
  return explained(simulateUnexplainedWith(scenario, withJobs(opts)), opts);
}

/** Run `run` to its end (the world's scenario's stop) and check it. */
export function finishRun(paused: AssembledRun, opts: SimulateOptions = {}): Run {
  return explained(finishRunUnexplained(paused, opts), opts);
}
