/**
 * The heat map of an atlas while it runs: the final map's rows and columns (they depend on the
 * placements alone), its cells drawn from the trials run so far, and where the trials not run yet
 * sit — a cell with none run is "not run yet", one with some still to run is partly run — with a
 * summary worded as provisional. Pure, as ./heatMap.ts.
 */
import type { AtlasSoFar } from './atlasSoFar';
import { baseBreaksWords, heatLayout, heatMap, totalsWords, type HeatMap } from './heatMap';

/** A running atlas's heat map. */
export interface HeatMapSoFar {
  /** The map of the trials run so far. */
  map: HeatMap;
  /** Trials not run yet per cell, by `row * columns + column` (cells with none left out). */
  pending: ReadonlyMap<number, number>;
  /** Trials not run yet, in all. */
  notRun: number;
  /** Cells with trials run and trials not run yet. */
  partlyRun: number;
  /** "So far: 1,204 of 2,858 placements run: 1,180 held, 24 duplicate." */
  summary: string;
}

/** The heat map of `soFar`, laid out as {@link heatMap} lays out the finished atlas. */
export function heatMapSoFar(
  soFar: AtlasSoFar,
  columns = 24,
  scale: 'time' | 'steps' = 'time',
): HeatMapSoFar {
  const map = heatMap(soFar.atlas, columns, scale);
  const layout = heatLayout(soFar.atlas, columns, scale);
  const n = layout.columns.length;
  const pending = new Map<number, number>();
  for (const t of soFar.pending) {
    const { row, column } = layout.place(t.placements);
    const key = row * n + column;
    pending.set(key, (pending.get(key) ?? 0) + 1);
  }
  const ran = new Set(map.cells.map((c) => c.row * n + c.column));
  const partlyRun = [...pending.keys()].filter((k) => ran.has(k)).length;
  return {
    map,
    pending,
    notRun: soFar.pending.length,
    partlyRun,
    summary: summarySoFar(soFar, map),
  };
}

/** The provisional summary: counts only (where the breaks come from waits for the end). */
function summarySoFar(soFar: AtlasSoFar, map: HeatMap): string {
  const what = soFar.atlas.depth === 1 ? 'placements' : 'pairs of placements';
  const counts = soFar.done > 0 ? `: ${totalsWords(map.totals)}` : '';
  return `${baseBreaksWords(soFar.atlas)}So far: ${soFar.done.toLocaleString('en-US')} of ${soFar.total.toLocaleString('en-US')} ${what} run${counts}.`;
}
