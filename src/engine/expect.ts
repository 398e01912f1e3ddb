/**
 * Comparing a run with a scenario's `expect` block (used by `--check`, the tests and the library).
 */
import type { Run } from './simulate';
import type { Expect } from './scenario/schema';
import type { Point } from './checker';

/** One difference between the expectation and the run. */
export interface ExpectMismatch {
  /** What differs, e.g. `totals.duplicates` or `points.reader:rc.rows.p-77`. */
  path: string;
  expected: number | string;
  actual: number | string;
  /** What lies behind `actual`, in words (the atlas's: the earliest trial that breaks the claim). */
  note?: string;
}

function comparePoint(
  run: Run,
  p: Point,
  spec: { totals?: Expect['totals']; rows?: Expect['rows'] },
  prefix: string,
  out: ExpectMismatch[],
): void {
  const t = spec.totals;
  if (t) {
    const actual: Record<string, number> = {
      rows: p.totals.rows,
      duplicates: p.totals.duplicates,
      lost: p.totals.lost,
      sum: p.totals.observedSum,
      events: p.totals.events,
    };
    for (const [k, v] of Object.entries(t)) {
      if (v === undefined) continue;
      if (actual[k] !== v)
        out.push({ path: `${prefix}totals.${k}`, expected: v, actual: actual[k]! });
    }
  }
  if (spec.rows) {
    for (const [id, v] of Object.entries(spec.rows)) {
      const j = run.events.identityOf(id);
      const actual = j < 0 ? 'no such event' : Math.max(p.rows[j]!, p.effects[j]!);
      if (actual !== v) out.push({ path: `${prefix}rows.${id}`, expected: v, actual });
    }
  }
}

/** Differences between `expect` and the run (empty: the run matches). */
export function compareExpect(run: Run, expect: Expect): ExpectMismatch[] {
  const out: ExpectMismatch[] = [];
  const v = run.verdict;
  const primary = v.points.find((p) => p.name === v.primary)!;
  comparePoint(run, primary, expect, '', out);
  if (expect.observed && expect.observed !== v.observed)
    out.push({ path: 'observed', expected: expect.observed, actual: v.observed });
  for (const [name, spec] of Object.entries(expect.points ?? {})) {
    const p = v.points.find((x) => x.name === name);
    if (!p) {
      out.push({
        path: `points.${name}`,
        expected: 'an observation point',
        actual: `none (points: ${v.points.map((x) => x.name).join(', ')})`,
      });
      continue;
    }
    comparePoint(run, p, spec, `points.${name}.`, out);
  }
  return out;
}
