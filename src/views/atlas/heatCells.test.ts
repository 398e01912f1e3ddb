import { describe, expect, it } from 'vitest';
import { type Atlas, type Placement, type TrialResult } from '../../engine';
import { handMadeScenario as scenario, HELD as held, ONE_DUPLICATE as dup } from './handMadeAtlas';
import { heatMap } from './heatMap';
import {
  cellLabel,
  cellTrials,
  countsText,
  legend,
  minimalCounterexampleOf,
  moveInGrid,
  OUTCOME_LOOK,
  resultText,
  rowLabel,
  survivesSentence,
} from './heatCells';

const lostAck = (time: number): Placement => ({
  kind: 'drop-response',
  fault: { kind: 'drop-response', at: time, link: 'produce', match: { nth: 1 } },
  component: 'producer',
  time,
  label: `ack at ${time}`,
});
const both: TrialResult = { outcome: 'both', duplicated: 2, lost: 1, fired: true };

/** Three lost acks at 0, 0 and 1 ms (one cell per ms: two columns): held, both, a duplicate. */
function atlas(results: TrialResult[] = [held, both, dup]): Atlas {
  return {
    scenario,
    depth: 1,
    kinds: ['drop-response'],
    base: held,
    placements: [lostAck(0), lostAck(0), lostAck(1)],
    trials: results.map((result, i) => ({ placements: [i], result })),
    partial: false,
  };
}

describe('heat-map cells in words', () => {
  it('names a cell by component, time span and counts, worst first', () => {
    const a = atlas();
    const map = heatMap(a);
    // Times 0..1 make 2 columns of 1 ms: column 0 holds the trials at 0 ms (held, both).
    expect(map.columns).toEqual([
      { from: 0, to: 1 },
      { from: 1, to: 2 },
    ]);
    const [c0, c1] = map.cells;
    expect(cellLabel(map, c0, 0, 0, 1)).toBe(
      'producer, 0 ms – 1 ms: 2 placements — 1 lose and duplicate, 1 held',
    );
    expect(cellLabel(map, c1, 0, 1, 1)).toBe('producer, 1 ms – 2 ms: 1 placement — 1 duplicate');
    expect(cellLabel(map, undefined, 0, 1, 2)).toBe('producer, 1 ms – 2 ms: no placement');
    expect(countsText(c0!.counts)).toBe('1 lose and duplicate, 1 held');
  });

  // A leader failover's row was its internal id, "partition:events:0", beside a summary and
  // placements that say "the leader of events-0" and a partition card titled "events-0".
  it("names a leader failover's row by the partition's leader, as the summary does", () => {
    const failover: Placement = {
      kind: 'leader-failover',
      fault: {
        kind: 'random',
        what: 'leader-failover',
        at: 107,
        untilMs: 107,
        probability: 1,
        partition: 0,
        restartAfterMs: 60_000,
      },
      component: 'partition:events:0',
      time: 107,
      label: 'the leader of events-0 fails right after appending e1 at 107 ms',
    };
    const map = heatMap({
      ...atlas([held, both, dup, held]),
      placements: [lostAck(0), lostAck(0), lostAck(1), failover],
    });
    expect(map.rows).toEqual(['producer', 'partition:events:0']);
    expect(map.rows.map(rowLabel)).toEqual(['producer', 'leader of events-0']);
    const cell = map.cells.find((c) => c.row === 1)!;
    expect(cellLabel(map, cell, 1, cell.column, 1)).toMatch(/^leader of events-0, /);
  });

  it('names a cell of a running atlas with its placements not run yet', () => {
    const map = heatMap(atlas());
    const [c0] = map.cells;
    expect(cellLabel(map, c0, 0, 0, 1, 3)).toBe(
      'producer, 0 ms – 1 ms: 2 of 5 placements run — 1 lose and duplicate, 1 held; 3 not run yet',
    );
    expect(cellLabel(map, undefined, 0, 1, 1, 1)).toBe(
      'producer, 1 ms – 2 ms: 1 placement not run yet',
    );
    expect(cellLabel(map, undefined, 0, 1, 2, 4)).toBe(
      'producer, 1 ms – 2 ms: 4 pairs not run yet',
    );
  });

  it("lists a cell's trials worst first, each with its faults and result", () => {
    const a = atlas();
    const rows = cellTrials(a, heatMap(a).cells[0]!);
    expect(rows.map((r) => [r.trial, r.outcome, r.result, r.label])).toEqual([
      [1, 'both', '1 lost, 2 duplicated', 'ack at 0'],
      [0, 'held', 'held', 'ack at 0'],
    ]);
    expect(rows[0]!.faults).toEqual([a.placements[1]!.fault]);
  });

  it('says plainly when every single fault held, and only then', () => {
    expect(survivesSentence(atlas([held, held, held]))).toBe(
      'Survives every one of 3 single faults.',
    );
    expect(survivesSentence({ ...atlas([held, held, held]), depth: 2 })).toBe(
      'Survives every one of 3 pairs of faults.',
    );
    expect(survivesSentence(atlas())).toBeNull();
    expect(survivesSentence({ ...atlas([held, held, held]), partial: true })).toBeNull();
    expect(survivesSentence({ ...atlas([held, held, held]), base: dup })).toBeNull();
  });

  it('offers the earliest break as the counterexample', () => {
    // Trial 1 (both, at 0 ms) strikes before trial 2 (duplicates, at 1 ms).
    expect(minimalCounterexampleOf(atlas())).toEqual({
      faults: [atlas().placements[1]!.fault],
      labels: ['ack at 0'],
      result: '1 lost, 2 duplicated',
    });
    expect(minimalCounterexampleOf(atlas([held, held, held]))).toBeNull();
  });

  it('gives each outcome its own glyph and colour (not colour alone)', () => {
    const looks = Object.values(OUTCOME_LOOK);
    expect(new Set(looks.map((l) => l.glyph)).size).toBe(looks.length);
    expect(new Set(looks.map((l) => l.colour)).size).toBe(looks.length);
    expect(legend(heatMap(atlas()).totals).map((l) => [l.outcome, l.count])).toEqual([
      ['held', 1],
      ['duplicates', 1],
      ['losses', 0],
      ['both', 1],
      ['stuck', 0],
    ]);
    expect(resultText(dup)).toBe('1 duplicated');
  });

  it('moves in the grid with the arrow keys, Home and End, staying inside', () => {
    const at = { row: 1, column: 1 };
    expect(moveInGrid(at, 'ArrowUp', 3, 4)).toEqual({ row: 0, column: 1 });
    expect(moveInGrid(at, 'ArrowDown', 3, 4)).toEqual({ row: 2, column: 1 });
    expect(moveInGrid(at, 'ArrowLeft', 3, 4)).toEqual({ row: 1, column: 0 });
    expect(moveInGrid(at, 'ArrowRight', 3, 4)).toEqual({ row: 1, column: 2 });
    expect(moveInGrid({ row: 0, column: 0 }, 'ArrowUp', 3, 4)).toEqual({ row: 0, column: 0 });
    expect(moveInGrid({ row: 2, column: 3 }, 'ArrowRight', 3, 4)).toEqual({ row: 2, column: 3 });
    expect(moveInGrid(at, 'Home', 3, 4)).toEqual({ row: 1, column: 0 });
    expect(moveInGrid(at, 'End', 3, 4, true)).toEqual({ row: 2, column: 3 });
    expect(moveInGrid(at, 'a', 3, 4)).toBeNull();
  });
});

describe('columns by steps', () => {
  it('gives each column an equal share of the distinct moments, however far apart', () => {
    // Lost acks at 0, 1, 2 and 1000 ms: 4 distinct moments in 2 columns, 2 each — by time, the
    // first three would share one column of 500 ms and the last have the other alone.
    const a: Atlas = {
      ...atlas([held, held, held, both]),
      placements: [lostAck(0), lostAck(1), lostAck(2), lostAck(1000)],
    };
    const steps = heatMap(a, 2, 'steps');
    expect(steps.columns).toEqual([
      { from: 0, to: 2 },
      { from: 2, to: 1001 },
    ]);
    expect(steps.cells.map((c) => [c.column, c.trials])).toEqual([
      [0, [0, 1]],
      [1, [2, 3]],
    ]);
    expect(heatMap(a, 2).cells.map((c) => [c.column, c.trials])).toEqual([
      [0, [0, 1, 2]],
      [1, [3]],
    ]);
  });
});
