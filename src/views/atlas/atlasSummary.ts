/**
 * The one-sentence summary of a finished fault atlas, a stream's (./heatMap.ts) or a batch job's
 * (src/views/batch/batchAtlasSummary.ts): the counts per outcome, then where each broken outcome
 * comes from — the family of placements most of its trials hold, and how many others hold as many —
 * and the outcome the subject has alone said to be its own, not put down to the placements that
 * repeat it ("212 placements: 180 held, 26 duplicate, 6 lose — every loss comes from a crash of
 * consumer-0 right after its offset commit").
 */
import { OUTCOMES, type Outcome } from '../../engine';

/** Trials per outcome. */
export type OutcomeCounts = Record<Outcome, number>;

/** Trials per outcome of a list of outcomes (none: every count 0). */
export function outcomeCounts(outcomes: Iterable<Outcome> = []): OutcomeCounts {
  const n: OutcomeCounts = { held: 0, duplicates: 0, losses: 0, both: 0, stuck: 0 };
  for (const o of outcomes) n[o]++;
  return n;
}

/** One trial as the summary reads it: its outcome, and the family of each placement it adds. */
export interface SummaryTrial {
  outcome: Outcome;
  families: readonly string[];
  /** Events it lost and applied twice (where known: a stream's trials). */
  lost?: number;
  duplicated?: number;
}

/** What a claim allows of the two breaks a trial that "loses and duplicates" has. */
const ALLOWED: Record<string, { key: 'lost' | 'duplicated'; verb: string } | undefined> = {
  'at-most-once': { key: 'lost', verb: 'loses' },
  'at-least-once': { key: 'duplicated', verb: 'duplicates' },
};

/** Each outcome: after a count ("26 duplicate"), one trial, several trials, "the one that …". */
const OUTCOME_WORDS: Record<Outcome, [string, string, string, string]> = {
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

/** A count of placements (or pairs) and what they do: "26 duplicate", "1 loses and duplicates"… */
export function outcomeCountWords(o: Outcome, count: number): string {
  return `${count.toLocaleString('en-US')} ${OUTCOME_WORDS[o][0]}`;
}

/** The counts of the outcomes there are, in words: "180 held, 26 duplicate, 6 lose". */
export function totalsWords(totals: OutcomeCounts): string {
  return OUTCOMES.filter((o) => totals[o] > 0)
    .map((o) => outcomeCountWords(o, totals[o]))
    .join(', ');
}

/** What a summary says first when the subject's own faults already break its claim, else ''. */
export function baseBreaksWords(subject: string, claim: string, base: Outcome): string {
  return base !== 'held'
    ? `The ${subject} breaks its ${claim} claim already with its own faults. `
    : '';
}

/**
 * The summary.
 * @param o.subject - what the atlas is of: "scenario", "job".
 * @param o.base - the subject's outcome with no fault added.
 * @param o.cancelled - not every trial ran.
 * @param o.alone - what the subject loses and applies twice with no fault added (where known).
 */
export function atlasSummary(o: {
  trials: readonly SummaryTrial[];
  depth: 1 | 2;
  claim: string;
  base: Outcome;
  subject: string;
  cancelled?: boolean;
  alone?: { lost: number; duplicated: number };
}): string {
  const n = o.trials.length;
  const cancelled = o.cancelled ? ' (cancelled: not every trial ran)' : '';
  const before = baseBreaksWords(o.subject, o.claim, o.base);
  if (n === 0) return `${before}No placement applies to this ${o.subject}${cancelled}.`;
  const totals = outcomeCounts(o.trials.map((t) => t.outcome));
  const what =
    o.depth === 1
      ? n === 1
        ? 'placement'
        : 'placements'
      : n === 1
        ? 'pair of placements'
        : 'pairs of placements';
  const head = `${before}${n.toLocaleString('en-US')} ${what}: ${totalsWords(totals)}${cancelled}`;
  if (totals.held === n)
    return o.base === 'held'
      ? `${head} — the ${o.claim} claim survives every ${o.depth === 1 ? 'single fault' : 'pair of faults'} tried.`
      : `${head}.`;
  const broken = (['losses', 'both', 'duplicates', 'stuck'] as const).filter((x) => totals[x] > 0);
  // A trial with the outcome the subject alone has repeats it: where it "comes from" would only
  // count placements. The other outcomes are what the added faults change.
  const words = broken.map((x) =>
    x === o.base
      ? sameAsAlone(x, totals[x], n, o.subject)
      : origin(o.trials, o.depth, x, totals[x]) +
        (x === 'both' ? allowedAsAlone(o.trials, o.claim, o.subject, o.alone) : ''),
  );
  if (o.base !== 'held' && totals[o.base] > 0)
    words.push(words.splice(broken.indexOf(o.base as (typeof broken)[number]), 1)[0]!);
  return `${head} — ${words.join('; ')}.`;
}

/**
 * Where the trials of one outcome come from, in words. A pair (depth 2) counts for the family of
 * each of its two faults, once per family: where the map draws it (the later fault) alone would
 * hide the earlier fault every broken pair shares. (Counted by its later fault, an atlas whose 170
 * losing pairs each held a leader failover said "57 of the 170 losses come from" it; a batch job's
 * "100 of the 110 come from a crash mid-write" hid the row landing late in each.)
 */
function origin(trials: readonly SummaryTrial[], depth: 1 | 2, o: Outcome, count: number): string {
  const families = new Map<string, number>();
  for (const t of trials)
    if (t.outcome === o)
      for (const f of new Set(t.families)) families.set(f, (families.get(f) ?? 0) + 1);
  const ranked = [...families.entries()].sort((a, b) => b[1] - a[1]);
  const [top, topCount] = ranked[0]!;
  const [, one, many] = OUTCOME_WORDS[o];
  const from = depth === 2 ? `a pair with ${top}` : top;
  if (topCount === count)
    return count === 1 ? `the ${one} comes from ${from}` : `every ${one} comes from ${from}`;
  // Causes as large as the one named are said: named alone, the first of a tie read as the main
  // one. Up to two are named ("as many from another cause" hid that at-most-once's other 17
  // duplicates came from a duplicate at the source: a teacher's run); more are counted.
  const tied = ranked.slice(1).filter(([, c]) => c === topCount);
  const name = (f: string) => (depth === 2 ? `pairs with ${f}` : f);
  const others =
    tied.length === 0
      ? ''
      : tied.length <= 2
        ? `, as many from ${tied.map(([f]) => name(f)).join(' and from ')}`
        : `, as many from each of ${tied.length.toLocaleString('en-US')} other causes`;
  return `${topCount.toLocaleString('en-US')} of the ${count.toLocaleString('en-US')} ${many} ${topCount === 1 ? 'comes' : 'come'} from ${depth === 2 ? `pairs with ${top}` : top}${others}`;
}

/** The trials whose outcome is the subject's own: "the 2 that duplicate do so as the scenario alone does". */
function sameAsAlone(o: Outcome, count: number, n: number, subject: string): string {
  const alone = `as the ${subject} alone does`;
  if (count === n) return `each ${alone}`;
  if (count === 1) return `the one that ${OUTCOME_WORDS[o][3]} does so ${alone}`;
  return `the ${count.toLocaleString('en-US')} that ${OUTCOME_WORDS[o][0]} do so ${alone}`;
}

/**
 * Of the trials that lose and duplicate under a claim that allows one of the two, when each has
 * just the subject's own count of it: "; each of the 34 loses 2 events, as the scenario alone
 * does, which its at-most-once claim allows". Without it, at-most-once's "34 lose and duplicate" read as 34
 * placements that lose, when the 2 losses are the scenario's own (a teacher's run); else ''.
 */
function allowedAsAlone(
  trials: readonly SummaryTrial[],
  claim: string,
  subject: string,
  alone: { lost: number; duplicated: number } | undefined,
): string {
  const allowed = ALLOWED[claim];
  if (!allowed || !alone || alone[allowed.key] === 0) return '';
  const own = alone[allowed.key];
  const both = trials.filter((t) => t.outcome === 'both');
  if (!both.every((t) => t[allowed.key] === own)) return '';
  const each = both.length === 1 ? 'it' : `each of the ${both.length.toLocaleString('en-US')}`;
  return `; ${each} ${allowed.verb} ${own.toLocaleString('en-US')} ${own === 1 ? 'event' : 'events'}, as the ${subject} alone does, which its ${claim} claim allows`;
}
