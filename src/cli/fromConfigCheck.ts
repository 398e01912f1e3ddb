/**
 * `from-config … --check`: the one CI step of issue 23 §2 — exit 3 when the pipeline's run
 * breaks the claim, when a single-fault placement of its atlas breaks it, or when the workload's
 * fault never fired (the run tested nothing); each reason one line on stderr naming what failed,
 * and one line saying what held when nothing did (docs/cli.md, "Your configuration in").
 */

/** What the report found, as `--check` judges it. */
export interface PipelineFindings {
  /** The workload whose fault the run is under (`lost-ack-retry/idempotence-on`). */
  workload: string;
  /** The run's guarantee; null when a value is refused and nothing ran. */
  run: {
    claimed: string;
    observed: string;
    held: boolean;
    /** The faults that never fired, in words (none: the run tested the workload's fault). */
    unfired: readonly string[];
  } | null;
  /**
   * The single-fault atlas: how many placements, how many break the claim and the first break
   * in words; or why none ran — `--skip-atlas`, or a batch job's files (none here).
   */
  atlas: { placements: number; breaking: number; first: string | null } | { none: string };
}

/**
 * `failures`: one line per reason the check fails (empty: it passes); `passed`: the line said
 * when it passes, naming what was checked.
 */
export function pipelineCheck(f: PipelineFindings): { failures: string[]; passed: string } {
  const failures: string[] = [];
  const run = f.run;
  if (!run) return { failures: ['check: nothing ran: a value is refused (above)'], passed: '' };
  if (run.unfired.length > 0)
    failures.push(
      `check: not tested: ${f.workload}'s fault never fired under your configuration (${run.unfired.join('; ')})`,
    );
  if (!run.held)
    failures.push(
      `check: the run breaks the ${run.claimed} claim under ${f.workload}'s fault: ${run.observed} observed`,
    );
  const atlas = 'none' in f.atlas ? null : f.atlas;
  // The atlas's base is the run itself: a run that breaks the claim is said once, above.
  if (atlas && run.held && atlas.first !== null)
    failures.push(
      `check: ${atlas.breaking.toLocaleString('en-US')} of ${atlas.placements.toLocaleString('en-US')} single-fault placements break the ${run.claimed} claim; the first: ${atlas.first}`,
    );
  const passed = atlas
    ? `check: the ${run.claimed} claim holds on the run and on each of the ${atlas.placements.toLocaleString('en-US')} single-fault placements`
    : `check: the run holds the ${run.claimed} claim under ${f.workload}'s fault (no atlas: ${(f.atlas as { none: string }).none})`;
  return { failures, passed };
}
