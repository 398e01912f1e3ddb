/**
 * A trial session (src/engine/atlas/session.ts): the page's worker runs an atlas chunk by chunk,
 * and its chunks share the rejoin test's record, so the test is given up once for the atlas.
 */
import { describe, expect, it } from 'vitest';
import {
  enumeratePlacements,
  firstRun,
  parseScenario,
  runTrials,
  trialFaults,
  trialSession,
  noRejoinStats,
} from '../engine';
import { findPreset } from './index';

describe('the trials of one atlas in chunks', () => {
  // A Flink two-phase-commit job: a fault leaves its checkpoint timers out of phase with the own
  // run's for good, so no trial rejoins (docs/benchmarks.md) and the test is given up after 32.
  const parsed = parseScenario(
    findPreset('flink-checkpoint-replay/2pc-read-committed')!.variant.scenario,
  );
  if (!parsed.ok) throw new Error('the preset does not parse');
  const s = parsed.scenario;
  const first = firstRun(s);
  const placements = enumeratePlacements(s, first, undefined);
  // 160 placements 17 apart, in two chunks of 80.
  const trials = trialFaults(
    placements,
    Array.from({ length: 160 }, (_, i) => [i * 17]),
  );
  const [a, b] = [trials.slice(0, 80), trials.slice(80)];

  it('give the rejoin test up once for the atlas, not once per chunk, with the same results', () => {
    const whole = runTrials(s, trials, first.cutOff, { path: 'auto' });
    const alone = noRejoinStats();
    runTrials(s, b, first.cutOff, { path: 'auto', rejoinStats: alone });
    // Alone, the second chunk tests its own: the 12 of its 80 trials that fork and reach a
    // checkpoint.
    expect(alone.tried).toBe(12);

    const session = trialSession(s);
    const stats = noRejoinStats();
    const inChunks = [
      ...runTrials(s, a, first.cutOff, { path: 'auto', session }),
      ...runTrials(s, b, first.cutOff, { path: 'auto', session, rejoinStats: stats }),
    ];
    // 32 tested in the first chunk, none rejoined: the second chunk tests none.
    expect(stats.tried).toBe(32);
    expect(stats.rejoined).toBe(0);
    expect(inChunks).toEqual(whole);
  }, 300_000);

  it('belongs to its scenario', () => {
    const other = { ...s };
    expect(() => runTrials(other, a, first.cutOff, { session: trialSession(s) })).toThrow(
      'a trial session of another scenario',
    );
  });
});
