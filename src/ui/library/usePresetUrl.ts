import { useEffect } from 'react';
import { writePresetToLocation } from '../../platform/presetUrl';
import type { LabState } from '../../store/labStore';
import { useLabInstance } from '../../store/LabContext';
import { isPristinePreset, openPreset } from '../../views/library/library';

/** The `?preset=` a state should show: its preset, while unchanged; otherwise none. */
function urlRef(s: LabState): string | null {
  return isPristinePreset(s.scenario, s.presetRef) ? (openPreset(s.presetRef)?.ref ?? null) : null;
}

/**
 * Keeps the URL's `?preset=` in step with the workspace: the open preset while it is unchanged,
 * nothing otherwise (src/platform/presetUrl.ts). Opening what a URL names is the page's start-up
 * (src/ui/io/boot.ts, through the same contract); from then on the address bar follows the page —
 * at once (an unknown id it could not open goes), and after every change of scenario or preset.
 */
export function usePresetUrl(): void {
  const lab = useLabInstance();
  useEffect(() => {
    writePresetToLocation(urlRef(lab.app.getState()));
    return lab.app.subscribe((s, prev) => {
      if (s.scenario !== prev.scenario || s.presetRef !== prev.presetRef)
        writePresetToLocation(urlRef(s));
    });
  }, [lab]);
}
