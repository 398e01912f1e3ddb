import { useEffect } from 'react';
import { createFrameLoop } from '../../platform/frameLoop';
import type { Lab } from '../../store/labStore';

/**
 * Runs the frame loop while the lab is playing: each frame advances the cursor store only
 * (`actions.tick`), never the app store's React subscribers.
 */
export function usePlaybackLoop(lab: Lab): void {
  useEffect(() => {
    const loop = createFrameLoop((dt) => lab.actions.tick(dt));
    const sync = (playing: boolean) => (playing ? loop.start() : loop.stop());
    sync(lab.app.getState().playing);
    const unsubscribe = lab.app.subscribe((s, prev) => {
      if (s.playing !== prev.playing) sync(s.playing);
    });
    return () => {
      unsubscribe();
      loop.stop();
    };
  }, [lab]);
}
