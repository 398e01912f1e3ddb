/**
 * The per-event diff of compared lanes: for each business event, its fate in every lane — how many
 * times it took effect at the end of the pipeline (0 lost, 1 once, 2+ duplicated), as the checker
 * counts it — with the lane's one-sentence "why" (the run's own explanation, src/engine/explain.ts).
 * The events whose fate differs come first.
 *
 * Built from the checker's verdict alone, so the page (a RunView from a Worker) and the CLI (the
 * engine's Run) derive the same diff from the same run.
 */
import { fateOf, type Explanation, type Fate } from '../../engine';
import { formatCountOf } from '../run/format';

/** What the diff needs of one lane's run: the checker's points, primary point and explanations. */
export interface VerdictLike {
  primary: string;
  points: readonly { name: string; rows: ArrayLike<number>; effects: ArrayLike<number> }[];
  explanations: readonly Explanation[];
}

/** One lane's final outcome per business id. */
export interface LaneOutcome {
  /** Business ids in workload order. */
  ids: readonly string[];
  /** Effects per id at the primary point (rows, or re-applied effects: the checker's count). */
  counts: Map<string, number>;
  /** The lane's sentence for each lost or duplicated id, at the primary point. */
  why: Map<string, string>;
  /** What a count counts there: rows of a table, records of a topic, effects of a service. */
  unit: 'row' | 'record' | 'effect';
}

/** The unit of a primary point's count. */
function unitOf(primary: string): LaneOutcome['unit'] {
  return primary === 'effects' ? 'effect' : primary.startsWith('log:') ? 'record' : 'row';
}

/**
 * A lane's outcome from its verdict.
 * @param idOf - the business id of identity j (`Run.events.identityId`, views' `eventIdOf`).
 */
export function laneOutcome(
  verdict: VerdictLike,
  identities: number,
  idOf: (j: number) => string,
): LaneOutcome {
  const p = verdict.points.find((x) => x.name === verdict.primary)!;
  const ids: string[] = [];
  const counts = new Map<string, number>();
  for (let j = 0; j < identities; j++) {
    const id = idOf(j);
    ids.push(id);
    counts.set(id, Math.max(p.rows[j]!, p.effects[j]!));
  }
  const why = new Map<string, string>();
  for (const e of verdict.explanations) {
    if (e.point !== verdict.primary) continue;
    for (const id of e.events) if (!why.has(id)) why.set(id, e.template.replaceAll('{id}', id));
  }
  return { ids, counts, why, unit: unitOf(verdict.primary) };
}

/** An event's fate in one lane; `count` null: the lane's workload has no such event. */
export interface LaneFate {
  count: number | null;
  fate: Fate | null;
  why?: string;
}

/** One row of the diff. */
export interface DiffRow {
  id: string;
  fates: LaneFate[];
  /** Whether the lanes disagree on it (a different count of effects). */
  differs: boolean;
}

/**
 * The per-event diff: every business id of any lane (the first lane's order, then ids only later
 * lanes have), those whose count differs between lanes first, each group in that order.
 */
export function eventDiff(lanes: readonly LaneOutcome[]): DiffRow[] {
  const order: string[] = [];
  const seen = new Set<string>();
  for (const l of lanes)
    for (const id of l.ids)
      if (!seen.has(id)) {
        seen.add(id);
        order.push(id);
      }
  const rows = order.map((id): DiffRow => {
    const fates = lanes.map((l): LaneFate => {
      const count = l.counts.get(id);
      if (count === undefined) return { count: null, fate: null };
      const why = l.why.get(id);
      return { count, fate: fateOf(count), ...(why !== undefined ? { why } : {}) };
    });
    const differs = fates.some((f) => f.count !== fates[0]!.count);
    return { id, fates, differs };
  });
  return [...rows.filter((r) => r.differs), ...rows.filter((r) => !r.differs)];
}

/** "2 rows", "1 row", "0 rows (lost)", "— (no such event)". */
export function fateWords(f: LaneFate, unit: LaneOutcome['unit']): string {
  if (f.count === null) return '— (no such event)';
  const n = formatCountOf(f.count, unit);
  return f.count === 0 ? `${n} (lost)` : n;
}

/** `p-77: 2 rows | 1 row | 1 row`: one diff row as a line. */
export function diffLine(row: DiffRow, units: readonly LaneOutcome['unit'][]): string {
  return `${row.id}: ${row.fates.map((f, i) => fateWords(f, units[i]!)).join(' | ')}`;
}
