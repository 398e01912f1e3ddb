/**
 * A scenario's `expect` block, written true to the run on screen when the scenario leaves the
 * page (a share link, an embed snippet, the Scenario (JSON) export). A preset's block describes
 * the preset as opened; after an edit — another guarantee, a fault added by a click — it no longer
 * does, and `--check` on the author's own link failed. A block keeps its shape (the same totals,
 * the same business ids, the same points) and takes the values of the run; a scenario without
 * one gets one, or a scenario built from scratch could never be pinned.
 */
import type { ScenarioInput } from '../../engine';
import { eventIdOf, type RunView } from '../run/runView';
import { pinBatchExpect } from '../batch/batchPin';

type ExpectInput = NonNullable<ScenarioInput['expect']>;
type Totals = NonNullable<ExpectInput['totals']>;
type Point = RunView['verdict']['points'][number];

function totalsOf(p: Point, keys: Totals): Totals {
  const actual: Record<keyof Totals, number> = {
    rows: p.totals.rows,
    duplicates: p.totals.duplicates,
    lost: p.totals.lost,
    sum: p.totals.observedSum,
    events: p.totals.events,
  };
  const out: Totals = {};
  for (const k of Object.keys(keys) as (keyof Totals)[]) out[k] = actual[k];
  return out;
}

/** Rows per business id listed in `ids` (ids the run has no event for are dropped). */
function rowsOf(view: RunView, p: Point, ids: Record<string, number>): Record<string, number> {
  const index = new Map<string, number>();
  for (let j = 0; j < view.events.identities; j++) index.set(eventIdOf(view.events, j), j);
  const out: Record<string, number> = {};
  for (const id of Object.keys(ids)) {
    const j = index.get(id);
    // As `--check` counts them (engine/expect.ts): rows, or effects where there are no rows.
    if (j !== undefined) out[id] = Math.max(p.rows[j]!, p.effects[j]!);
  }
  return out;
}

/** Events a written block lists by id, at most: a link or a file stays short on a big run. */
export const PINNED_IDS_MAX = 20;

/**
 * The block a scenario without one gets: the totals `--check` compares (rows, duplicates, lost,
 * sum), the observed guarantee, and the rows of each event that did not take effect exactly once
 * (lost: 0, duplicated: 2, …), the first {@link PINNED_IDS_MAX} of them — the values filled in
 * by {@link pinExpect} from the run.
 */
function shapeOf(view: RunView): ExpectInput {
  const v = view.verdict;
  const primary = v.points.find((p) => p.name === v.primary)!;
  const rows: Record<string, number> = {};
  let listed = 0;
  for (let j = 0; j < view.events.identities && listed < PINNED_IDS_MAX; j++) {
    if (Math.max(primary.rows[j]!, primary.effects[j]!) === 1) continue;
    rows[eventIdOf(view.events, j)] = 0;
    listed++;
  }
  return {
    totals: { rows: 0, duplicates: 0, lost: 0, sum: 0 },
    ...(listed > 0 ? { rows } : {}),
    observed: v.observed,
  };
}

/**
 * The scenario with its `expect` block written from `view`, the run of this very scenario (the
 * caller checks that): a block it has keeps its shape (the same totals, ids and points) and takes
 * the run's values; a scenario without one (built from scratch, imported bare) gets one — the
 * totals, the observed guarantee and the events not taken exactly once — so that it can be
 * pinned with `--check` as well.
 * @param scenario - the scenario as written.
 * @param view - its run (null: none yet — the scenario is returned as it is).
 * @returns a new scenario object, or `scenario` itself.
 */
export function pinExpect(scenario: ScenarioInput, view: RunView | null): ScenarioInput {
  // A batch job has no stream view: its block is pinned from its batch run.
  if (scenario.batch) return pinBatchExpect(scenario);
  if (!view) return scenario;
  const e = scenario.expect ?? shapeOf(view);
  const v = view.verdict;
  const primary = v.points.find((p) => p.name === v.primary)!;
  const next: ExpectInput = {};
  if (e.totals) next.totals = totalsOf(primary, e.totals);
  if (e.rows) next.rows = rowsOf(view, primary, e.rows);
  if (e.observed !== undefined) next.observed = v.observed;
  if (e.points) {
    const points: NonNullable<ExpectInput['points']> = {};
    for (const [name, spec] of Object.entries(e.points)) {
      const p = v.points.find((x) => x.name === name);
      if (!p) continue;
      points[name] = {
        ...(spec.totals ? { totals: totalsOf(p, spec.totals) } : {}),
        ...(spec.rows ? { rows: rowsOf(view, p, spec.rows) } : {}),
      };
    }
    next.points = points;
  }
  // The atlas's pin is the CLI's to check (it runs the atlas): kept as written.
  if (e.atlas) next.atlas = e.atlas;
  return { ...scenario, expect: next };
}

/**
 * The scenario as it leaves the page (a share link, an embed snippet, the Scenario (JSON)
 * export): its `expect` block pinned to the run on screen — or left out while "Predict first"
 * hides the answer, which that block holds (a preset's, or one pinned from the run alike).
 * @param scenario - the scenario as written.
 * @param view - the run on screen (null: none yet).
 * @param o.ready - `view` is this scenario's run (status 'ready'), not the previous one's.
 * @param o.answerHidden - the prediction's answer waits (pending or locked, not revealed).
 */
export function outgoingScenario(
  scenario: ScenarioInput,
  view: RunView | null,
  o: { ready: boolean; answerHidden: boolean },
): ScenarioInput {
  if (o.answerHidden) {
    const { expect: _answer, ...withoutExpect } = scenario;
    return withoutExpect;
  }
  return o.ready ? pinExpect(scenario, view) : scenario;
}
