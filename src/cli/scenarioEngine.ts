/**
 * Which engine runs a scenario, one rule for every command of the CLI — the runner, `check` on
 * scenario files and on page embeds, `--compare`'s lanes, `--format sql`: a scenario with a
 * `batch` part is a batch job, run by the batch engine and judged by its checker
 * (docs/format.md#batch-jobs, docs/semantics/batch.md); any other runs on the streaming engine.
 */
import {
  compareBatchExpect,
  compareExpect,
  faultsNeverFired,
  runBatch,
  simulate,
  type Expect,
  type ExpectMismatch,
  type Scenario,
} from '../engine';
import { faultName, faultWhat } from '../views/edit/faultName';

export type ScenarioKind = 'batch' | 'stream';

export function scenarioKind(s: Pick<Scenario, 'batch'>): ScenarioKind {
  return s.batch ? 'batch' : 'stream';
}

/** The kind in words, for a message: "a batch job". */
export function kindWords(kind: ScenarioKind): string {
  return kind === 'batch' ? 'a batch job' : 'a streaming scenario';
}

/**
 * Run the scenario on its engine and compare the run with `expect` (the differences, none: it
 * holds), and the scenario's own faults that never fired in that run, each as the
 * text report flags it (`crash, a crash of consumer-0 …, never fired: its condition never came`):
 * `check` names them beside its ✓ or ✗ — a pin taken from a run whose fault never came holds, and
 * says nothing of the crash the setup describes. A batch job's faults are its batch part's (its
 * own report names them): none here.
 * @param quiet - ids of faults that never fire on purpose (a library preset's `neverFires`), left out.
 */
export function expectCheck(
  scenario: Scenario,
  expect: Expect,
  quiet: readonly string[] = [],
): { diff: ExpectMismatch[]; unfired: string[] } {
  if (scenarioKind(scenario) === 'batch')
    return { diff: compareBatchExpect(runBatch(scenario), expect), unfired: [] };
  const run = simulate(scenario);
  const kept = (index: number) => {
    const id = scenario.faults[index]!.id;
    return id === undefined || !quiet.includes(id);
  };
  return {
    diff: compareExpect(run, expect),
    unfired: faultsNeverFired(run)
      .filter(({ index }) => kept(index))
      .map(({ index, why }) => {
        const spec = scenario.faults[index]!;
        return `${faultName(spec, index)}, ${faultWhat(spec)}, never fired: ${why ?? 'its condition never came'}`;
      }),
  };
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
