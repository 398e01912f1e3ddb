/**
 * An atlas while it runs, from hand-built chunks: the trials run so far in trial order, the heat
 * map's "not run yet" and partly run cells counted by hand, the provisional summary, and the
 * rule that the counterexample found so far is final only once every trial that would come
 * before it has run.
 */
import { describe, expect, it } from 'vitest';
import { type Placement, type TrialResult } from '../../engine';
import { handMadeScenario as scenario, HELD as held, ONE_DUPLICATE as dup } from './handMadeAtlas';
import type { AtlasPlan } from './atlasJob';
import { assembleSlices } from './atlasJob';
import { atlasSoFar, counterexampleSoFar } from './atlasSoFar';
import { heatMap } from './heatMap';
import { heatMapSoFar } from './heatMapSoFar';

/** A lost ack drawn on `component`'s row at `time` ms. */
const lostAck = (component: string, time: number): Placement => ({
  kind: 'drop-response',
  fault: { kind: 'drop-response', at: time, link: 'produce', match: { nth: 1 } },
  component,
  time,
  label: `${component} at ${time}`,
});
const lost: TrialResult = { outcome: 'losses', duplicated: 0, lost: 1, fired: true };

/**
 * Six placements on two rows (producer, consumer-0) at 0, 1 and 2 ms — three columns of 1 ms:
 *
 *            0 ms    1 ms    2 ms
 * producer   0, 1    2, 5    —
 * consumer-0 —       3       4
 */
const plan: AtlasPlan = {
  depth: 1,
  kinds: ['drop-response'],
  base: held,
  baseCutOff: false,
  placements: [
    lostAck('producer', 0),
    lostAck('producer', 0),
    lostAck('producer', 1),
    lostAck('consumer-0', 1),
    lostAck('consumer-0', 2),
    lostAck('producer', 1),
  ],
  events: 1,
  trials: 6,
};
/** Three chunks of two trials, as the workers take them. */
const chunks = [
  { from: 0, to: 2 },
  { from: 2, to: 4 },
  { from: 4, to: 6 },
];

describe('an atlas so far', () => {
  it('the middle chunk alone: its trials, in trial order, and the four not run yet', () => {
    const soFar = atlasSoFar(scenario, plan, chunks, [undefined, [dup, held], undefined]);
    expect(soFar.done).toBe(2);
    expect(soFar.total).toBe(6);
    expect(soFar.index).toEqual([2, 3]);
    expect(soFar.atlas.trials).toEqual([
      { placements: [2], result: dup },
      { placements: [3], result: held },
    ]);
    expect(soFar.atlas.partial).toBe(true);
    expect(soFar.pending.map((p) => p.index)).toEqual([0, 1, 4, 5]);
  });

  it('its heat map: the final rows and columns, not-run and partly run cells counted by hand', () => {
    const soFar = atlasSoFar(scenario, plan, chunks, [undefined, [dup, held], undefined]);
    const heat = heatMapSoFar(soFar);
    const { map } = heat;
    expect(map.rows).toEqual(['producer', 'consumer-0']);
    expect(map.columns).toHaveLength(3);
    // Run: producer at 1 ms (trial 2, a duplicate), consumer-0 at 1 ms (trial 3, held).
    expect(map.cells.map((c) => [c.row, c.column, c.worst, c.trials.length])).toEqual([
      [0, 1, 'duplicates', 1],
      [1, 1, 'held', 1],
    ]);
    // Not run: trials 0 and 1 (producer, 0 ms), 5 (producer, 1 ms), 4 (consumer-0, 2 ms).
    expect([...heat.pending.entries()].sort((a, b) => a[0] - b[0])).toEqual([
      [0 * 3 + 0, 2],
      [0 * 3 + 1, 1],
      [1 * 3 + 2, 1],
    ]);
    expect(heat.notRun).toBe(4);
    // producer at 1 ms has a trial run and one to run: the one partly run cell.
    expect(heat.partlyRun).toBe(1);
    expect(heat.summary).toBe('So far: 2 of 6 placements run: 1 held, 1 duplicate.');
    expect(map.totals).toEqual({ held: 1, duplicates: 1, losses: 0, both: 0, stuck: 0 });
  });

  it('nothing run yet: every placement not run yet, no count', () => {
    const heat = heatMapSoFar(
      atlasSoFar(scenario, plan, chunks, [undefined, undefined, undefined]),
    );
    expect(heat.map.cells).toEqual([]);
    expect(heat.notRun).toBe(6);
    expect(heat.partlyRun).toBe(0);
    expect(heat.summary).toBe('So far: 0 of 6 placements run.');
  });

  it('every chunk run: the atlas and the map the workers assemble, pending none', () => {
    const results = [
      [held, held],
      [dup, held],
      [held, lost],
    ];
    const soFar = atlasSoFar(scenario, plan, chunks, results);
    const final = assembleSlices(scenario, plan, results);
    expect(soFar.atlas).toEqual(final);
    expect(soFar.atlas.partial).toBe(false);
    const heat = heatMapSoFar(soFar);
    expect(heat.map).toEqual(heatMap(final));
    expect(heat.pending.size).toBe(0);
  });
});

describe('the counterexample so far', () => {
  it('is provisional while an earlier placement has not run, final once they all have', () => {
    // Trial 2 duplicates at 1 ms; trials 0 and 1 strike at 0 ms and have not run: either may
    // break first.
    const first = counterexampleSoFar(
      atlasSoFar(scenario, plan, chunks, [undefined, [dup, held], undefined]),
    );
    expect(first).toEqual({
      faults: [plan.placements[2]!.fault],
      labels: ['producer at 1'],
      result: '1 duplicated',
      final: false,
    });
    // Trials 0 and 1 held. Still to run: 4 (at 2 ms, later) and 5 (at 1 ms, as early and as
    // simple, but later in atlas order): neither can come first, so trial 2 is the final one.
    const done = counterexampleSoFar(
      atlasSoFar(scenario, plan, chunks, [[held, held], [dup, held], undefined]),
    );
    expect(done).toEqual({ ...first, final: true });
  });

  it('an earlier break found later takes its place, and the one before it waits for none', () => {
    // Chunks 1 and 2 first: trial 2 (1 ms) is the break so far, 0 and 1 (0 ms) pending.
    expect(
      counterexampleSoFar(
        atlasSoFar(scenario, plan, chunks, [undefined, [dup, held], [held, lost]]),
      )?.final,
    ).toBe(false);
    // Then chunk 0: trial 1 loses at 0 ms, before trial 2; nothing is left to run.
    const c = counterexampleSoFar(
      atlasSoFar(scenario, plan, chunks, [
        [held, lost],
        [dup, held],
        [held, lost],
      ]),
    );
    expect(c?.labels).toEqual(['producer at 0']);
    expect(c?.final).toBe(true);
    // Trial 0 at 0 ms, pending, would come before trial 1: provisional while it has not run.
    expect(
      counterexampleSoFar(
        atlasSoFar(
          scenario,
          plan,
          [
            { from: 0, to: 1 },
            { from: 1, to: 6 },
          ],
          [undefined, [lost, dup, held, held, held]],
        ),
      )?.final,
    ).toBe(false);
  });

  it('none so far: null, until a break', () => {
    expect(
      counterexampleSoFar(atlasSoFar(scenario, plan, chunks, [[held, held], undefined, undefined])),
    ).toBeNull();
  });
});
