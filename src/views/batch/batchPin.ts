/**
 * A batch scenario's `expect` block written true to its batch run when it leaves the page (a share
 * link, an embed snippet, the Scenario (JSON) export), as src/views/edit/pinExpect.ts does for a
 * stream run: a block keeps its shape (the same totals, the same event ids) and takes the run's
 * values — the counts `delivery-lab check` compares (src/engine/batch/run.ts `compareBatchExpect`).
 * A scenario without one gets the totals, the observed guarantee and the rows of each event not in
 * its own partition exactly once.
 */
import { rowsPerEvent, runBatch, type ScenarioInput } from '../../engine';
import { PINNED_IDS_MAX } from '../edit/pinExpect';
import { parseInHand } from '../run/validationOnDemand';

type ExpectInput = NonNullable<ScenarioInput['expect']>;

/**
 * The scenario with its `expect` block from its batch run (itself when it is not a valid batch
 * job). Parsed as the store parsed it (parseInHand: zod if in hand, else one of our presets), so
 * zod stays off the lab's first load (issue 24); a scenario that ran was parsed either way.
 */
export function pinBatchExpect(scenario: ScenarioInput): ScenarioInput {
  const parsed = parseInHand(scenario);
  if (!parsed?.ok || !parsed.scenario.batch) return scenario;
  const r = runBatch(parsed.scenario);
  const t = r.verdict.totals;
  const rows = rowsPerEvent(r.verdict);
  const actual = {
    rows: t.rows,
    duplicates: t.duplicates,
    lost: t.lost,
    sum: t.observedSum,
    events: t.events,
  };
  const shape: ExpectInput = scenario.expect ?? {
    totals: { rows: 0, duplicates: 0, lost: 0, sum: 0 },
    rows: Object.fromEntries(
      r.verdict.events
        .filter((e) => e.fate !== 'once')
        .slice(0, PINNED_IDS_MAX)
        .map((e) => [e.id, 0]),
    ),
    observed: r.verdict.observed,
  };
  const next: ExpectInput = {};
  if (shape.totals) {
    const totals: NonNullable<ExpectInput['totals']> = {};
    for (const k of Object.keys(shape.totals) as (keyof typeof actual)[]) totals[k] = actual[k];
    next.totals = totals;
  }
  if (shape.rows && Object.keys(shape.rows).length > 0)
    next.rows = Object.fromEntries(Object.keys(shape.rows).map((id) => [id, rows[id] ?? 0]));
  if (shape.observed !== undefined) next.observed = r.verdict.observed;
  // The atlas's pin is the CLI's to check (it runs the atlas): kept as written.
  if (shape.atlas) next.atlas = shape.atlas;
  return { ...scenario, expect: next };
}
