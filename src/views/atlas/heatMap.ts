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
import {
  atlasSummary,
  baseBreaksWords as scenarioBreaksWords,
  outcomeCounts,
  totalsWords,
  type OutcomeCounts,
} from './atlasSummary';

export type { OutcomeCounts };
export { totalsWords };

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

/** `partition:events:0` → `events-0`, the partition as the page's cards name it. */
export function partitionName(component: string): string {
  return component.slice('partition:'.length).replace(/:(\d+)$/, '-$1');
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
  const totals = outcomeCounts();
  const byKind: Record<string, OutcomeCounts> = {};
  atlas.trials.forEach((t, i) => {
    const { row, column, anchor: p } = layout.place(t.placements);
    anchors.push(p);
    const key = row * n + column;
    let cell = byCell.get(key);
    if (!cell) {
      cell = { row, column, worst: 'held', counts: outcomeCounts(), trials: [] };
      byCell.set(key, cell);
    }
    const o = t.result.outcome;
    cell.counts[o]++;
    cell.trials.push(i);
    if (OUTCOMES.indexOf(o) > OUTCOMES.indexOf(cell.worst)) cell.worst = o;
    totals[o]++;
    (byKind[p.kind] ??= outcomeCounts())[o]++;
  });
  const cells = [...byCell.values()].sort((a, b) => a.row - b.row || a.column - b.column);
  return {
    rows,
    columns: layout.columns,
    cells,
    totals,
    byKind,
    summary: summary(atlas, anchors),
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
      return `a failure of the leader of ${partitionName(p.component)} after an append`;
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

/** What a summary says first when the scenario's own faults already break its claim, else ''. */
export function baseBreaksWords(atlas: Atlas): string {
  return scenarioBreaksWords('scenario', atlas.scenario.claim, atlas.base.outcome);
}

/** The one-sentence summary of an atlas (./atlasSummary.ts), its trials' families by placement. */
function summary(atlas: Atlas, anchors: readonly Placement[]): string {
  const pairs = atlas.depth === 2;
  return atlasSummary({
    trials: atlas.trials.map((t, i) => ({
      outcome: t.result.outcome,
      lost: t.result.lost,
      duplicated: t.result.duplicated,
      families: pairs
        ? t.placements.map((k) => familyOf(atlas.placements[k]!))
        : [familyOf(anchors[i]!)],
    })),
    depth: atlas.depth,
    claim: atlas.scenario.claim,
    base: atlas.base.outcome,
    alone: atlas.base,
    subject: 'scenario',
    cancelled: atlas.partial,
  });
}
