/**
 * The batch fault atlas as the page shows it (src/ui/batch/BatchAtlas.tsx): each placement of one
 * more fault (src/engine/batch/atlas.ts) in words, its outcome, and the scenario it opens as —
 * the job with that fault added, an ordinary edit of the workspace.
 */
import {
  batchAtlas,
  batchTimeLabel,
  parseScenario,
  periodLabel,
  simulateBatch,
  withPlacement,
  type BatchPlacement,
  type BatchRun,
  type ScenarioInput,
} from '../../engine';

interface BatchAtlasRow {
  words: string;
  outcome: string;
  held: boolean;
  scenario: ScenarioInput;
}

/** A placement in words, as the page lists it and the CLI prints it. */
export function placementWords(run: BatchRun, p: BatchPlacement): string {
  const date = (d: number) => periodLabel(run.calendar, d);
  switch (p.kind) {
    case 'crash': {
      const f = p.fault;
      const where =
        f.point === 'mid-write'
          ? `mid-write after ${f.afterRows} row${f.afterRows === 1 ? '' : 's'}`
          : f.point;
      return `try ${f.tryNumber} of ${date(f.logicalDate)} crashes ${where}`;
    }
    case 'clear':
      return `clear and re-run ${date(p.logicalDate)} at ${batchTimeLabel(run, p.atMs)}`;
    case 'late-row':
      return `${p.id} lands late, at ${batchTimeLabel(run, p.addedAtMs)}`;
  }
}

/** Every placement of the scenario's batch job, or the reason there are none. */
export function batchAtlasView(input: ScenarioInput): BatchAtlasRow[] | { error: string } {
  const parsed = parseScenario(input);
  if (!parsed.ok || !parsed.scenario.batch) return { error: 'no valid batch job to map' };
  const job = parsed.scenario.batch;
  const first = simulateBatch(job);
  return batchAtlas(job, parsed.scenario.claim).map((c) => ({
    words: placementWords(first, c.placement),
    outcome: `${c.observed}: ${c.lost} lost, ${c.duplicates} duplicates${
      c.wrongPartitionRows > 0 ? `, ${c.wrongPartitionRows} under the wrong partition` : ''
    }`,
    held: c.held,
    scenario: { ...input, batch: withPlacement(job, c.placement) },
  }));
}
