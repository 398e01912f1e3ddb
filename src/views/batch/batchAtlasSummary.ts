/**
 * The one-sentence summary of a batch job's fault atlas: the page's heat map (./batchAtlas.ts) and
 * `sim --explore` on a batch job (src/cli/exploreBatch.ts) say the same words, as a stream's atlas
 * has one summary for both (src/views/atlas/heatMap.ts), whose rules it follows — the counts per
 * outcome, then where each broken outcome comes from, and the outcome the job has alone said to be
 * its own ("do so as the job alone does"), not put down to the placements that repeat it.
 * (The page said "12 of 23 single faults break the exactly-once claim: 0 lose events, 12
 * duplicate them" where the CLI said "23 placements: 11 held, 12 duplicate — 10 of the 12 come
 * from a late-arriving row", of the same atlas.)
 */
import { OUTCOMES, type BatchPlacement, type Outcome } from '../../engine';
import type { OutcomeCounts } from '../atlas/heatMap';

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

/** Each outcome: after a count ("12 duplicate"), one trial, several trials, "the one that …". */
const WORDS: Record<Outcome, [string, string, string, string]> = {
  held: ['held', 'hold', 'holds', 'holds'],
  duplicates: ['duplicate', 'duplicate', 'duplicates', 'duplicates'],
  losses: ['lose', 'loss', 'losses', 'loses'],
  both: [
    'lose and duplicate',
    'loss with a duplicate',
    'losses with duplicates',
    'loses and duplicates',
  ],
  stuck: ['get stuck', 'stuck run', 'stuck runs', 'gets stuck'],
};

/**
 * The summary of a finished batch atlas.
 * @param base - the job's outcome with no fault added.
 */
export function batchAtlasSummary(
  trials: readonly BatchSummaryTrial[],
  depth: 1 | 2,
  claim: string,
  base: Outcome,
): string {
  const n = trials.length;
  const before =
    base !== 'held' ? `The job breaks its ${claim} claim already with its own faults. ` : '';
  if (n === 0) return `${before}No placement applies to this job.`;
  const totals: OutcomeCounts = { held: 0, duplicates: 0, losses: 0, both: 0, stuck: 0 };
  for (const t of trials) totals[t.outcome]++;
  const parts = OUTCOMES.filter((o) => totals[o] > 0).map(
    (o) => `${totals[o].toLocaleString('en-US')} ${WORDS[o][0]}`,
  );
  const head = `${before}${n.toLocaleString('en-US')} ${depth === 1 ? 'placements' : 'pairs of placements'}: ${parts.join(', ')}`;
  if (totals.held === n)
    return base === 'held'
      ? `${head} — the ${claim} claim survives every ${depth === 1 ? 'single fault' : 'pair of faults'} tried.`
      : `${head}.`;
  const broken = (['losses', 'both', 'duplicates', 'stuck'] as const).filter((o) => totals[o] > 0);
  const words = broken.map((o) =>
    o === base ? sameAsAlone(o, totals[o], n) : origin(trials, depth, o, totals[o]),
  );
  // The job's own outcome last: the others are what the added faults change.
  if (base !== 'held' && totals[base] > 0) words.push(words.splice(broken.indexOf(base), 1)[0]!);
  return `${head} — ${words.join('; ')}.`;
}

/**
 * Where the trials of one outcome come from. A pair counts for the family of each of its faults,
 * once per family: its later fault alone would hide an earlier fault every losing pair shares — a
 * row landing late (it said "100 of the 110 come from a crash mid-write").
 */
function origin(
  trials: readonly BatchSummaryTrial[],
  depth: 1 | 2,
  o: Outcome,
  count: number,
): string {
  const families = new Map<string, number>();
  for (const t of trials)
    if (t.outcome === o)
      for (const f of new Set(t.placements.map(batchFamilyOf)))
        families.set(f, (families.get(f) ?? 0) + 1);
  const [top, topCount] = [...families.entries()].sort((a, b) => b[1] - a[1])[0]!;
  const [, one, many] = WORDS[o];
  if (topCount === count)
    return `${count === 1 ? `the ${one}` : `every ${one}`} comes from ${depth === 2 ? `a pair with ${top}` : top}`;
  return `${topCount.toLocaleString('en-US')} of the ${count.toLocaleString('en-US')} ${many} come from ${depth === 2 ? `pairs with ${top}` : top}`;
}

/** The trials whose outcome is the job's own: "the 12 that duplicate do so as the job alone does". */
function sameAsAlone(o: Outcome, count: number, n: number): string {
  if (count === n) return 'each as the job alone does';
  if (count === 1) return `the one that ${WORDS[o][3]} does so as the job alone does`;
  return `the ${count.toLocaleString('en-US')} that ${WORDS[o][0]} do so as the job alone does`;
}
