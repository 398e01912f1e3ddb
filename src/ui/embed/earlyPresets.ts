/**
 * The embed's preset, its download started by src/entry.ts beside the player's graph (issue 31:
 * first paint ≤ 500 ms). The embed's own src/ui/io/firstPresets.ts is a copy in the player's graph
 * (vite.config.ts `preactForTheEmbed`), so it runs only once that whole graph has arrived: the
 * preset's family, its part of the catalog and its parsed variants were the last round of
 * requests (scripts/embed-waterfall.ts). The loaders are the shared ones (src/scenarios/, not
 * copied), each importing once, so firstPresets finds them in flight or in.
 */
import { loadPresetParam, presetParamOf, presetValueRef } from '../../platform/presetUrl';
import { loadPresetScenarios } from '../../scenarios/presetScenarios';

/** Start the downloads of the preset `?preset=` names in `search` (a failure is the run's to report). */
export function startPresetDownloads(search: string): void {
  const value = presetParamOf(search);
  if (value === null) return;
  loadPresetParam(value).catch(() => {});
  loadPresetScenarios(presetValueRef(value)).catch(() => false);
}
