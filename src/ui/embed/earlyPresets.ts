/**
 * The embed's preset, its download started by src/entry.ts beside the player's graph (issue 31:
 * first paint ≤ 500 ms). The embed's own src/ui/io/firstPresets.ts is a copy in the player's graph
 * (vite.config.ts `preactForTheEmbed`), so it runs only once that whole graph has arrived: the
 * preset's family, its part of the catalog and its parsed variants were the last round of
 * requests (scripts/embed-waterfall.ts). The loaders are the shared ones (src/scenarios/, not
 * copied), each importing once, so firstPresets finds them in flight or in.
 *
 * A head start only: the value is read as a canonical ref (`lost-ack-retry/acks-1`, any case);
 * one it misreads starts nothing here and loads as before. Not through src/platform/presetUrl.ts,
 * whose reading is the embed's own (a copy in the player's chunk): the page's copy would be one
 * more file, 0.75 kB gzip, for the same two lines.
 */
import { loadPreset } from '../../scenarios/presetCatalog';
import { loadPresetScenarios } from '../../scenarios/presetScenarios';

/** Start the downloads of the preset `?preset=` names in `search` (a failure is the run's to report). */
export function startPresetDownloads(search: string): void {
  const ref = new URLSearchParams(search).get('preset')?.trim().toLowerCase();
  if (!ref) return;
  loadPreset(ref).catch(() => undefined);
  loadPresetScenarios(ref).catch(() => false);
}
