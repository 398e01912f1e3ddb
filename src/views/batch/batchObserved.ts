/**
 * The guarantee a batch job's run observed, read from its scenario: the batch engine's verdict
 * (docs/semantics/batch.md "Fates"). A batch job has no stream run in the lab's store (its view
 * is derived where it is shown), so whatever judges "what the run showed" — the room's reveal of
 * the four choices — asks here.
 */
import { parseScenario, runBatch, type ScenarioInput, type Verdict } from '../../engine';

/** The observed guarantee of `input`'s batch run; null when it is no (valid) batch job. */
export function batchObserved(input: ScenarioInput): Verdict['observed'] | null {
  const parsed = parseScenario(input);
  if (!parsed.ok || !parsed.scenario.batch) return null;
  return runBatch(parsed.scenario).verdict.observed;
}
