/**
 * A scenario's `expect` block, kept true to the run on screen when the scenario leaves the page
 * (a share link, an embed snippet, the Scenario (JSON) export). A preset's block describes the
 * preset as opened; after an edit — another guarantee, a fault added by a click — it no longer
 * does, and `--check` on the author's own link failed. The block keeps its shape (the same
 * totals, the same business ids, the same points) and takes the values of the run.
 */
import type { ScenarioInput } from '../engine';
import { eventIdOf, type RunView } from './runView';

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

/**
 * The scenario with its `expect` block rewritten from `view`, the run of this very scenario (the
 * caller checks that). Unchanged when it has no block: a block is the author's choice.
 * @param scenario - the scenario as written.
 * @param view - its run.
 * @returns a new scenario object, or `scenario` itself.
 */
export function pinExpect(scenario: ScenarioInput, view: RunView | null): ScenarioInput {
  const e = scenario.expect;
  if (!e || !view) return scenario;
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
  return { ...scenario, expect: next };
}
