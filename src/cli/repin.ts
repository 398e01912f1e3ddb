/**
 * What `delivery-lab check` says after a mismatch, so that a doc author whose page no longer
 * matches the lab can tell "the lab changed and my text should follow" from "my pin is wrong" and
 * act on it: the pin as it would hold now — the same block, the same fields, each mismatched one
 * with the value the run shows (docs/cli.md, "Pin your docs in CI"). An event or a point the run
 * does not have is left out: no run could ever pin it.
 */
import type { Expect, ExpectMismatch } from '../engine';

type Spec = { totals?: Expect['totals']; rows?: Expect['rows'] };

/**
 * `expect` with every field `diff` names set to the run's value (`diff` as `compareExpect` and
 * `compareBatchExpect` write it: their paths are built here the same way, field by field).
 */
export function repinned(expect: Expect, diff: readonly ExpectMismatch[]): Expect {
  const actual = new Map(diff.map((d) => [d.path, d.actual]));
  const point = (spec: Spec, prefix: string): Spec => {
    const out: Spec = {};
    if (spec.totals) {
      const totals: NonNullable<Expect['totals']> = {};
      for (const [k, v] of Object.entries(spec.totals) as [keyof typeof totals, number][]) {
        const now = actual.get(`${prefix}totals.${k}`);
        totals[k] = typeof now === 'number' ? now : v;
      }
      out.totals = totals;
    }
    if (spec.rows) {
      const rows: Record<string, number> = {};
      for (const [id, v] of Object.entries(spec.rows)) {
        const now = actual.get(`${prefix}rows.${id}`);
        // 'no such event': the scenario has no event by that id, so no run pins it.
        if (now === undefined) rows[id] = v;
        else if (typeof now === 'number') rows[id] = now;
      }
      out.rows = rows;
    }
    return out;
  };
  const next: Expect = point(expect, '');
  const observed = actual.get('observed');
  if (expect.observed !== undefined)
    next.observed = (
      typeof observed === 'string' ? observed : expect.observed
    ) as Expect['observed'];
  if (expect.points) {
    const points: NonNullable<Expect['points']> = {};
    for (const [name, spec] of Object.entries(expect.points))
      // A point the run does not have ("none (points: …)") is left out.
      if (!actual.has(`points.${name}`)) points[name] = point(spec, `points.${name}.`);
    next.points = points;
  }
  if (expect.atlas) {
    // The same kinds and depth; the counts the atlas shows now (`atlas.depth`: refused, kept).
    const { breaks, outcomes, ...chosen } = expect.atlas;
    const now = (path: string, v: number) => {
      const a = actual.get(path);
      return typeof a === 'number' ? a : v;
    };
    next.atlas = {
      ...chosen,
      ...(breaks !== undefined ? { breaks: now('atlas.breaks', breaks) } : {}),
      ...(outcomes
        ? {
            outcomes: Object.fromEntries(
              Object.entries(outcomes).map(([o, v]) => [o, now(`atlas.outcomes.${o}`, v!)]),
            ),
          }
        : {}),
    };
  }
  return next;
}

/**
 * An `expect` block as one line of JSON, to paste in single quotes into an HTML attribute
 * (`expect='…'`, as the Embed dialog writes it): a `'` or `&` in an id is written as JSON's
 * `\u0027` / `\u0026`, which read back the same.
 */
export function pinJson(expect: Expect): string {
  return JSON.stringify(expect).replace(/'/g, '\\u0027').replace(/&/g, '\\u0026');
}

/** A difference as `--check` and `check` print it: `expect mismatch: totals.rows: expected 10, got 11`. */
export function mismatchLine(d: ExpectMismatch): string {
  return `expect mismatch: ${d.path}: expected ${d.expected}, got ${d.actual}${d.note ? ` (${d.note})` : ''}`;
}

/** The line `check` prints under a mismatch: how to pin what the run shows now, if it is right. */
export function acceptNow(how: string): string {
  return `to accept what the run shows now: ${how}`;
}
