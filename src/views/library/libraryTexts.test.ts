/**
 * The library's texts shown for every variant of a preset (its card line, what to watch) hold for
 * each variant's run: a claim that is only true of one variant says which.
 */
import { describe, expect, it } from 'vitest';
import { parseScenario, simulate, type Run } from '../../engine';
import { findPreset } from '../../scenarios';
import { K } from '../run/kinds';

function run(ref: string): Run {
  const p = parseScenario(findPreset(ref)!.variant.scenario);
  if (!p.ok) throw new Error(`${ref} invalid`);
  return simulate(p.scenario);
}

const totals = (r: Run, point = r.verdict.primary) =>
  r.verdict.points.find((p) => p.name === point)!.totals;

describe('retry-storm: "every one of them becomes a duplicate" — with idempotence off only', () => {
  const preset = findPreset('retry-storm')!.preset;

  it('says so on its card and in what to watch', () => {
    expect(preset.oneLine).toBe(
      'A busy network loses one produce response in a hundred; with idempotence off, every one of them becomes a duplicate.',
    );
    expect(preset.watch).toContain(
      'with idempotence off the log grows to 1,010 records, with it on it stays at 1,000',
    );
  });

  it('as the runs show: ten lost responses; ten duplicates without idempotence, none with it', () => {
    // producer.ts: responses #100, #200, … #1000 are dropped (e100, e199, …, e991), ten in all.
    for (const [variant, duplicates, logRows] of [
      ['idempotence-off', 10, 1010],
      ['idempotence-on', 0, 1000],
    ] as const) {
      const r = run(`retry-storm/${variant}`);
      let lost = 0;
      for (let i = 0; i < r.trace.length; i++) if (r.trace.kind[i] === K.fault) lost++;
      expect(lost, variant).toBe(10);
      expect(totals(r).duplicates, variant).toBe(duplicates);
      expect(totals(r, 'log:events').rows, variant).toBe(logRows);
    }
  });
});

describe('consume-transform-produce: "a crash before the commit aborts both"', () => {
  it('the crash after the commit decision aborts nothing', () => {
    expect(findPreset('consume-transform-produce')!.preset.oneLine).toContain(
      'a crash before the commit aborts both',
    );
    // An aborted transaction leaves an abort marker in `out`: a 'marker' entry with aux 0 (trace.ts).
    const r = run('consume-transform-produce/after-commit-decision');
    let aborts = 0;
    for (let i = 0; i < r.trace.length; i++)
      if (r.trace.kind[i] === K.marker && r.trace.aux[i] === 0) aborts++;
    expect(aborts).toBe(0);
    const before = run('consume-transform-produce/read-committed');
    let abortsBefore = 0;
    for (let i = 0; i < before.trace.length; i++)
      if (before.trace.kind[i] === K.marker && before.trace.aux[i] === 0) abortsBefore++;
    expect(abortsBefore).toBe(1);
  });
});
