/**
 * The timeline's pointer and key handling, framework-free (the shape of xyflow's `XYDrag`, owned by
 * the `useTimelineDrag` hook): given the track's geometry and the run's moments, pointer and key
 * events become cursor moves, fault moves and selections. No DOM, no React: the hook does pointer
 * capture and focus, this module decides what an event means.
 */
import { timeAtIndex } from '../../views/run/at';
import { formatCount, formatMs } from '../../views/run/format';
import type { RunView } from '../../views/run/runView';
import { indexAtFrac, nudgeTime } from '../../views/run/timeline';

/** Where the track is on screen, px (a `getBoundingClientRect()`'s left and width). */
export interface TrackBox {
  left: number;
  width: number;
}

/** A fault marker being dragged: its fault index, the step it is over, whether it moved yet. */
export interface MarkerDrag {
  index: number;
  idx: number;
  moved: boolean;
}

/** What a timeline drag does: the store's actions and the component's own state. */
export interface TimelineDragActions {
  pause(): void;
  seekIndex(idx: number): void;
  moveFault(index: number, at: number): void;
  /** A click (a press and release without a move) on a marker selects it, or unselects it. */
  toggleSelected(index: number): void;
  /** The marker drag changed (null: it ended); the component redraws the marker. */
  dragChanged(drag: MarkerDrag | null): void;
}

export interface TimelineDragParams {
  view: RunView;
  /** Faults cannot be moved (an embed, or the faults of the last valid run). */
  locked: boolean;
  /** The track's geometry now (read on each event: the page may have scrolled or resized). */
  box(): TrackBox;
  actions: TimelineDragActions;
}

/** The step under `clientX` (clamped to the track by `indexAtFrac`). */
export function indexAtClientX(view: RunView, box: TrackBox, clientX: number): number {
  return indexAtFrac(view, (clientX - box.left) / Math.max(1, box.width));
}

/** The hover text at step `idx`: the scale is not even in time, so the pointer tells it. */
export function hoverText(view: RunView, idx: number): string {
  const t = idx >= view.n ? view.endTime : timeAtIndex(view, idx);
  return `${formatMs(t)} · event ${formatCount(idx)}`;
}

/**
 * The step a key moves the cursor to from `idx`, or undefined for a key the track ignores.
 * Arrows one step (left/down back, right/up on), Page Down / Up a twentieth of the run (at least
 * one step), Home the start, End the end. Not clamped here: `seekIndex` clamps.
 */
export function trackKeyIndex(view: RunView, idx: number, key: string): number | undefined {
  const page = Math.max(1, Math.round(view.n / 20));
  switch (key) {
    case 'ArrowLeft':
    case 'ArrowDown':
      return idx - 1;
    case 'ArrowRight':
    case 'ArrowUp':
      return idx + 1;
    case 'PageDown':
      return idx - page;
    case 'PageUp':
      return idx + page;
    case 'Home':
      return 0;
    case 'End':
      return view.n;
    default:
      return undefined;
  }
}

/** What a key on a focused fault marker does; null: not the marker's key. */
export type MarkerKeyAction =
  { kind: 'unselect' } | { kind: 'delete' } | { kind: 'move'; at: number };

/**
 * A key on the marker of a fault armed from `at`: Escape unselects it (if selected); unless
 * locked, Delete / Backspace delete it and Left / Right move its time to the previous / next
 * engine event's time (Shift: ten steps) within [0, end of the run] — the same `at` at either
 * end, where the key is still the marker's (nothing to move).
 */
export function markerKeyAction(
  view: RunView,
  key: string,
  opts: { shift: boolean; selected: boolean; locked: boolean; at: number },
): MarkerKeyAction | null {
  if (key === 'Escape' && opts.selected) return { kind: 'unselect' };
  if (opts.locked) return null;
  if (key === 'Delete' || key === 'Backspace') return { kind: 'delete' };
  if (key !== 'ArrowLeft' && key !== 'ArrowRight') return null;
  return {
    kind: 'move',
    at: nudgeTime(view, opts.at, key === 'ArrowLeft' ? -1 : 1, opts.shift ? 10 : 1),
  };
}

/** What a pointer move did, for the hook: a hover returns the text to show. */
export type MoveResult = { kind: 'drag' } | { kind: 'seek' } | { kind: 'hover'; text: string };

/**
 * The timeline's drag: a press on the track pauses and seeks, a move while captured seeks, a
 * press on a marker starts a marker drag that a release turns into a fault move (if it moved)
 * or a selection (if not). Returns `{ update, destroy }` and the event entry points.
 */
export function createTimelineDrag(initial: TimelineDragParams) {
  let p = initial;
  let drag: MarkerDrag | null = null;
  const setDrag = (d: MarkerDrag | null) => {
    drag = d;
    p.actions.dragChanged(d);
  };
  const idxAt = (clientX: number) => indexAtClientX(p.view, p.box(), clientX);
  return {
    /** New view, lock or actions (a re-run, a re-render): an ongoing drag is kept. */
    update(next: TimelineDragParams) {
      p = next;
    },
    /** A press on the track itself (not a marker): pause and go there. */
    trackDown(clientX: number) {
      p.actions.pause();
      p.actions.seekIndex(idxAt(clientX));
    },
    /** A press on the marker of fault `index`, now at step `idx`. */
    markerDown(index: number, idx: number) {
      setDrag({ index, idx, moved: false });
    },
    /**
     * A pointer move: drags the marker if one is held, seeks if the track holds the pointer
     * (`captured`), else — a mouse hovering (`hover`) — tells the time under it.
     */
    move(clientX: number, state: { captured: boolean; hover: boolean }): MoveResult | null {
      if (drag) {
        setDrag({ ...drag, idx: idxAt(clientX), moved: true });
        return { kind: 'drag' };
      }
      if (state.captured) {
        p.actions.seekIndex(idxAt(clientX));
        return { kind: 'seek' };
      }
      if (state.hover) return { kind: 'hover', text: hoverText(p.view, idxAt(clientX)) };
      return null;
    },
    /** A release: a marker that moved is moved to its step's time, one that did not is (un)selected. */
    up() {
      if (!drag) return;
      if (drag.moved && !p.locked) p.actions.moveFault(drag.index, timeAtIndex(p.view, drag.idx));
      else p.actions.toggleSelected(drag.index);
      setDrag(null);
    },
    /** A key on the track with the cursor at `idx`: true if it moved the cursor (the key is used). */
    trackKey(key: string, idx: number): boolean {
      const to = trackKeyIndex(p.view, idx, key);
      if (to === undefined) return false;
      p.actions.pause();
      p.actions.seekIndex(to);
      return true;
    },
    destroy() {
      drag = null;
    },
  };
}
