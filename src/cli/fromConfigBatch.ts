/**
 * `delivery-lab from-config` for a batch job's files (a dbt model's config, an Airflow DAG:
 * src/scenarios/config/importBatchConfig.ts): each setting and where it went, what the files left
 * unset, then the batch run of the scenario it built — its report as `delivery-lab <preset>`
 * prints a batch job's (src/cli/batchReport.ts) — and the guarantee it observed under the
 * workload's fault (docs/cli.md#batch-files). Exit 0 it ran · 2 a value is refused · 3 the
 * workload's fault never fired under these settings: not tested (with `--check`, also when the run
 * breaks the claim: ./fromConfigCheck.ts; no atlas runs here).
 */
import {
  batchFaultsNeverFired,
  neverFiredWords,
  parseScenario,
  runBatch,
  type BatchResult,
} from '../engine';
import type { ConfigImport } from '../scenarios/config/importConfig';
import { batchText } from './batchReport';
import { guaranteeLine, keyGroupLines } from './fromConfigLines';
import { pipelineCheck } from './fromConfigCheck';

type Imported = Extract<ConfigImport, { ok: true }>;

export function batchFromConfig(
  imported: Imported,
  format: string,
  claimWords: string,
  check: boolean,
  out: (s: string) => void,
  err: (s: string) => void,
): number {
  const parsed = parseScenario(imported.scenario);
  const r: BatchResult | null = parsed.ok ? runBatch(parsed.scenario) : null;
  const unfired = r ? batchFaultsNeverFired(r.run).map(neverFiredWords) : [];
  const v = r?.verdict;
  const guarantee = v
    ? {
        claimed: v.claimed,
        observed: v.observed,
        held: v.held,
        tested: unfired.length === 0,
        unfired,
      }
    : null;
  if (format === 'json') {
    out(
      JSON.stringify(
        {
          kind: imported.kind,
          base: imported.base,
          fitted: imported.fitted,
          keys: imported.keys,
          notes: imported.notes ?? [],
          claim: imported.claim,
          guarantee,
          totals: v
            ? {
                rows: v.totals.rows,
                duplicates: v.totals.duplicates,
                lost: v.totals.lost,
                expectedSum: v.totals.expectedSum,
                observedSum: v.totals.observedSum,
              }
            : null,
          scenario: imported.scenario,
        },
        null,
        2,
      ),
    );
  } else {
    out(`dbt and Airflow settings on the library batch workload ${imported.base}`);
    out(claimWords);
    for (const line of keyGroupLines(imported.keys, {
      ignored: 'not modelled or not read',
      overridden: 'overridden (a more specific or later setting counts)',
    }))
      out(line);
    const notes = imported.notes ?? [];
    if (notes.length > 0)
      out(`left unset by your files (${notes.length}):\n${notes.map((n) => `  ${n}`).join('\n')}`);
    if (imported.fitted) out(`workload: ${imported.fitted}`);
    if (r) out(`\n${batchText(r, imported.scenario.name ?? imported.base, null)}\n`);
    out(guaranteeLine(guarantee, imported, unfired));
  }
  if (!imported.runnable) return 2;
  if (check) {
    const { failures, passed } = pipelineCheck({
      workload: imported.base,
      run: guarantee,
      atlas: {
        none: "a batch job's is not run here: --scenario-out FILE, then delivery-lab FILE --explore --check",
      },
    });
    for (const f of failures) err(f);
    if (failures.length === 0) err(passed);
    return failures.length > 0 ? 3 : 0;
  }
  return guarantee?.tested === false ? 3 : 0;
}
