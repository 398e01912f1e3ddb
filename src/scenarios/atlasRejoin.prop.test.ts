/**
 * A trial that stops where it rejoins the scenario's own run (src/engine/atlas/rejoin.ts) — its
 * state the own run's up to entry ids and settled history (a row more in a plain table) — gives
 * the outcome the same trial gives run from scratch ({@link runTrial}) — its outcome, duplicated
 * and lost counts, and whether its fault fired — over random library variants and a plain
 * copy into a table, their generated workloads re-drawn (count and spacing), and random sets of
 * single placements.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  buildEvents,
  classify,
  enumeratePlacements,
  firstRun,
  runTrial,
  runTrials,
  noRejoinStats,
  type RejoinStats,
  type Scenario,
} from '../engine';
import { copyToTable, smallPresetScenarios } from './atlasPropTesting';

const seed = process.env.FC_SEED === 'random' ? undefined : Number(process.env.FC_SEED ?? 20261203);
const params = (numRuns: number) => ({ numRuns, ...(seed !== undefined ? { seed } : {}) });
const small = smallPresetScenarios;

/** A plain copy into a table (its lost sink writes rejoin the scenario's own run). */
const table = copyToTable(10, 'at-least-once');

/** `s` with its generated workload re-drawn (a listed workload is kept). */
function withWorkload(s: Scenario, count: number, intervalMs: number): Scenario {
  const g = s.workload.generate;
  if (!g || s.workload.events) return s;
  return { ...s, workload: { ...s.workload, generate: { ...g, count, intervalMs } } };
}

/** Over every draw: trials tested and rejoined (the property must meet some). */
const seen: RejoinStats = noRejoinStats();

describe('atlas trials that rejoin', () => {
  it('give the outcome of the same trial run from scratch', () => {
    fc.assert(
      fc.property(
        // Two draws in three the copy into a table, else a library variant.
        fc.nat(3 * small.length - 1),
        fc.integer({ min: 10, max: 40 }),
        fc.integer({ min: 500, max: 2_000 }),
        fc.array(fc.double({ min: 0, max: 1, noNaN: true, maxExcluded: true }), {
          minLength: 1,
          maxLength: 12,
        }),
        (which, count, intervalMs, picks) => {
          const s = withWorkload(small[which] ?? table, count, intervalMs);
          const first = firstRun(s);
          const placements = enumeratePlacements(s, first, undefined);
          if (placements.length === 0) return;
          // Half the picks among the lost answers of the sink's link (the retry writes a row
          // more: the rejoin modulo settled history), where there are any.
          const sinkSide = placements.filter(
            (p) => p.fault.kind === 'drop-response' && p.fault.link === 'sink',
          );
          const trials = picks.map((u, i) => {
            const from = i % 2 === 1 && sinkSide.length > 0 ? sinkSide : placements;
            return [from[Math.floor(u * from.length)]!.fault];
          });
          const events = buildEvents(s.workload, s.seed);
          const want = trials.map((t) => classify(runTrial(s, t, events), first.cutOff, t.length));
          const stats = noRejoinStats();
          // Every trial forks (no run from scratch for a short prefix), so every one is tested.
          const got = runTrials(s, trials, first.cutOff, {
            path: 'auto',
            entriesPerObject: 0,
            rejoinStats: stats,
          });
          expect(got).toEqual(want);
          seen.tried += stats.tried;
          seen.rejoined += stats.rejoined;
          seen.settled += stats.settled;
        },
      ),
      params(60),
    );
    // The property met trials that rejoined — some with other settled history (a row more in
    // a plain table, an effect more: ./stateWalk.ts) — and trials that did not.
    expect(seen.rejoined).toBeGreaterThan(0);
    expect(seen.settled).toBeGreaterThan(0);
    expect(seen.rejoined).toBeLessThan(seen.tried);
  }, 300_000);
});
