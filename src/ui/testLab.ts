/**
 * For the page's component tests: labs that run every scenario inline (jsdom and Node have no
 * Worker), as the page runs small scenarios.
 */
import { createRunClient } from '../platform/runClient';
import { loadedPreset } from '../scenarios/presetCatalog';
import { createLab, type Lab } from '../store/labStore';

/** The page's own run client, without a Worker. */
export const inlineRunner = createRunClient({ createWorker: null });

/**
 * A lab opened on a library preset as shipped, run inline.
 * @param ref - `preset-id` (its first variant) or `preset-id/variant-id`.
 * @throws Error for an unknown preset or variant.
 */
export function presetLab(ref: string): Lab {
  const open = loadedPreset(ref);
  if (!open) throw new Error(`no preset ${ref}`);
  return createLab({
    runner: inlineRunner,
    initial: structuredClone(open.variant.scenario),
    initialPresetRef: `${open.preset.id}/${open.variant.id}`,
  });
}
