import { describe, expect, it } from 'vitest';
import type { RunView } from '../../views/run/runView';
import {
  createTimelineDrag,
  hoverText,
  indexAtClientX,
  markerKeyAction,
  trackKeyIndex,
  type TimelineDragActions,
} from './timelineDrag';

/**
 * A run of 40 engine events at 10, 20, …, 400 ms, ending at 450 ms: only the fields the timeline
 * reads (`n`, `endTime`, `cols.time`). Step i (1…40) is the moment after entry i-1, at 10·i ms.
 */
function viewOf(n: number, endTime: number): RunView {
  const time = Float64Array.from({ length: n }, (_, i) => 10 * (i + 1));
  return { n, endTime, cols: { time } } as unknown as RunView;
}
const view = viewOf(40, 450);
/** The track: 400 px wide from x = 100, so 10 px per step. */
const box = { left: 100, width: 400 };

describe('timeline geometry: pointer x → step', () => {
  it('maps x to the nearest step, clamped to the track', () => {
    expect(indexAtClientX(view, box, 100)).toBe(0); // frac 0
    expect(indexAtClientX(view, box, 110)).toBe(1); // frac 0.025 · 40 = 1
    expect(indexAtClientX(view, box, 105)).toBe(1); // 0.5 rounds up
    expect(indexAtClientX(view, box, 300)).toBe(20); // the middle
    expect(indexAtClientX(view, box, 50)).toBe(0); // left of the track
    expect(indexAtClientX(view, box, 600)).toBe(40); // right of it: the end
    // A zero-wide track (hidden) divides by 1 px: any x right of it is the end.
    expect(indexAtClientX(view, { left: 100, width: 0 }, 101)).toBe(40);
  });

  it('hover tells the time and step under the pointer; the end is the run’s end time', () => {
    expect(hoverText(view, 1)).toBe('10 ms · event 1');
    expect(hoverText(view, 20)).toBe('200 ms · event 20');
    expect(hoverText(view, 40)).toBe('450 ms · event 40');
  });
});

describe('timeline keys: the cursor', () => {
  it('arrows one step, Page Down/Up a twentieth of the run, Home/End the ends', () => {
    // 40 events: a page is round(40 / 20) = 2 steps.
    expect(trackKeyIndex(view, 10, 'ArrowLeft')).toBe(9);
    expect(trackKeyIndex(view, 10, 'ArrowDown')).toBe(9);
    expect(trackKeyIndex(view, 10, 'ArrowRight')).toBe(11);
    expect(trackKeyIndex(view, 10, 'ArrowUp')).toBe(11);
    expect(trackKeyIndex(view, 10, 'PageDown')).toBe(8);
    expect(trackKeyIndex(view, 10, 'PageUp')).toBe(12);
    expect(trackKeyIndex(view, 10, 'Home')).toBe(0);
    expect(trackKeyIndex(view, 10, 'End')).toBe(40);
    expect(trackKeyIndex(view, 10, 'a')).toBeUndefined();
    expect(trackKeyIndex(view, 10, 'Enter')).toBeUndefined();
  });

  it('a page is at least one step; 100 events make it 5', () => {
    expect(trackKeyIndex(viewOf(5, 50), 3, 'PageUp')).toBe(4); // round(5 / 20) = 0 → 1
    expect(trackKeyIndex(viewOf(100, 1000), 50, 'PageDown')).toBe(45);
  });
});

describe('timeline keys: a fault marker', () => {
  const opts = { shift: false, selected: false, locked: false, at: 105 };
  it('arrows move its time to the previous / next event’s time; Shift ten of them', () => {
    // 105 ms lies between the events at 100 and 110 ms.
    expect(markerKeyAction(view, 'ArrowLeft', opts)).toEqual({ kind: 'move', at: 100 });
    expect(markerKeyAction(view, 'ArrowRight', opts)).toEqual({ kind: 'move', at: 110 });
    // Ten steps back: 100, 90, …, 10; ten on: 110, 120, …, 200.
    const shift = { ...opts, shift: true };
    expect(markerKeyAction(view, 'ArrowLeft', shift)).toEqual({ kind: 'move', at: 10 });
    expect(markerKeyAction(view, 'ArrowRight', shift)).toEqual({ kind: 'move', at: 200 });
  });

  it('within [0, end of the run]: past the last event is the end time; the ends stay put', () => {
    expect(markerKeyAction(view, 'ArrowRight', { ...opts, at: 400 })).toEqual({
      kind: 'move',
      at: 450,
    });
    expect(markerKeyAction(view, 'ArrowRight', { ...opts, at: 450 })).toEqual({
      kind: 'move',
      at: 450,
    });
    expect(markerKeyAction(view, 'ArrowLeft', { ...opts, at: 0 })).toEqual({ kind: 'move', at: 0 });
  });

  it('Delete / Backspace delete, Escape unselects only a selected marker; locked: Escape only', () => {
    expect(markerKeyAction(view, 'Delete', opts)).toEqual({ kind: 'delete' });
    expect(markerKeyAction(view, 'Backspace', opts)).toEqual({ kind: 'delete' });
    expect(markerKeyAction(view, 'Escape', opts)).toBeNull();
    expect(markerKeyAction(view, 'Escape', { ...opts, selected: true })).toEqual({
      kind: 'unselect',
    });
    const locked = { ...opts, locked: true, selected: true };
    expect(markerKeyAction(view, 'Escape', locked)).toEqual({ kind: 'unselect' });
    expect(markerKeyAction(view, 'Delete', locked)).toBeNull();
    expect(markerKeyAction(view, 'ArrowLeft', locked)).toBeNull();
    expect(markerKeyAction(view, 'Home', opts)).toBeNull();
  });
});

describe('timeline drag: pointer events → actions', () => {
  function recorder() {
    const calls: unknown[][] = [];
    const actions: TimelineDragActions = {
      pause: () => calls.push(['pause']),
      seekIndex: (idx) => calls.push(['seek', idx]),
      moveFault: (index, at) => calls.push(['moveFault', index, at]),
      toggleSelected: (index) => calls.push(['toggle', index]),
      dragChanged: (d) => calls.push(['drag', d]),
    };
    return { calls, actions };
  }
  const still = { captured: false, hover: false };

  it('a press on the track pauses and seeks; a captured move seeks; a hover tells the time', () => {
    const { calls, actions } = recorder();
    const d = createTimelineDrag({ view, locked: false, box: () => box, actions });
    d.trackDown(300);
    expect(d.move(210, { captured: true, hover: true })).toEqual({ kind: 'seek' });
    expect(d.move(110, { captured: false, hover: true })).toEqual({
      kind: 'hover',
      text: '10 ms · event 1',
    });
    expect(d.move(110, still)).toBeNull(); // a touch that does not hold the track
    d.up(); // no marker held: nothing
    expect(calls).toEqual([['pause'], ['seek', 20], ['seek', 11]]);
  });

  it('a marker dragged to x = 200 moves its fault to the time of step 10 (100 ms)', () => {
    const { calls, actions } = recorder();
    const d = createTimelineDrag({ view, locked: false, box: () => box, actions });
    d.markerDown(2, 5);
    expect(d.move(200, still)).toEqual({ kind: 'drag' });
    d.up();
    expect(calls).toEqual([
      ['drag', { index: 2, idx: 5, moved: false }],
      ['drag', { index: 2, idx: 10, moved: true }],
      ['moveFault', 2, 100],
      ['drag', null],
    ]);
  });

  it('a marker pressed and released without a move is (un)selected; locked, a drag only selects', () => {
    const { calls, actions } = recorder();
    const d = createTimelineDrag({ view, locked: false, box: () => box, actions });
    d.markerDown(1, 5);
    d.up();
    d.update({ view, locked: true, box: () => box, actions });
    d.markerDown(1, 5);
    d.move(400, still);
    d.up();
    expect(calls.filter((c) => c[0] !== 'drag')).toEqual([
      ['toggle', 1],
      ['toggle', 1],
    ]);
  });

  it('keys on the track pause and seek; other keys are not the track’s', () => {
    const { calls, actions } = recorder();
    const d = createTimelineDrag({ view, locked: false, box: () => box, actions });
    expect(d.trackKey('End', 10)).toBe(true);
    expect(d.trackKey('PageDown', 10)).toBe(true);
    expect(d.trackKey('x', 10)).toBe(false);
    expect(calls).toEqual([['pause'], ['seek', 40], ['pause'], ['seek', 8]]);
  });

  it('update: a new run re-maps x (20 events over the same 400 px: 20 px a step)', () => {
    const { calls, actions } = recorder();
    const d = createTimelineDrag({ view, locked: false, box: () => box, actions });
    d.update({ view: viewOf(20, 200), locked: false, box: () => box, actions });
    d.trackDown(300);
    expect(calls).toEqual([['pause'], ['seek', 10]]);
  });
});
