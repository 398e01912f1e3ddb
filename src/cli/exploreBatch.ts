/**
 * `sim <batch scenario> --explore [--depth 1|2] [--kinds crash,clear,late-row] [--format json|text]
 * [--check]`: the batch fault atlas (src/engine/batch/explore.ts) in the terminal, in the same
 * report as a streaming scenario's (./explore.ts): counts per outcome and per kind, a summary, and
 * the minimal counterexample written as the scenario edit that adds it, with its stories.
 */
import {
  BATCH_PLACEMENT_KINDS,
  explainBatchTrial,
  batchCounterexample,
  exploreBatch,
  simulateBatch,
  type BatchPlacement,
  type BatchTrial,
  type Scenario,
} from '../engine';
import { outcomeCounts, type OutcomeCounts } from '../views/atlas/atlasSummary';
import { batchAtlasSummary } from '../views/batch/batchAtlasSummary';
import { placementWords } from '../views/batch/placementWords';
import { checkLine, claimBroken, exploreText, parseKinds, type ExploreReport } from './explore';

/** A placement as the scenario edit that makes it: an entry to add, or a source row's landing time. */
function placementEdit(p: BatchPlacement): { field: string; value: unknown } {
  switch (p.kind) {
    case 'crash':
      return { field: 'batch.faults', value: p.fault };
    case 'clear':
      return { field: 'batch.clears', value: { logicalDate: p.logicalDate, atMs: p.atMs } };
    case 'late-row':
      return { field: 'batch.source', value: { id: p.id, addedAtMs: p.addedAtMs } };
  }
}

/** The placement a trial is counted under: its last to strike (the first listed on a tie). */
function anchor(t: BatchTrial): BatchPlacement {
  return t.placements[t.times.indexOf(t.time)]!;
}

/** Build the report of a batch scenario's atlas (runs it). */
export function exploreBatchReport(
  s: Scenario,
  depth: 1 | 2,
  kinds: readonly (typeof BATCH_PLACEMENT_KINDS)[number][],
  presetRef: string | undefined,
): ExploreReport {
  const job = s.batch!;
  const x = exploreBatch(job, s.claim, { depth, kinds });
  const first = simulateBatch(job);
  const totals = outcomeCounts();
  // Per kind, in the kinds' order (crash, clear, late-row), only the kinds with trials.
  const byKind: Record<string, OutcomeCounts> = {};
  for (const k of kinds)
    if (x.trials.some((t) => anchor(t).kind === k)) byKind[k] = outcomeCounts();
  for (const t of x.trials) {
    totals[t.result.outcome]++;
    (byKind[anchor(t).kind] ??= outcomeCounts())[t.result.outcome]++;
  }
  const trial = batchCounterexample(job, s.claim, x);
  const asReported = (t: BatchTrial) => ({
    faults: t.placements.map(placementEdit),
    labels: t.placements.map((p) => placementWords(first, p)),
    timeMs: t.time,
    outcome: t.result.outcome,
    duplicated: t.result.duplicated,
    lost: t.result.lost,
  });
  return {
    scenario: s.name,
    ...(presetRef ? { preset: presetRef } : {}),
    claim: s.claim,
    depth,
    kinds,
    base: { outcome: x.base.outcome, duplicated: x.base.duplicated, lost: x.base.lost },
    trials: x.trials.length,
    placements: x.placements.length,
    outcomes: totals,
    byKind,
    summary: batchAtlasSummary(
      x.trials.map((t) => ({ outcome: t.result.outcome, placements: t.placements })),
      depth,
      s.claim,
      x.base.outcome,
    ),
    counterexample:
      trial === null
        ? null
        : { ...asReported(trial), explanation: explainBatchTrial(job, s.claim, trial) },
    breaking: x.trials.filter((t) => t.result.outcome !== 'held').map(asReported),
  };
}

/** The CLI's `--explore` on a batch scenario: exit 0, 2 on bad arguments, 3 with --check when the claim breaks. */
export function runBatchExplore(
  s: Scenario,
  presetRef: string | undefined,
  depth: 1 | 2,
  kindsArg: string | undefined,
  format: string,
  check: boolean,
  out: (text: string) => void,
  err: (line: string) => void,
): number {
  const kinds = parseKinds(kindsArg, BATCH_PLACEMENT_KINDS, ' for a batch job');
  if ('problem' in kinds) {
    err(kinds.problem);
    return 2;
  }
  let report: ExploreReport;
  try {
    report = exploreBatchReport(s, depth, kinds, presetRef);
  } catch (e) {
    const msg = (e as Error).message;
    if (msg.includes('the bound of runs')) {
      err(`--depth 2: ${msg}`);
      return 2;
    }
    throw e;
  }
  out(`${format === 'json' ? JSON.stringify(report, null, 2) : exploreText(report)}\n`);
  if (!check) return 0;
  const broken = claimBroken(report);
  err(checkLine(report));
  return broken ? 3 : 0;
}
