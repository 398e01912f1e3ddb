import {
  useEffect,
  useLayoutEffect,
  useRef,
  useState,
  type KeyboardEvent,
  type PointerEvent,
} from 'react';
import type { RunView } from '../../views/run/runView';
import { useLabInstance } from '../../store/LabContext';
import { createTimelineDrag, type MarkerDrag, type TimelineDragParams } from './timelineDrag';

/**
 * Owns the timeline's framework-free drag (`createTimelineDrag`, as xyflow's `useDrag` owns
 * `XYDrag`): feeds it the track's geometry and the store's actions, does the pointer capture,
 * and returns the track's handlers, the marker press and the marker being dragged.
 */
export function useTimelineDrag(
  view: RunView,
  locked: boolean,
  toggleSelected: (index: number) => void,
) {
  const lab = useLabInstance();
  /** The track (the slider): its geometry, its pointer capture, its hover title. */
  const track = useRef<HTMLDivElement>(null);
  const [drag, setDrag] = useState<MarkerDrag | null>(null);
  const params = (): TimelineDragParams => ({
    view,
    locked,
    box: () => track.current!.getBoundingClientRect(),
    actions: {
      pause: () => lab.actions.pause(),
      seekIndex: (idx) => lab.actions.seekIndex(idx),
      moveFault: (index, at) => lab.actions.moveFault(index, at),
      toggleSelected,
      dragChanged: setDrag,
    },
  });
  const [timelineDrag] = useState(() => createTimelineDrag(params()));
  // After every render: the view, the lock and the callbacks are this render's.
  useLayoutEffect(() => timelineDrag.update(params()));
  useEffect(() => () => timelineDrag.destroy(), [timelineDrag]);

  const trackHandlers = {
    onPointerDown: (e: PointerEvent<HTMLDivElement>) => {
      const el = track.current!;
      if (e.target !== el && !(e.target as HTMLElement).classList.contains('fill')) return;
      el.setPointerCapture(e.pointerId);
      timelineDrag.trackDown(e.clientX);
    },
    onPointerMove: (e: PointerEvent<HTMLDivElement>) => {
      const el = track.current;
      const moved = timelineDrag.move(e.clientX, {
        captured: el?.hasPointerCapture(e.pointerId) ?? false,
        hover: e.pointerType === 'mouse' && !!el,
      });
      if (moved?.kind === 'hover' && el) el.title = moved.text;
    },
    onPointerUp: (e: PointerEvent<HTMLDivElement>) => {
      timelineDrag.up();
      if (track.current?.hasPointerCapture(e.pointerId))
        track.current.releasePointerCapture(e.pointerId);
    },
    onKeyDown: (e: KeyboardEvent<HTMLDivElement>) => {
      if (!timelineDrag.trackKey(e.key, lab.cursor.getState().idx)) return;
      e.preventDefault();
      e.stopPropagation();
    },
  };
  /** A press on the marker of fault `index` at step `idx`: the track holds the pointer. */
  const markerDown = (e: PointerEvent<HTMLButtonElement>, index: number, idx: number) => {
    e.stopPropagation();
    track.current!.setPointerCapture(e.pointerId);
    timelineDrag.markerDown(index, idx);
  };
  return { track, drag, trackHandlers, markerDown };
}
