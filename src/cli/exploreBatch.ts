/**
 * `sim <batch scenario> --explore [--depth 1|2] [--kinds crash,clear,late-row] [--format json|text]
 * [--check]`: the batch fault atlas (src/engine/batch/explore.ts) in the terminal, in the same
 * report as a streaming scenario's (./explore.ts): counts per outcome and per kind, a summary, and
 * the minimal counterexample written as the scenario edit that adds it, with its stories.
 */
import {
  BATCH_PLACEMENT_KINDS,
  explainBatchTrial,
  exploreBatch,
  minimalBatchCounterexample,
  OUTCOMES,
  simulateBatch,
  type BatchExploration,
  type BatchPlacement,
  type BatchTrial,
  type Outcome,
  type Scenario,
} from '../engine';
import type { OutcomeCounts } from '../views/atlas/heatMap';
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

/** A placement's family, the unit the summary names. */
function familyOf(p: BatchPlacement): string {
  if (p.kind === 'clear') return 'a clear and re-run';
  if (p.kind === 'late-row') return 'a late-arriving row';
  const point = p.fault.point;
  return `a crash ${point === 'mid-write' ? 'mid-write' : point === 'before-write' ? 'before the write' : 'after the write'}`;
}

/** The placement a trial is counted under: its last to strike (the first listed on a tie). */
function anchor(t: BatchTrial): BatchPlacement {
  return t.placements[t.times.indexOf(t.time)]!;
}

const zero = (): OutcomeCounts => ({ held: 0, duplicates: 0, losses: 0, both: 0, stuck: 0 });
const VERB: Record<Outcome, [string, string]> = {
  held: ['held', 'hold'],
  duplicates: ['duplicate', 'duplicate'],
  losses: ['lose', 'loss'],
  both: ['lose and duplicate', 'loss with a duplicate'],
  stuck: ['get stuck', 'stuck run'],
};

/** "23 placements: 11 held, 12 duplicate — every duplicate comes from a crash after the write". */
function summary(x: BatchExploration, claim: string, totals: OutcomeCounts): string {
  const n = x.trials.length;
  const before =
    x.base.outcome !== 'held'
      ? `The job breaks its ${claim} claim already with its own faults. `
      : '';
  if (n === 0) return `${before}No placement applies to this job.`;
  const parts = OUTCOMES.filter((o) => totals[o] > 0).map((o) => `${totals[o]} ${VERB[o][0]}`);
  const head = `${before}${n} ${x.depth === 1 ? 'placements' : 'pairs of placements'}: ${parts.join(', ')}`;
  if (totals.held === n)
    return x.base.outcome === 'held'
      ? `${head} — the ${claim} claim survives every ${x.depth === 1 ? 'single fault' : 'pair of faults'} tried.`
      : `${head}.`;
  const origins = (['losses', 'both', 'duplicates'] as const)
    .filter((o) => totals[o] > 0)
    .map((o) => {
      // A pair counts for the family of each of its faults, once per family, as the stream
      // atlas's summary does (src/views/atlas/heatMap.ts): its later fault (the anchor) alone
      // would hide an earlier fault that every losing pair shares — a row landing late.
      const families = new Map<string, number>();
      for (const t of x.trials)
        if (t.result.outcome === o) {
          const mine = x.depth === 2 ? new Set(t.placements.map(familyOf)) : [familyOf(anchor(t))];
          for (const f of mine) families.set(f, (families.get(f) ?? 0) + 1);
        }
      const [top, count] = [...families.entries()].sort((a, b) => b[1] - a[1])[0]!;
      const from = x.depth === 2 ? `a pair with ${top}` : top;
      return count === totals[o]
        ? `every ${VERB[o][1]} comes from ${from}`
        : `${count} of the ${totals[o]} come from ${x.depth === 2 ? `pairs with ${top}` : top}`;
    });
  return `${head} — ${origins.join('; ')}.`;
}

/** Build the report of a batch scenario's atlas (runs it). */
function exploreBatchReport(
  s: Scenario,
  depth: 1 | 2,
  kinds: readonly (typeof BATCH_PLACEMENT_KINDS)[number][],
  presetRef: string | undefined,
): ExploreReport {
  const job = s.batch!;
  const x = exploreBatch(job, s.claim, { depth, kinds });
  const first = simulateBatch(job);
  const totals = zero();
  // Per kind, in the kinds' order (crash, clear, late-row), only the kinds with trials.
  const byKind: Record<string, OutcomeCounts> = {};
  for (const k of kinds) if (x.trials.some((t) => anchor(t).kind === k)) byKind[k] = zero();
  for (const t of x.trials) {
    totals[t.result.outcome]++;
    (byKind[anchor(t).kind] ??= zero())[t.result.outcome]++;
  }
  const c = minimalBatchCounterexample(x);
  const trial = c === null ? null : x.trials[c]!;
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
    summary: summary(x, s.claim, totals),
    counterexample:
      trial === null
        ? null
        : {
            faults: trial.placements.map(placementEdit),
            labels: trial.placements.map((p) => placementWords(first, p)),
            timeMs: trial.time,
            outcome: trial.result.outcome,
            duplicated: trial.result.duplicated,
            lost: trial.result.lost,
            explanation: explainBatchTrial(job, s.claim, trial),
          },
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
