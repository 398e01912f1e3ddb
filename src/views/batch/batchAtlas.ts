/**
 * The batch fault atlas as the page shows it (src/ui/batch/BatchAtlas.tsx): each placement of one
 * more fault (src/engine/batch/atlas.ts) in words, its outcome, and the scenario it opens as —
 * the job with that fault added, an ordinary edit of the workspace; and the heat map of them all:
 * one row per logical date, one column per point (before the write, mid-write after N rows, after
 * the write before success, a clear and re-run, a late row), each cell coloured by its worst
 * outcome as the stream's heat map colours its own (src/views/atlas/heatCells.ts), a summary
 * sentence and the minimal counterexample ("Show me how this breaks").
 */
import {
  OUTCOMES,
  PAIR_RUN_LIMIT,
  batchAtlas,
  batchCellsCounterexample,
  batchPairAtlas,
  groupDigits,
  parseScenario,
  periodLabel,
  periodOfRow,
  checkBatch,
  outcomeOf,
  simulateBatch,
  withPlacement,
  type BatchAtlasCell,
  type BatchPlacement,
  type BatchPlacementKind,
  type BatchRun,
  type Outcome,
  type Scenario,
  type ScenarioInput,
} from '../../engine';
import { NO_FAULT_TO_ADD } from '../atlas/heatCells';
import { choiceOf, type AtlasFindings } from '../atlas/atlasFindings';
import { outcomeCounts } from '../atlas/atlasSummary';
import type { AtlasChoice } from '../atlas/atlasChoice';
import { batchAtlasSummary } from './batchAtlasSummary';
import { observedWords } from './observedWords';
import { placementWords } from './placementWords';
import { formatCountOf } from '../run/format';

interface BatchAtlasRow {
  words: string;
  outcome: string;
  held: boolean;
  /** As the stream atlas classes a run: held, else by what broke. */
  look: Outcome;
  /** Heat map row (its logical date) and column (its point, {@link BATCH_POINTS}). */
  date: number;
  point: BatchPoint;
  placement: BatchPlacement;
  scenario: ScenarioInput;
}

/** The heat map's columns, in order. */
export const BATCH_POINTS = [
  'before-write',
  'mid-write',
  'after-write',
  'clear',
  'late-row',
] as const;
export type BatchPoint = (typeof BATCH_POINTS)[number];

/** Column headings of {@link BATCH_POINTS}. */
export const BATCH_POINT_LABELS: Record<BatchPoint, string> = {
  'before-write': 'crash before the write',
  'mid-write': 'crash mid-write after N rows',
  'after-write': 'crash after the write, before success',
  clear: 'clear and re-run',
  'late-row': 'a row lands late',
};

/** What "Pairs too" runs, beside its checkbox. */
export const BATCH_PAIRS_BOUND = `a first fault, then each one in the run it made, up to ${groupDigits(PAIR_RUN_LIMIT)} runs`;

/**
 * The atlas of a batch scenario (validated), for the page's atlas worker (src/platform/atlas.worker.ts):
 * every single fault, or (depth 2, the page's "Pairs too") every pair `sim --explore --depth 2`
 * tries — a first fault, then one in the run it made (its retry, its re-run) — of `kinds` (the
 * page's kind filter, as `--kinds`; default: every kind).
 * @throws Error saying why when the pairs are past the bound of runs, in the page's words.
 */
export function batchAtlasOf(
  s: Scenario,
  onProgress?: (done: number, total: number) => void,
  depth: 1 | 2 = 1,
  kinds?: readonly BatchPlacementKind[],
): BatchAtlasCell[] {
  if (!s.batch) throw new Error(`scenario "${s.name}" has no batch job`);
  if (depth === 1) return batchAtlas(s.batch, s.claim, onProgress, kinds);
  try {
    return batchPairAtlas(s.batch, s.claim, onProgress, kinds);
  } catch (e) {
    if (!(e instanceof Error) || !e.message.includes('the bound of runs')) throw e;
    throw new Error(
      `this job has more than ${groupDigits(PAIR_RUN_LIMIT)} pairs of faults, the bound of runs: explore its single faults, or narrow them by unticking some of the fault kinds above`,
    );
  }
}

/**
 * Every placement of the scenario's batch job, or the reason there are none.
 * @param cells - its atlas, when run elsewhere (the page's atlas worker); else it is run here.
 */
function batchAtlasView(
  input: ScenarioInput,
  cells?: readonly BatchAtlasCell[],
): BatchAtlasRow[] | { error: string } {
  const parsed = parseScenario(input);
  if (!parsed.ok || !parsed.scenario.batch) return { error: 'no valid batch job to map' };
  const job = parsed.scenario.batch;
  const first = simulateBatch(job);
  return (cells ?? batchAtlas(job, parsed.scenario.claim)).map((c) => rowOf(input, job, first, c));
}

/** One cell of the atlas as the page lists it: in words, its outcome, the scenario it opens as. */
function rowOf(
  input: ScenarioInput,
  job: NonNullable<Scenario['batch']>,
  first: BatchRun,
  c: BatchAtlasCell,
): BatchAtlasRow {
  return {
    words: c.then
      ? `${placementWords(first, c.placement)}, then ${placementWords(first, c.then)}`
      : placementWords(first, c.placement),
    outcome: `${observedWords(c.observed)}: ${c.lost} lost, ${formatCountOf(c.duplicates, 'duplicate')}${
      c.wrongPartitionRows > 0 ? `, ${c.wrongPartitionRows} under the wrong partition` : ''
    }`,
    held: c.held,
    look: c.held
      ? 'held'
      : c.lost > 0 && c.duplicates > 0
        ? 'both'
        : c.lost > 0
          ? 'losses'
          : 'duplicates',
    // A pair sits where its second fault strikes (the stream atlas's cell of its last fault).
    ...cellOf(first, c.then ?? c.placement),
    placement: c.placement,
    scenario: {
      ...input,
      batch: c.then
        ? withPlacement(withPlacement(job, c.placement), c.then)
        : withPlacement(job, c.placement),
    },
  };
}

/** The heat map cell a placement falls in: its logical date and its point. */
function cellOf(first: BatchRun, p: BatchPlacement): { date: number; point: BatchPoint } {
  switch (p.kind) {
    case 'crash':
      return { date: p.fault.logicalDate, point: p.fault.point };
    case 'clear':
      return { date: p.logicalDate, point: 'clear' };
    case 'late-row': {
      const row = first.config.source.find((r) => r.id === p.id)!;
      return { date: periodOfRow(first.calendar, row), point: 'late-row' };
    }
  }
}

interface BatchHeatCell {
  date: number;
  point: BatchPoint;
  /** Its placements, in the atlas's order. */
  trials: BatchAtlasRow[];
  /** The worst outcome among them (the order of the stream's OUTCOMES, worst last). */
  look: Outcome;
  broken: number;
}

export interface BatchHeatMap {
  /** One row per logical date of the job. */
  rows: { date: number; label: string; cells: (BatchHeatCell | null)[] }[];
  summary: string;
  /**
   * The minimal counterexample, `sim --explore`'s: the placement that breaks the claim earliest
   * (a pair's fault alone when it breaks the claim by itself); null when none does, or when the
   * job breaks it as it is (then {@link noFaultNeeded}).
   */
  counterexample: BatchAtlasRow | null;
  /**
   * When the job breaks its claim with no fault added (else null): the page's words where the
   * counterexample would be, the summary having said why first.
   */
  noFaultNeeded: string | null;
}

/** The heat map of every single fault of the scenario's batch job, or the reason there is none. */
export function batchHeatMap(
  input: ScenarioInput,
  cells?: readonly BatchAtlasCell[],
): BatchHeatMap | { error: string } {
  const parsed = parseScenario(input);
  if (!parsed.ok || !parsed.scenario.batch) return { error: 'no valid batch job to map' };
  const job = parsed.scenario.batch;
  const claim = parsed.scenario.claim;
  const list = cells ?? batchAtlas(job, claim);
  const trials = batchAtlasView(input, list);
  if ('error' in trials) return trials;
  const cal = simulateBatch(job).calendar;
  const rank = (o: Outcome) => OUTCOMES.indexOf(o);
  const rows = Array.from({ length: job.periods }, (_, date) => ({
    date,
    label: periodLabel(cal, date),
    cells: BATCH_POINTS.map((point): BatchHeatCell | null => {
      const here = trials.filter((t) => t.date === date && t.point === point);
      if (here.length === 0) return null;
      const look = here.reduce<Outcome>((w, t) => (rank(t.look) > rank(w) ? t.look : w), 'held');
      return { date, point, trials: here, look, broken: here.filter((t) => !t.held).length };
    }),
  }));
  // The job as written may break its claim before any fault is added (redis-claim-order's
  // claim-then-write): said first, or "23 of 23 break" reads as if the faults did it. The words
  // are `sim --explore`'s (./batchAtlasSummary.ts).
  const own = checkBatch(simulateBatch(job), claim);
  const summary = batchAtlasSummary(
    list.map((c) => ({
      outcome: outcomeOf(c),
      placements: c.then ? [c.placement, c.then] : [c.placement],
    })),
    list.some((c) => c.then) ? 2 : 1,
    claim,
    outcomeOf(own),
  );
  // The CLI's counterexample (`sim --explore`): the placement that strikes earliest, then fewer
  // faults, the simplest kind; of a pair, the fault that breaks the claim alone. A job that
  // breaks as it is needs none (src/engine/batch/explore.ts).
  const pick = own.held ? batchCellsCounterexample(job, claim, list) : null;
  const counterexample = pick === null ? null : rowOf(input, job, simulateBatch(job), pick);
  return {
    rows,
    summary,
    counterexample,
    noFaultNeeded: own.held ? null : NO_FAULT_TO_ADD,
  };
}

/** What a batch job's finished atlas found, for the Markdown report (src/views/atlas/atlasFindings.ts). */
export function batchAtlasFindings(
  input: ScenarioInput,
  choice: AtlasChoice,
  map: BatchHeatMap,
): AtlasFindings {
  const c = map.counterexample;
  return {
    input,
    choice: choiceOf(choice),
    summary: map.summary,
    counterexample: c && { words: `${c.words}: ${c.outcome}` },
    // A batch trial always ends (never stuck): none breaks the claim when there is no
    // counterexample and the job alone holds it.
    survives: c === null && map.noFaultNeeded === null,
    outcomes: outcomeCounts(
      map.rows.flatMap((r) => r.cells.flatMap((cell) => (cell?.trials ?? []).map((t) => t.look))),
    ),
  };
}
