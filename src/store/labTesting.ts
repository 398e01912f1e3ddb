/**
 * Shared by the lab's tests: a run client that computes inline (jsdom and Node have no Worker),
 * and a lab opened on a library preset as shipped (src/ui/testLab.ts: the same with the page's
 * own run client, for the components' tests).
 */
import type { RunClient } from '../platform/runClient';
import { loadedPreset } from '../scenarios/presetCatalog';
import { scenarioKey } from '../views/run/compute';
import { computeRunView } from '../views/run/computeRun';
import { createLab, type Lab } from './labStore';

/** Every run computed at once, uncached. */
export const inlineRunner: RunClient = {
  run(input) {
    const key = scenarioKey(input);
    return { promise: Promise.resolve({ ...computeRunView(input), key }), cancel() {} };
  },
  dispose() {},
};

/**
 * A lab opened on a library preset as shipped.
 * @param ref - `preset-id` (its first variant) or `preset-id/variant-id`.
 * @param runner - its run client ({@link inlineRunner} unless said).
 * @throws Error for an unknown preset or variant.
 */
export function openPresetLab(ref: string, runner: RunClient = inlineRunner): Lab {
  const open = loadedPreset(ref);
  if (!open) throw new Error(`no preset ${ref}`);
  return createLab({
    runner,
    initial: structuredClone(open.variant.scenario),
    initialPresetRef: `${open.preset.id}/${open.variant.id}`,
  });
}

/** {@link openPresetLab}, run inline, once its first run is done. */
export async function settledLab(ref = 'at-least-once/default'): Promise<Lab> {
  const lab = openPresetLab(ref);
  await lab.actions.settled();
  return lab;
}
