/**
 * The scenario library: every preset, addressable as `preset-id` (its default variant) or
 * `preset-id/variant-id`.
 */
import type { Preset, PresetVariant } from './types';
import { foundationPresets } from './foundation';
import { libraryPresets } from './library';
import { batchPresets } from './library/batch';
import { variantOfRef } from './defaultVariant';

export type { Preset, PresetVariant, PredictMark, AskedNumber, ChoiceOption } from './types';
export {
  applyGuarantee,
  claimOf,
  guaranteeAvailability,
  guaranteeKnobs,
  getKnob,
  knobInEffect,
  recipeDifferences,
  setKnob,
} from './guarantees';
export type { GuaranteeAvailability, KnobSetting } from './guarantees';
export {
  libraryPresets,
  LIBRARY_GROUPS,
  groupPresets,
  searchPresets,
  spelledOut,
  SOURCES,
  sourceTitle,
} from './library';
export type { LibraryGroup } from './library';

/** Every preset, in library order. */
export const presets: readonly Preset[] = [...foundationPresets, ...libraryPresets];

/**
 * Every preset the lab's library lists and opens: the streaming ones, then the batch jobs (run by
 * the batch engine: src/engine/batch). `presets` stays the streaming ones, which every streaming
 * test and the preset hashes walk.
 */
export const labPresets: readonly Preset[] = [...presets, ...batchPresets];
export { batchPresets };

/** Every `preset-id/variant-id`. */
export function presetIds(): string[] {
  return presets.flatMap((p) => p.variants.map((v) => `${p.id}/${v.id}`));
}

/**
 * Resolve `preset-id` (its default variant: the one its question is about, src/scenarios/defaultVariant.ts)
 * or `preset-id/variant-id` (a batch preset's too).
 * @returns the preset and variant, or undefined for an unknown id.
 */
export function findPreset(ref: string): { preset: Preset; variant: PresetVariant } | undefined {
  const [pid, vid] = ref.split('/', 2);
  const preset = labPresets.find((p) => p.id === pid);
  if (!preset) return undefined;
  const variant = variantOfRef(preset.variants, vid, preset.predict.variant);
  return variant ? { preset, variant } : undefined;
}
