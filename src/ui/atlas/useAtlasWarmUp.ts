import { useEffect } from 'react';
import { restAtlasWorkers, warmAtlasWorkers } from '../../platform/atlasWorkers';
import { selectParse, type LabState } from '../../store/labStore';
import { useLabInstance } from '../../store/LabContext';

/**
 * The fault atlas's workers warmed up ahead of the user's first Explore
 * (src/platform/atlasWorkers.ts warmAtlasWorkers), on the scenario on screen: returned for the
 * Explore button's pointer and focus — a user about to explore, not every page load (a warm-up
 * holds both cores up to 4 s, and most visits never open the atlas). Stopped while a verdict is
 * computed: the cores are the verdict's.
 */
export function useAtlasWarmUp(): () => void {
  const lab = useLabInstance();
  useEffect(
    () =>
      lab.app.subscribe((s: LabState) => {
        if (s.status === 'running') restAtlasWorkers();
      }),
    [lab],
  );
  return () => {
    const parsed = selectParse(lab.app.getState());
    warmAtlasWorkers(parsed.ok ? parsed.scenario : undefined);
  };
}
