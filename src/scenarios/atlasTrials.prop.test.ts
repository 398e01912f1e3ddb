/**
 * The atlas's trials are exact: a trial run as the atlas runs it ({@link runTrial}: the workload's
 * event columns built once and shared, memory reused from a pool run after run) is the same run,
 * byte for byte, as a plain `simulate` of the scenario with the same faults added — same trace
 * hash, same verdict — over random library presets and random single placements and pairs.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  BufferPool,
  buildEvents,
  classify,
  enumeratePlacements,
  firstRun,
  runTrial,
  runTrials,
  simulate,
  traceHash,
  withFaults,
  type FaultSpec,
  type Scenario,
} from '../engine';
import { forEachTrialRun } from '../engine/atlas/continuation';
import { smallPresetScenarios } from './atlasPropTesting';

const seed = process.env.FC_SEED === 'random' ? undefined : Number(process.env.FC_SEED ?? 20261202);
const params = (numRuns: number) => ({ numRuns, ...(seed !== undefined ? { seed } : {}) });
const small = smallPresetScenarios;

/** What a run is: its trace's hash and its verdict, classified as the atlas does. */
function fingerprint(s: Scenario, faults: readonly FaultSpec[], baseCutOff: boolean) {
  const run = simulate(withFaults(s, faults));
  return {
    hash: traceHash(run.trace),
    held: run.verdict.held,
    observed: run.verdict.observed,
    fate: Array.from(run.verdict.fate),
    result: classify(run, baseCutOff, faults.length),
  };
}

describe('atlas trials', () => {
  it('has small library variants to draw from', () => {
    expect(small.length).toBeGreaterThan(20);
  });

  it('a trial run with shared events and a reused pool equals a plain run', () => {
    fc.assert(
      fc.property(
        fc.nat(small.length - 1),
        fc.array(fc.double({ min: 0, max: 1, noNaN: true, maxExcluded: true }), {
          minLength: 1,
          maxLength: 2,
        }),
        (which, picks) => {
          const s = small[which]!;
          const first = firstRun(s);
          const placements = enumeratePlacements(s, first, undefined);
          if (placements.length === 0) return;
          const faults = picks.map((u) => placements[Math.floor(u * placements.length)]!.fault);
          const want = fingerprint(s, faults, first.cutOff);
          // The pool first serves another run, so the trial takes memory given back by it.
          const pool = new BufferPool();
          const events = buildEvents(s.workload, s.seed);
          pool.reclaim(runTrial(s, [placements[0]!.fault], events, pool));
          const run = runTrial(s, faults, events, pool);
          expect(traceHash(run.trace)).toBe(want.hash);
          expect(run.verdict.held).toBe(want.held);
          expect(run.verdict.observed).toBe(want.observed);
          expect(Array.from(run.verdict.fate)).toEqual(want.fate);
          pool.reclaim(run);
          // And runTrials, which shares the events across its slice, classifies it the same, from
          // scratch (its default) and forked.
          expect(runTrials(s, [faults], first.cutOff, { pool })).toEqual([want.result]);
          expect(runTrials(s, [faults], first.cutOff, { pool, path: 'auto' })).toEqual([
            want.result,
          ]);
        },
      ),
      params(12),
    );
  }, 120_000);

  it('trials rewound from save points, one after another on one run, equal plain runs', () => {
    fc.assert(
      fc.property(
        fc.nat(small.length - 1),
        fc.array(fc.double({ min: 0, max: 1, noNaN: true, maxExcluded: true }), {
          minLength: 2,
          maxLength: 8,
        }),
        (which, picks) => {
          const s = small[which]!;
          const first = firstRun(s);
          const placements = enumeratePlacements(s, first, undefined);
          if (placements.length === 0) return;
          const at = (u: number) => placements[Math.floor(u * placements.length)]!.fault;
          // Singles, and a pair of the first two picks: each trial restores what the last changed.
          const trials = [...picks.map((u) => [at(u)]), [at(picks[0]!), at(picks[1]!)]];
          const want = trials.map((faults) => fingerprint(s, faults, first.cutOff));
          const hashes: string[] = [];
          const pool = new BufferPool();
          forEachTrialRun(
            s,
            trials,
            buildEvents(s.workload, s.seed),
            (k, run) => {
              hashes[k] = traceHash(run.trace);
              pool.reclaim(run);
            },
            { path: 'rewind', pool, verifyRewind: true },
          );
          expect(hashes).toEqual(want.map((w) => w.hash));
          // With the rejoin test, as the atlas runs them.
          expect(
            runTrials(s, trials, first.cutOff, { pool, path: 'rewind', verifyRewind: true }),
          ).toEqual(want.map((w) => w.result));
        },
      ),
      params(16),
    );
  }, 180_000);
});
