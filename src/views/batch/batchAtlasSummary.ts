/**
 * The one-sentence summary of a batch job's fault atlas: the page's heat map (./batchAtlas.ts) and
 * `sim --explore` on a batch job (src/cli/exploreBatch.ts) say the same words, as a stream's atlas
 * has one summary for both — the same rules, one module (src/views/atlas/atlasSummary.ts): the
 * counts per outcome, then where each broken outcome comes from, and the outcome the job has alone
 * said to be its own ("do so as the job alone does"), not put down to the placements that repeat it.
 * (The page said "12 of 23 single faults break the exactly-once claim: 0 lose events, 12
 * duplicate them" where the CLI said "23 placements: 11 held, 12 duplicate — 10 of the 12 come
 * from a late-arriving row", of the same atlas.)
 */
import type { BatchPlacement, Outcome } from '../../engine';
import { atlasSummary } from '../atlas/atlasSummary';

/** One trial of the atlas: its outcome against the claim, and the placements it adds (1 or 2). */
export interface BatchSummaryTrial {
  outcome: Outcome;
  placements: readonly BatchPlacement[];
}

/** A placement's family, the unit the summary names. */
function batchFamilyOf(p: BatchPlacement): string {
  if (p.kind === 'clear') return 'a clear and re-run';
  if (p.kind === 'late-row') return 'a late-arriving row';
  const point = p.fault.point;
  return `a crash ${point === 'mid-write' ? 'mid-write' : point === 'before-write' ? 'before the write' : 'after the write'}`;
}

/**
 * The summary of a finished batch atlas (src/views/atlas/atlasSummary.ts, of "the job").
 * @param base - the job's outcome with no fault added.
 */
export function batchAtlasSummary(
  trials: readonly BatchSummaryTrial[],
  depth: 1 | 2,
  claim: string,
  base: Outcome,
): string {
  return atlasSummary({
    trials: trials.map((t) => ({ outcome: t.outcome, families: t.placements.map(batchFamilyOf) })),
    depth,
    claim,
    base,
    subject: 'job',
  });
}
