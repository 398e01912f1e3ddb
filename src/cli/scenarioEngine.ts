/**
 * Which engine runs a scenario, one rule for every command of the CLI — the runner, `check` on
 * scenario files and on page embeds, `--compare`'s lanes, `--format sql`: a scenario with a
 * `batch` part is a batch job, run by the batch engine and judged by its checker
 * (docs/format.md#batch-jobs, docs/semantics/batch.md); any other runs on the streaming engine.
 */
import {
  compareBatchExpect,
  compareExpect,
  runBatch,
  simulate,
  type Expect,
  type ExpectMismatch,
  type Scenario,
  type SimulateOptions,
} from '../engine';

export type ScenarioKind = 'batch' | 'stream';

export function scenarioKind(s: Pick<Scenario, 'batch'>): ScenarioKind {
  return s.batch ? 'batch' : 'stream';
}

/** The kind in words, for a message: "a batch job". */
export function kindWords(kind: ScenarioKind): string {
  return kind === 'batch' ? 'a batch job' : 'a streaming scenario';
}

/** Run the scenario on its engine and compare the run with `expect` (the differences, none: it holds). */
export function expectMismatches(
  scenario: Scenario,
  expect: Expect,
  limits: Pick<SimulateOptions, 'maxTraceEntries'> = {},
): ExpectMismatch[] {
  return scenarioKind(scenario) === 'batch'
    ? compareBatchExpect(runBatch(scenario), expect)
    : compareExpect(simulate(scenario, limits), expect);
}

/**
 * The pin of a scenario without one, from its run on its engine: the sink's totals `check`
 * compares and the observed guarantee (the block the page's Export writes has these too,
 * src/views/edit/pinExpect.ts).
 */
export function pinOfRun(scenario: Scenario): Expect {
  if (scenarioKind(scenario) === 'batch') {
    const v = runBatch(scenario).verdict;
    const t = v.totals;
    return {
      totals: { rows: t.rows, duplicates: t.duplicates, lost: t.lost, sum: t.observedSum },
      observed: v.observed,
    };
  }
  const v = simulate(scenario).verdict;
  const t = v.points.find((p) => p.name === v.primary)!.totals;
  return {
    totals: { rows: t.rows, duplicates: t.duplicates, lost: t.lost, sum: t.observedSum },
    observed: v.observed,
  };
}
