import { useEffect } from 'react';
import { restAtlasWorkers, warmAtlasWorkers } from '../../platform/atlasWorkers';
import { selectParse, type LabState } from '../../store/labStore';
import { useLabInstance } from '../../store/LabContext';

/** Run `f` when the page is idle (after the frames and tasks waiting), where the browser says so. */
function whenIdle(f: () => void): () => void {
  if (typeof requestIdleCallback === 'function') {
    const id = requestIdleCallback(f);
    return () => cancelIdleCallback(id);
  }
  const id = setTimeout(f, 200);
  return () => clearTimeout(id);
}

/**
 * The fault atlas's workers warmed up ahead of the user's first Explore
 * (src/platform/atlasWorkers.ts warmAtlasWorkers): once the panel's first verdict is on screen and
 * the page is idle — never before, the first verdict has the cores — on the scenario on screen;
 * stopped while a verdict is computed. Returns the warm-up for the Explore button's pointer and
 * focus (the scenario on screen then, which may be another).
 */
export function useAtlasWarmUp(): () => void {
  const lab = useLabInstance();
  const warmOnScreen = () => {
    const parsed = selectParse(lab.app.getState());
    warmAtlasWorkers(parsed.ok ? parsed.scenario : undefined);
  };
  useEffect(() => {
    let cancelIdle: (() => void) | null = null;
    let waiting = true;
    const onState = (s: LabState) => {
      if (s.status === 'running') {
        cancelIdle?.();
        cancelIdle = null;
        restAtlasWorkers();
      } else if (waiting && s.status === 'ready' && s.viewFor === s.scenario) {
        waiting = false;
        cancelIdle = whenIdle(warmOnScreen);
      }
    };
    onState(lab.app.getState());
    const off = lab.app.subscribe(onState);
    return () => {
      off();
      cancelIdle?.();
    };
    // warmOnScreen reads the store when called: `lab` is all it depends on.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [lab]);
  return warmOnScreen;
}
