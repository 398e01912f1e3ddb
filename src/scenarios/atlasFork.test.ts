/**
 * The atlas on forks equals the atlas from scratch: the same placements, outcomes, counts and
 * minimal counterexample, for a few presets of different pipelines (an idempotence switch, a
 * consumer group with its own timed faults, transactions) and pairs. The replay path runs now;
 * the snapshot path runs once a preset's paused run holds no closure (scripts/fork-census.ts) and
 * is reported skipped until then.
 */
import { describe, expect, it } from 'vitest';
import {
  explore,
  minimalCounterexample,
  parseScenario,
  type ExploreOptions,
  type PlacementKind,
  type Scenario,
  type TrialPath,
} from '../engine';
import { findPreset } from './index';

function preset(ref: string): Scenario {
  const r = parseScenario(findPreset(ref)!.variant.scenario);
  if (!r.ok) throw new Error(JSON.stringify(r.issues));
  return r.scenario;
}

/** The atlas made by `path`, and its minimal counterexample. */
function atlasBy(s: Scenario, path: TrialPath, opts: ExploreOptions = {}) {
  const atlas = explore(s, { ...opts, path });
  return { atlas, minimal: minimalCounterexample(atlas) };
}

/**
 * The atlas from scratch of each case, made once in the file (it is deterministic): each path's
 * test compares with it, rather than each making it again (it was made three times per case).
 */
const scratchOf = new Map<string, ReturnType<typeof atlasBy>>();
function fromScratch(ref: string, opts?: ExploreOptions): ReturnType<typeof atlasBy> {
  let scratch = scratchOf.get(ref);
  if (scratch === undefined) scratchOf.set(ref, (scratch = atlasBy(preset(ref), 'scratch', opts)));
  return scratch;
}

const cases: { ref: string; opts?: ExploreOptions }[] = [
  // The lost responses and the crashes: where idempotence-off duplicates.
  {
    ref: 'lost-ack-retry/idempotence-off',
    opts: { kinds: ['drop-response', 'crash'] satisfies PlacementKind[] },
  },
  { ref: 'rebalance-midflight/plain-insert' },
  { ref: 'consume-transform-produce/read-committed' },
  // Pairs of timed faults (rebalance, zombie) and failovers — 11 of the registry's, right after
  // an append, and 11 timed a millisecond later: 8 + 8 + 22 = 38 placements, 703 pairs, two timed
  // faults of one pair queued in index order whichever is first.
  {
    ref: 'lost-ack-retry/acks-1',
    opts: { depth: 2, kinds: ['leader-failover', 'rebalance', 'zombie'] satisfies PlacementKind[] },
  },
];

describe('the atlas on forks', () => {
  for (const { ref, opts } of cases) {
    it(`${ref}${opts?.depth === 2 ? ' (pairs)' : ''}: by replay, the atlas from scratch`, () => {
      const s = preset(ref);
      const scratch = fromScratch(ref, opts);
      if (opts?.depth === 2) expect(scratch.atlas.trials.length).toBe((38 * 37) / 2);
      else expect(scratch.atlas.trials.length).toBeGreaterThan(0);
      expect(atlasBy(s, 'replay', opts)).toEqual(scratch);
    }, 60_000);

    it(`${ref}: by snapshot, the atlas from scratch`, () => {
      const s = preset(ref);
      expect(atlasBy(s, 'snapshot', opts)).toEqual(fromScratch(ref, opts));
    }, 60_000);

    it(`${ref}: rewound from save points, the atlas from scratch`, () => {
      const s = preset(ref);
      expect(atlasBy(s, 'rewind', opts)).toEqual(fromScratch(ref, opts));
    }, 60_000);
  }
});
