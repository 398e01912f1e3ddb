/**
 * The fault atlas as a heat map: components (rows, in pipeline order) × time buckets (columns),
 * each cell the worst outcome of the trials in it with the count of each outcome, and the
 * one-sentence summary ("212 placements: 180 held, 26 duplicate, 6 lose — every loss comes from
 * a crash of consumer-0 right after its offset commit"). A pair (depth 2) sits where its later
 * fault strikes. Pure: the page's atlas panel and the CLI read the same model.
 */
import {
  CRASH_POINT_WORDS,
  OUTCOMES,
  type Atlas,
  type Outcome,
  type Placement,
} from '../../engine';
import { STAGES, stageOf } from '../run/actors';

/** Trials per outcome. */
export type OutcomeCounts = Record<Outcome, number>;

/** One cell of the heat map (only cells with trials are listed). */
export interface HeatCell {
  row: number;
  column: number;
  /** The worst outcome in the cell ({@link OUTCOMES} order). */
  worst: Outcome;
  counts: OutcomeCounts;
  /** The trials in it (indices into `atlas.trials`), in atlas order. */
  trials: number[];
}

/** The heat map model. */
export interface HeatMap {
  /** Row labels: components (`producer`, `partition:payments:0`, `consumer-0`, …). */
  rows: string[];
  /** Column time spans [from, to) in virtual ms (the last one includes its end). */
  columns: { from: number; to: number }[];
  cells: HeatCell[];
  /** Every trial, by outcome. */
  totals: OutcomeCounts;
  /** Per placement kind, trials by outcome (a pair counts under its later fault's kind). */
  byKind: Record<string, OutcomeCounts>;
  summary: string;
}

/** An empty count per outcome. */
function zeroCounts(): OutcomeCounts {
  return { held: 0, duplicates: 0, losses: 0, both: 0, stuck: 0 };
}

/** Row order: pipeline stage (a leader failover is the broker's), then name. */
function rowKey(component: string): [number, string] {
  const stage = component.startsWith('partition:') ? 'broker' : stageOf(component);
  const i = stage === null ? STAGES.length : STAGES.indexOf(stage);
  return [i, component];
}

/** The placement a trial is drawn at: its later-striking fault (the first listed on a tie). */
function anchor(atlas: Atlas, placements: readonly number[]): Placement {
  let best = atlas.placements[placements[0]!]!;
  for (const j of placements) {
    const p = atlas.placements[j]!;
    if (p.time > best.time) best = p;
  }
  return best;
}

/** Where the trials of an atlas sit on its heat map: rows, columns, and each trial's cell. */
export interface HeatLayout {
  rows: string[];
  columns: { from: number; to: number }[];
  /** The cell of a trial adding `placements` (indices into `atlas.placements`), and its anchor. */
  place(placements: readonly number[]): { row: number; column: number; anchor: Placement };
}

/**
 * The rows and columns of {@link heatMap}: they depend on the placements alone, so a trial's cell
 * is known before it runs (the page draws the placements not run yet: ./heatMapSoFar.ts).
 */
export function heatLayout(
  atlas: Atlas,
  columns = 24,
  scale: 'time' | 'steps' = 'time',
): HeatLayout {
  const rows = [...new Set(atlas.placements.map((p) => p.component))].sort((a, b) => {
    const [sa, na] = rowKey(a);
    const [sb, nb] = rowKey(b);
    return sa - sb || (na < nb ? -1 : na > nb ? 1 : 0);
  });
  const { cols, columnOf } =
    scale === 'time' ? timeColumns(atlas, columns) : stepColumns(atlas, columns);
  const rowOf = new Map(rows.map((r, i) => [r, i]));
  return {
    rows,
    columns: cols,
    place: (placements) => {
      const p = anchor(atlas, placements);
      return { row: rowOf.get(p.component)!, column: columnOf(p.time), anchor: p };
    },
  };
}

/**
 * The heat map of `atlas` with at most `columns` time buckets: of equal width over the placements'
 * times (`scale` 'time'), or (`scale` 'steps') each holding as many of the distinct moments a
 * placement strikes at — a run's faults cluster (a producer's first second, then a consumer's
 * polls much later), and equal widths would leave most of them in one column and the rest empty.
 */
export function heatMap(atlas: Atlas, columns = 24, scale: 'time' | 'steps' = 'time'): HeatMap {
  const layout = heatLayout(atlas, columns, scale);
  const { rows } = layout;
  const n = layout.columns.length;
  const anchors: Placement[] = [];
  const byCell = new Map<number, HeatCell>();
  const totals = zeroCounts();
  const byKind: Record<string, OutcomeCounts> = {};
  atlas.trials.forEach((t, i) => {
    const { row, column, anchor: p } = layout.place(t.placements);
    anchors.push(p);
    const key = row * n + column;
    let cell = byCell.get(key);
    if (!cell) {
      cell = { row, column, worst: 'held', counts: zeroCounts(), trials: [] };
      byCell.set(key, cell);
    }
    const o = t.result.outcome;
    cell.counts[o]++;
    cell.trials.push(i);
    if (OUTCOMES.indexOf(o) > OUTCOMES.indexOf(cell.worst)) cell.worst = o;
    totals[o]++;
    (byKind[p.kind] ??= zeroCounts())[o]++;
  });
  const cells = [...byCell.values()].sort((a, b) => a.row - b.row || a.column - b.column);
  return {
    rows,
    columns: layout.columns,
    cells,
    totals,
    byKind,
    summary: summary(atlas, anchors, totals),
  };
}

/** Columns of the heat map: how many, their time spans, and a placement time's column. */
interface Columns {
  n: number;
  cols: { from: number; to: number }[];
  columnOf: (time: number) => number;
}

/** At most `columns` buckets of equal width between the first and the last placement time. */
function timeColumns(atlas: Atlas, columns: number): Columns {
  const times = atlas.placements.map((p) => p.time);
  const lo = times.length > 0 ? Math.min(...times) : 0;
  const hi = times.length > 0 ? Math.max(...times) : 0;
  const n = Math.max(1, Math.min(columns, hi - lo + 1));
  const width = (hi - lo + 1) / n;
  const cols = Array.from({ length: n }, (_, i) => ({
    from: Math.round(lo + i * width),
    to: Math.round(lo + (i + 1) * width),
  }));
  return { n, cols, columnOf: (t) => Math.min(n - 1, Math.floor((t - lo) / width)) };
}

/** At most `columns` buckets, each with an equal share of the distinct placement times. */
function stepColumns(atlas: Atlas, columns: number): Columns {
  const distinct = [...new Set(atlas.placements.map((p) => p.time))].sort((a, b) => a - b);
  const m = distinct.length;
  const n = Math.max(1, Math.min(columns, m));
  const rank = new Map(distinct.map((t, k) => [t, k]));
  const columnOf = (t: number) => Math.floor(((rank.get(t) ?? 0) * n) / Math.max(1, m));
  const cols = Array.from({ length: n }, () => ({ from: Infinity, to: -Infinity }));
  for (const t of distinct) {
    const c = cols[columnOf(t)]!;
    c.from = Math.min(c.from, t);
    c.to = Math.max(c.to, t + 1);
  }
  return { n, cols: m === 0 ? [{ from: 0, to: 1 }] : cols, columnOf };
}

/** A placement's family in words, the unit the summary names: "a crash of consumer-0 mid-batch". */
export function familyOf(p: Placement): string {
  const f = p.fault;
  switch (f.kind) {
    case 'crash':
      return `a crash of ${f.target} ${f.point === 'mid-batch' ? 'mid-batch' : CRASH_POINT_WORDS[f.point as Exclude<typeof f.point, 'now' | 'mid-batch'>]}`;
    case 'drop-request':
      return `a lost ${f.link} request`;
    case 'drop-response':
      return `a lost ${f.link === 'produce' ? 'produce acknowledgement' : `${f.link} response`}`;
    case 'delay-response':
      return `a ${f.link} response delayed past the timeout`;
    case 'random':
      return `a failure of the leader of ${p.component.slice('partition:'.length).replace(/:(\d+)$/, '-$1')} after an append`;
    case 'rebalance':
      return `a rebalance of ${f.target}`;
    case 'zombie':
      return `a zombie pause of ${f.target}`;
    case 'app-resend':
      return 'a re-send by the application';
    case 'source-duplicate':
      return 'a duplicate from the source';
    default:
      return p.kind;
  }
}

/** Each outcome in the summary: after a count ("26 duplicate"), one trial, several trials. */
const OUTCOME_WORDS: Record<Outcome, [string, string, string]> = {
  held: ['held', 'hold', 'holds'],
  duplicates: ['duplicate', 'duplicate', 'duplicates'],
  losses: ['lose', 'loss', 'losses'],
  both: ['lose and duplicate', 'loss with a duplicate', 'losses with duplicates'],
  stuck: ['get stuck', 'stuck run', 'stuck runs'],
};

/**
 * Where the trials of one outcome come from, in words. A pair (depth 2) counts for the family of
 * each of its two faults, once per family: its anchor is only where the map draws it (the later
 * fault), and a pair whose earlier fault is the leader failover that loses the record comes from
 * that failover as much as from the crash after it. (Counted by its anchor alone, an atlas whose
 * 170 losing pairs each held a leader failover said "57 of the 170 losses come from" it.)
 */
function origin(atlas: Atlas, anchors: readonly Placement[], o: Outcome, count: number): string {
  const pairs = atlas.depth === 2;
  const families = new Map<string, number>();
  atlas.trials.forEach((t, i) => {
    if (t.result.outcome !== o) return;
    const mine = pairs
      ? new Set(t.placements.map((k) => familyOf(atlas.placements[k]!)))
      : [familyOf(anchors[i]!)];
    for (const f of mine) families.set(f, (families.get(f) ?? 0) + 1);
  });
  const sorted = [...families.entries()].sort((a, b) => b[1] - a[1]);
  const [top, topCount] = sorted[0]!;
  const [, one, many] = OUTCOME_WORDS[o];
  const from = pairs ? `a pair with ${top}` : top;
  if (topCount === count)
    return count === 1 ? `the ${one} comes from ${from}` : `every ${one} comes from ${from}`;
  return `${topCount.toLocaleString('en-US')} of the ${count.toLocaleString('en-US')} ${many} come from ${pairs ? `pairs with ${top}` : top}`;
}

/** The counts of the outcomes there are, in words: "180 held, 26 duplicate, 6 lose". */
export function totalsWords(totals: OutcomeCounts): string {
  return OUTCOMES.filter((o) => totals[o] > 0)
    .map((o) => `${totals[o].toLocaleString('en-US')} ${OUTCOME_WORDS[o][0]}`)
    .join(', ');
}

/** What a summary says first when the scenario's own faults already break its claim, else ''. */
export function baseBreaksWords(atlas: Atlas): string {
  return atlas.base.outcome !== 'held'
    ? `The scenario breaks its ${atlas.scenario.claim} claim already with its own faults. `
    : '';
}

/** The one-sentence summary of an atlas. */
function summary(atlas: Atlas, anchors: readonly Placement[], totals: OutcomeCounts): string {
  const n = atlas.trials.length;
  const what = atlas.depth === 1 ? 'placements' : 'pairs of placements';
  const cancelled = atlas.partial ? ' (cancelled: not every trial ran)' : '';
  const before = baseBreaksWords(atlas);
  if (n === 0) return `${before}No placement applies to this scenario${cancelled}.`;
  const head = `${before}${n.toLocaleString('en-US')} ${what}: ${totalsWords(totals)}${cancelled}`;
  if (totals.held === n)
    return atlas.base.outcome === 'held'
      ? `${head} — the ${atlas.scenario.claim} claim survives every ${atlas.depth === 1 ? 'single fault' : 'pair of faults'} tried.`
      : `${head}.`;
  const worst = (['losses', 'both', 'duplicates', 'stuck'] as const).filter((o) => totals[o] > 0);
  // A trial with the outcome the scenario alone has repeats it: where it "comes from" would only
  // count placements. The other outcomes are what the added faults change.
  const own = atlas.base.outcome;
  const words = worst.map((o) =>
    o === own ? sameAsAlone(o, totals[o], n) : origin(atlas, anchors, o, totals[o]),
  );
  if (own !== 'held' && totals[own] > 0) words.push(words.splice(worst.indexOf(own), 1)[0]!);
  return `${head} — ${words.join('; ')}.`;
}

/** The trials whose outcome is the scenario's own: "the 2 that duplicate do so as the scenario alone does". */
function sameAsAlone(o: Outcome, count: number, n: number): string {
  if (count === n) return 'each as the scenario alone does';
  if (count === 1) return `the one that ${SINGULAR_VERB[o]} does so as the scenario alone does`;
  return `the ${count.toLocaleString('en-US')} that ${OUTCOME_WORDS[o][0]} do so as the scenario alone does`;
}

/** Each outcome's verb after "the one that". */
const SINGULAR_VERB: Record<Outcome, string> = {
  held: 'holds',
  duplicates: 'duplicates',
  losses: 'loses',
  both: 'loses and duplicates',
  stuck: 'gets stuck',
};
