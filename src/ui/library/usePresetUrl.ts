import { useEffect } from 'react';
import { startupFromLocation, writePresetToLocation } from '../../platform/presetUrl';
import { findPreset } from '../../scenarios';
import type { LabState } from '../../store/labStore';
import { useLabInstance } from '../../store/LabContext';
import { isPristinePreset, openPreset } from '../../views/library';

/** The `?preset=` a state should show: its preset, while unchanged; otherwise none. */
function urlRef(s: LabState): string | null {
  return isPristinePreset(s.scenario, s.presetRef) ? (openPreset(s.presetRef)?.ref ?? null) : null;
}

/**
 * Keeps the URL's `?preset=` in step with the workspace: the open preset while it is unchanged,
 * nothing otherwise (see src/platform/presetUrl.ts).
 *
 * With `openFromUrl` it first opens what the URL asks for — the preset `?preset=` names, unless a
 * share link `#s=` wins — or reports an unknown id through `setNotice` while the workspace stays
 * as it is. That is for a page that creates its own lab; a page booted from the URL (the lab
 * created with the winning scenario already) passes false and only gets the sync. The preset is
 * loaded as the start of the history, like a preset chosen before the first run.
 */
export function usePresetUrl(
  openFromUrl: boolean,
  setNotice: (notice: string | null) => void,
): void {
  const lab = useLabInstance();
  useEffect(() => {
    const start = openFromUrl ? startupFromLocation() : { from: 'workspace' as const };
    if (start.from === 'preset') {
      const found = findPreset(start.ref)!;
      lab.actions.loadScenario(structuredClone(found.variant.scenario), {
        resetHistory: true,
        presetRef: start.ref,
      });
    } else if (start.from === 'unknown-preset') {
      setNotice(start.message);
    }
    // A share link is decoded by its own wiring, which replaces the workspace: the URL follows
    // once it has. Otherwise the URL says at once what is on screen (an unknown id goes).
    if (start.from !== 'share') writePresetToLocation(urlRef(lab.app.getState()));
    return lab.app.subscribe((s, prev) => {
      if (s.scenario !== prev.scenario || s.presetRef !== prev.presetRef)
        writePresetToLocation(urlRef(s));
    });
  }, [lab, openFromUrl, setNotice]);
}
