/**
 * A batch scenario leaving the page (share link, embed snippet, Scenario export) carries an
 * `expect` block true to its batch run — not to a stream run of its rows — so that
 * `delivery-lab check` passes on the author's own link after an edit.
 */
import { describe, expect, it } from 'vitest';
import { compareBatchExpect, parseScenario, runBatch, type ScenarioInput } from '../../engine';
import { applyGuarantee, findPreset } from '../../scenarios';
import { pinExpect } from '../edit/pinExpect';

const check = (s: ScenarioInput) => {
  const p = parseScenario(s);
  if (!p.ok) throw new Error(JSON.stringify(p.issues));
  return compareBatchExpect(runBatch(p.scenario), p.scenario.expect);
};

describe('pinning a batch scenario', { timeout: 30_000 }, () => {
  it('the append retry switched to exactly-once: the block keeps its shape and takes the batch run’s counts', () => {
    // S21 append expects 20 rows, 10 duplicates, sum 1,100, each of e1..e10 twice. Exactly-once
    // (the batch recipe: an atomic overwrite of the logical date) leaves each once: 10 rows, 550.
    const edited = applyGuarantee(
      findPreset('airflow-retry-append/append')!.variant.scenario,
      'exactly-once',
    );
    expect(check(edited).length).toBeGreaterThan(0);
    const pinned = pinExpect(edited, null);
    expect(pinned.expect?.totals).toEqual({ rows: 10, duplicates: 0, lost: 0, sum: 550 });
    expect(pinned.expect?.rows?.e1).toBe(1);
    expect(Object.keys(pinned.expect?.rows ?? {})).toHaveLength(10);
    expect(pinned.expect?.observed).toBe('exactly-once');
    expect(check(pinned)).toEqual([]);
  });

  it('a pinned fault atlas is kept as written', () => {
    const job = findPreset('airflow-retry-append/overwrite')!.variant.scenario;
    const atlas = { breaks: 0, outcomes: { held: 23 } };
    const pinned = pinExpect({ ...job, expect: { ...job.expect, atlas } }, null);
    expect(pinned.expect?.atlas).toEqual(atlas);
  });

  it('a batch scenario without a block gets one: totals, observed, and the events not once', () => {
    const { expect: _none, ...bare } = findPreset('clear-rerun-window/clock-overwrite')!.variant
      .scenario;
    // e1..e3 lost (0 rows), f1, f2 duplicated (1 own + 1 misplaced): 4 rows, 2 duplicates, 3 lost,
    // sum 2 × (100 + 200) = 600.
    expect(pinExpect(bare, null).expect).toEqual({
      totals: { rows: 4, duplicates: 2, lost: 3, sum: 600 },
      rows: { e1: 0, e2: 0, e3: 0, f1: 2, f2: 2 },
      observed: 'none',
    });
  });
});
