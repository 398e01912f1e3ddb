/**
 * For the page's component tests: labs that run every scenario inline (jsdom and Node have no
 * Worker), as the page runs small scenarios.
 */
import { createRunClient } from '../platform/runClient';
import type { Lab } from '../store/labStore';
import { openPresetLab } from '../store/labTesting';

/** The page's own run client, without a Worker. */
export const inlineRunner = createRunClient({ createWorker: null });

/**
 * A lab opened on a library preset as shipped, run by {@link inlineRunner}.
 * @param ref - `preset-id` (its first variant) or `preset-id/variant-id`.
 * @throws Error for an unknown preset or variant.
 */
export function presetLab(ref: string): Lab {
  return openPresetLab(ref, inlineRunner);
}
