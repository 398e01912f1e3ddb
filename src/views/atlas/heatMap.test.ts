import { describe, expect, it } from 'vitest';
import { type Atlas, type Placement, type TrialResult } from '../../engine';
import { handMadeScenario as scenario, HELD as held, ONE_DUPLICATE as dup } from './handMadeAtlas';
import { familyOf, heatMap } from './heatMap';

const lostAck = (time: number): Placement => ({
  kind: 'drop-response',
  fault: { kind: 'drop-response', at: time, link: 'produce', match: { nth: 1 } },
  component: 'producer',
  time,
  label: `ack at ${time}`,
});
const crash = (time: number): Placement => ({
  kind: 'crash',
  fault: {
    kind: 'crash',
    at: time,
    target: 'consumer-0',
    point: 'after-commit',
    nth: 1,
    afterRecords: 1,
    restartAfterMs: 1000,
  },
  component: 'consumer-0',
  time,
  label: `crash at ${time}`,
});
const loss: TrialResult = { outcome: 'losses', duplicated: 0, lost: 2, fired: true };

/** Two acks (0 ms: held, 99 ms: a duplicate) and two crashes (50 ms and 99 ms: both lose). */
function atlas(): Atlas {
  const placements = [lostAck(0), lostAck(99), crash(50), crash(99)];
  return {
    scenario,
    depth: 1,
    kinds: ['drop-response', 'crash'],
    base: held,
    placements,
    trials: [held, dup, loss, loss].map((result, i) => ({ placements: [i], result })),
    partial: false,
  };
}

describe('heatMap', () => {
  it('puts each trial in its component row and time column, the worst outcome per cell', () => {
    const m = heatMap(atlas(), 2);
    // Producer before the processor (pipeline order). Times 0..99 in 2 columns of 50 ms.
    expect(m.rows).toEqual(['producer', 'consumer-0']);
    expect(m.columns).toEqual([
      { from: 0, to: 50 },
      { from: 50, to: 100 },
    ]);
    expect(m.cells.map((c) => [c.row, c.column, c.worst, c.trials])).toEqual([
      [0, 0, 'held', [0]],
      [0, 1, 'duplicates', [1]],
      [1, 1, 'losses', [2, 3]],
    ]);
    expect(m.cells[2]!.counts).toEqual({ held: 0, duplicates: 0, losses: 2, both: 0, stuck: 0 });
    expect(m.totals).toEqual({ held: 1, duplicates: 1, losses: 2, both: 0, stuck: 0 });
    expect(m.byKind).toEqual({
      'drop-response': { held: 1, duplicates: 1, losses: 0, both: 0, stuck: 0 },
      crash: { held: 0, duplicates: 0, losses: 2, both: 0, stuck: 0 },
    });
  });

  it('sums it up in one sentence naming where the losses come from', () => {
    expect(heatMap(atlas()).summary).toBe(
      '4 placements: 1 held, 1 duplicate, 2 lose — every loss comes from a crash of consumer-0 right after its offset commit; the duplicate comes from a lost produce acknowledgement.',
    );
  });

  it('says plainly when the claim survives every single fault', () => {
    const a = atlas();
    a.trials = a.trials.map((t) => ({ ...t, result: held }));
    expect(heatMap(a).summary).toBe(
      '4 placements: 4 held — the exactly-once claim survives every single fault tried.',
    );
  });

  it('groups the thousands in where the breaks come from, as in the counts before it', () => {
    // lost-ack-retry/idempotence-on at depth 2 said "5,360 duplicate — 1484 of the 5360 duplicates
    // come from pairs with a lost sink response".
    const a = atlas();
    a.trials = Array.from({ length: 1500 }, (_, k) => ({
      placements: [k < 1200 ? 2 : 1],
      result: loss,
    }));
    expect(heatMap(a).summary).toBe(
      '1,500 placements: 1,500 lose — 1,200 of the 1,500 losses come from a crash of consumer-0 right after its offset commit.',
    );
  });

  it("says which outcomes are the scenario's own when its own faults already break the claim", () => {
    // The scenario alone duplicates: the two placements that duplicate only repeat it, so the
    // summary names where the other outcome (the losses) comes from, not where duplicates do.
    const a = atlas();
    a.base = dup;
    a.trials = [dup, dup, loss, loss].map((result, i) => ({ placements: [i], result }));
    expect(heatMap(a).summary).toBe(
      'The scenario breaks its exactly-once claim already with its own faults. 4 placements: 2 duplicate, 2 lose — every loss comes from a crash of consumer-0 right after its offset commit; the 2 that duplicate do so as the scenario alone does.',
    );
    a.trials[1] = { placements: [1], result: loss };
    expect(heatMap(a).summary).toBe(
      'The scenario breaks its exactly-once claim already with its own faults. 4 placements: 1 duplicate, 3 lose — 2 of the 3 losses come from a crash of consumer-0 right after its offset commit; the one that duplicates does so as the scenario alone does.',
    );
    a.trials = a.trials.map((t) => ({ ...t, result: dup }));
    expect(heatMap(a).summary).toBe(
      'The scenario breaks its exactly-once claim already with its own faults. 4 placements: 4 duplicate — each as the scenario alone does.',
    );
  });

  it('names where the breaks of pairs come from by both faults of each pair, not its cell alone', () => {
    // Both losing pairs hold a crash; the first sits in the cell of its later fault, the lost
    // acknowledgement at 99 ms. Counted by cell, the summary said "1 of the 2 losses come from a
    // crash …", as if the other came from the acknowledgement alone.
    const a = atlas();
    a.depth = 2;
    const pairs = [
      [0, 1],
      [0, 2],
      [1, 2],
      [0, 3],
      [1, 3],
      [2, 3],
    ];
    const losing = (...ix: number[]) =>
      pairs.map((placements, i) => ({ placements, result: ix.includes(i) ? loss : held }));
    a.trials = losing(2, 5);
    expect(heatMap(a).summary).toBe(
      '6 pairs of placements: 4 held, 2 lose — every loss comes from a pair with a crash of consumer-0 right after its offset commit.',
    );
    // Two acknowledgements lost: 2 of the 3 losing pairs hold one, 2 a crash (the first named,
    // the tie said).
    a.trials = losing(0, 2, 5);
    expect(heatMap(a).summary).toBe(
      '6 pairs of placements: 3 held, 3 lose — 2 of the 3 losses come from pairs with a lost produce acknowledgement, as many from pairs with a crash of consumer-0 right after its offset commit.',
    );
  });

  it('names the family of a placement', () => {
    expect(familyOf(crash(1))).toBe('a crash of consumer-0 right after its offset commit');
    expect(familyOf(lostAck(1))).toBe('a lost produce acknowledgement');
  });
});
