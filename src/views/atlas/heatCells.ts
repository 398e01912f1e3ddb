/**
 * What the page's heat map shows of each outcome and cell, in words: a colour from the Okabe–Ito
 * palette (distinguishable with the common colour-vision deficiencies:
 * https://jfly.uni-koeln.de/color/), a glyph so that no outcome is told by colour alone, a label
 * per cell for screen readers, the placements a cell holds, and the arrow-key moves of the grid.
 */
import {
  breaks,
  minimalCounterexample,
  OUTCOMES,
  PAIR_EVENT_LIMIT,
  PAIR_RUN_LIMIT,
  type Atlas,
  type FaultSpec,
  type Outcome,
  type TrialResult,
} from '../../engine';
import { formatCountOf, formatMs } from '../run/format';
import { partitionName, type HeatCell, type HeatMap, type OutcomeCounts } from './heatMap';
import { outcomeCountWords } from './atlasSummary';

/** How an outcome looks: its legend label, glyph and fill. */
export interface OutcomeLook {
  label: string;
  glyph: string;
  colour: string;
}

export const OUTCOME_LOOK: Record<Outcome, OutcomeLook> = {
  held: { label: 'held', glyph: '✓', colour: '#56B4E9' },
  duplicates: { label: 'duplicates', glyph: '2×', colour: '#E69F00' },
  losses: { label: 'losses', glyph: '✕', colour: '#D55E00' },
  both: { label: 'losses and duplicates', glyph: '✕2', colour: '#CC79A7' },
  stuck: { label: 'stuck (never drained)', glyph: '…', colour: '#999999' },
};

/** The legend: every outcome, its look and its count, worst last (as {@link OUTCOMES}). */
export function legend(
  totals: OutcomeCounts,
): (OutcomeLook & { outcome: Outcome; count: number })[] {
  return OUTCOMES.map((o) => ({ outcome: o, count: totals[o], ...OUTCOME_LOOK[o] }));
}

/**
 * A row's heading: the component, but a leader failover's row (`partition:events:0`, the
 * placements' id) as the summary and the partition's card say it, "leader of events-0".
 */
export function rowLabel(component: string): string {
  return component.startsWith('partition:') ? `leader of ${partitionName(component)}` : component;
}

/** A column's time span in words: "400 ms – 1.200 s". */
export function columnLabel(col: { from: number; to: number }): string {
  return `${formatMs(col.from)} – ${formatMs(col.to)}`;
}

/**
 * The counts of a cell in words, worst first, as the summary says them ("2 lose, 3 held"): the
 * legend's nouns after a count read "1 losses".
 */
export function countsText(counts: OutcomeCounts): string {
  return [...OUTCOMES]
    .reverse()
    .filter((o) => counts[o] > 0)
    .map((o) => outcomeCountWords(o, counts[o]))
    .join(', ');
}

/**
 * A cell's accessible name: "consumer-0, 400 ms – 1.200 s: 5 placements — 2 lose, 3 held";
 * while the atlas runs, with its `pending` trials: "…: 3 of 5 placements run — 3 held; 2 not run
 * yet", or "…: 5 placements not run yet".
 */
export function cellLabel(
  map: HeatMap,
  cell: HeatCell | undefined,
  row: number,
  column: number,
  depth: 1 | 2,
  pending = 0,
): string {
  const where = `${rowLabel(map.rows[row]!)}, ${columnLabel(map.columns[column]!)}`;
  const unit = depth === 1 ? 'placement' : 'pair';
  if (!cell)
    return pending > 0
      ? `${where}: ${formatCountOf(pending, unit)} not run yet`
      : `${where}: no placement`;
  const n = cell.trials.length;
  if (pending > 0)
    return `${where}: ${n.toLocaleString('en-US')} of ${formatCountOf(n + pending, unit)} run — ${countsText(cell.counts)}; ${pending.toLocaleString('en-US')} not run yet`;
  const what = formatCountOf(n, unit);
  return `${where}: ${what} — ${countsText(cell.counts)}`;
}

/** How a cell with no trial run yet looks (its hatching is atlas.css's `.atlas-not-run`). */
export const NOT_RUN_LOOK = { label: 'not run yet', glyph: '?' } as const;

/** One trial of a cell, as the cell's list shows it. */
export interface CellTrial {
  trial: number;
  /** Its placements in words (two for a pair), joined: "… and …". */
  label: string;
  outcome: Outcome;
  /** "held", or what broke: "2 duplicated", "1 lost, 2 duplicated". */
  result: string;
  faults: FaultSpec[];
}

/** A trial's result in words: "held", "2 duplicated", "1 lost, 2 duplicated", "stuck". */
export function resultText(r: TrialResult): string {
  if (r.outcome === 'held' || r.outcome === 'stuck') return r.outcome;
  const parts = [
    r.lost > 0 ? `${r.lost} lost` : '',
    r.duplicated > 0 ? `${r.duplicated} duplicated` : '',
  ];
  return parts.filter(Boolean).join(', ') || OUTCOME_LOOK[r.outcome].label;
}

/** The minimal counterexample (the engine's), with its result in words; null when none. */
export function minimalCounterexampleOf(
  atlas: Atlas,
): { faults: FaultSpec[]; labels: string[]; result: string } | null {
  const c = minimalCounterexample(atlas);
  return c && { faults: c.faults, labels: c.labels, result: resultText(c.result) };
}

/** The trials of a cell, worst first, then in atlas order. */
export function cellTrials(atlas: Atlas, cell: HeatCell): CellTrial[] {
  const rows = cell.trials.map((i) => {
    const t = atlas.trials[i]!;
    const ps = t.placements.map((j) => atlas.placements[j]!);
    const r = t.result;
    return {
      trial: i,
      label: ps.map((p) => p.label).join(' and '),
      outcome: r.outcome,
      result: resultText(r),
      faults: ps.map((p) => p.fault),
    };
  });
  const rank = (o: Outcome) => OUTCOMES.indexOf(o);
  return rows.sort((a, b) => rank(b.outcome) - rank(a.outcome) || a.trial - b.trial);
}

/**
 * The plain verdict of a finished atlas where no trial broke the claim: "Survives every one of
 * 256 single faults"; null when one did, when the scenario breaks the claim on its own, or when
 * the atlas was cancelled.
 */
export function survivesSentence(atlas: Atlas): string | null {
  if (atlas.partial || breaks(atlas.base) || atlas.trials.some((t) => breaks(t.result)))
    return null;
  const n = atlas.trials.length.toLocaleString('en-US');
  return atlas.depth === 1
    ? `Survives every one of ${n} single faults.`
    : `Survives every one of ${n} pairs of faults.`;
}

/**
 * What stands in for the minimal counterexample when the scenario (a stream's or a batch job's)
 * breaks its claim on its own: nothing needs adding to show it break. One sentence for the CLI's
 * `--explore` and both atlases of the page.
 */
export function noFaultNeededSentence(claim: string): string {
  return `The scenario breaks its ${claim} claim with its own faults: no fault needs adding.`;
}

/**
 * What the page's atlases (a stream's, a batch job's) say where "Show me how this breaks" would be
 * when the scenario breaks its claim on its own. Their summary says that first ("The job breaks
 * its exactly-once claim already with its own faults."): said again here, the sentence was on
 * screen twice. The CLI's text, its summary and this line a table apart, keeps
 * {@link noFaultNeededSentence}.
 */
export const NO_FAULT_TO_ADD = 'No fault needs adding to show the break.';

/** {@link NO_FAULT_TO_ADD} when the atlas's scenario breaks its claim on its own, else null. */
export function noFaultNeededOf(atlas: Atlas): string | null {
  return breaks(atlas.base) ? NO_FAULT_TO_ADD : null;
}

/** The bound on pairs, as the page states it (the engine's). */
export const PAIRS_BOUND = `every pair of placements, up to ${PAIR_RUN_LIMIT.toLocaleString('en-US')} runs, for scenarios of at most ${PAIR_EVENT_LIMIT} events`;

/** A grid position. */
export interface GridPos {
  row: number;
  column: number;
}

/** Where an arrow, Home or End key moves the focus in a rows × columns grid (null: not a move). */
export function moveInGrid(
  pos: GridPos,
  key: string,
  rows: number,
  columns: number,
  ctrl = false,
): GridPos | null {
  const clampR = (r: number) => Math.max(0, Math.min(rows - 1, r));
  const clampC = (c: number) => Math.max(0, Math.min(columns - 1, c));
  switch (key) {
    case 'ArrowUp':
      return { row: clampR(pos.row - 1), column: pos.column };
    case 'ArrowDown':
      return { row: clampR(pos.row + 1), column: pos.column };
    case 'ArrowLeft':
      return { row: pos.row, column: clampC(pos.column - 1) };
    case 'ArrowRight':
      return { row: pos.row, column: clampC(pos.column + 1) };
    case 'Home':
      return { row: ctrl ? 0 : pos.row, column: 0 };
    case 'End':
      return { row: ctrl ? rows - 1 : pos.row, column: columns - 1 };
    default:
      return null;
  }
}
