/**
 * Our own presets' scenarios as a run needs them — parsed, every default applied — without zod and
 * without building the library: each preset's variants are a generated module of their own
 * (src/scenarios/parsed/, from the zod parse by scripts/parsedPresets.ts), imported when that
 * preset is asked for. The CLI's preset run and the page's first run of an untouched preset load
 * one preset this way; whatever else (a file, a link, an edit) is still validated by zod
 * (docs/ARCHITECTURE.md, "Our presets without zod").
 */
import type { Scenario } from '../engine';
import { variantOfRef } from './defaultVariant';
import { BATCH_PRESET_IDS, PARSED_PRESETS, PRESET_VARIANT_IDS, QUESTION_VARIANTS } from './parsed';
import type { ParsedPresetModule, SwitchAnswers } from './parsed/types';

/**
 * `preset-id` (its default variant: the one its question is about, src/scenarios/defaultVariant.ts)
 * or `preset-id/variant-id` as `preset-id/variant-id`, read as `findPreset` reads it; undefined
 * for an unknown id.
 */
export function presetRefOf(ref: string): string | undefined {
  const [pid = '', vid] = ref.split('/', 2);
  if (!Object.hasOwn(PRESET_VARIANT_IDS, pid)) return undefined;
  const about = Object.hasOwn(QUESTION_VARIANTS, pid) ? QUESTION_VARIANTS[pid] : undefined;
  const variant = variantOfRef(PRESET_VARIANT_IDS[pid]!, vid, about);
  return variant === undefined ? undefined : `${pid}/${variant}`;
}

/** Every streaming preset's `preset-id/variant-id` in library order: what `presetIds()` lists. */
export function streamPresetRefs(): string[] {
  return Object.entries(PRESET_VARIANT_IDS)
    .filter(([pid]) => !BATCH_PRESET_IDS.includes(pid))
    .flatMap(([pid, variants]) => variants.map((v) => `${pid}/${v}`));
}

/** Every batch preset's `preset-id/variant-id` in library order (the batch engine runs them). */
function batchPresetRefs(): string[] {
  return Object.entries(PRESET_VARIANT_IDS)
    .filter(([pid]) => BATCH_PRESET_IDS.includes(pid))
    .flatMap(([pid, variants]) => variants.map((v) => `${pid}/${v}`));
}

/** Every preset a run can name, streaming then batch: what `sim --list` prints. */
export function allPresetRefs(): string[] {
  return [...streamPresetRefs(), ...batchPresetRefs()];
}

const loaded = new Map<string, ParsedPresetModule>();

/**
 * Import the parsed variants of the preset `ref` names (once); afterwards
 * {@link loadedPresetScenario} returns them synchronously. Resolves false for an unknown ref.
 */
export async function loadPresetScenarios(ref: string): Promise<boolean> {
  const full = presetRefOf(ref);
  if (full === undefined) return false;
  const pid = full.slice(0, full.indexOf('/'));
  if (!loaded.has(pid)) loaded.set(pid, await PARSED_PRESETS[pid]!());
  return true;
}

/**
 * The parsed scenario of `ref`'s variant — a copy the caller may change — if its preset has been
 * loaded ({@link loadPresetScenarios}); else undefined.
 */
export function loadedPresetScenario(ref: string): Scenario | undefined {
  const full = presetRefOf(ref);
  if (full === undefined) return undefined;
  const slash = full.indexOf('/');
  const scenario = loaded.get(full.slice(0, slash))?.default[full.slice(slash + 1)];
  return scenario === undefined ? undefined : structuredClone(scenario);
}

/**
 * What the guarantee switch shows for `ref`'s variant as shipped (computed with zod by
 * scripts/parsedPresets.ts), if its preset has been loaded ({@link loadPresetScenarios}).
 */
export function loadedSwitchAnswers(ref: string): SwitchAnswers | undefined {
  const full = presetRefOf(ref);
  if (full === undefined) return undefined;
  const slash = full.indexOf('/');
  return loaded.get(full.slice(0, slash))?.switchAnswers[full.slice(slash + 1)];
}

/** The parsed scenario of `ref`'s variant (a copy), imported first if need be. */
export async function presetScenario(ref: string): Promise<Scenario | undefined> {
  return (await loadPresetScenarios(ref)) ? loadedPresetScenario(ref) : undefined;
}
