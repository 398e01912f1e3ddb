import { useEffect } from 'react';
import type { LabState } from '../../store/labStore';
import { useLabInstance } from '../../store/LabContext';
import { atRunEnd } from '../../views/library/library';

/**
 * The run's end reached on screen: calls `onEnd` with the page's state whenever the cursor stands
 * at the end of the run on screen and that run is the current scenario's (`atRunEnd`) — checked at
 * once, then on every cursor move and every change of the page's state; `null` watches nothing.
 * Subscribed outside React: the cursor moves every frame, and nothing should re-render with it.
 * A new `onEnd` (memoise it) subscribes again and checks at once: a callback that reads
 * something the lab's stores do not hold (the answers written) is new when that changed.
 */
export function useRunEnd(onEnd: ((s: LabState) => void) | null): void {
  const lab = useLabInstance();
  useEffect(() => {
    if (!onEnd) return;
    const run = () => {
      const s = lab.app.getState();
      const v = s.view;
      if (!v) return;
      const c = lab.cursor.getState();
      // The run on screen must be this scenario's: a preset opened while the cursor stood at
      // the end of another run must not find "the end" there and give its answer away.
      const current = s.status === 'ready' && s.viewFor === s.scenario;
      if (atRunEnd({ current, idx: c.idx, n: v.n, t: c.t, endTime: v.endTime })) onEnd(s);
    };
    run();
    const offCursor = lab.cursor.subscribe(run);
    const offApp = lab.app.subscribe(run);
    return () => {
      offCursor();
      offApp();
    };
  }, [lab, onEnd]);
}
