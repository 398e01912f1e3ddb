/**
 * The presets as the page loads them: the catalog (src/scenarios/parsed/catalog.ts, generated) says
 * what every preset is called and where it lives; a preset itself — its story, question and
 * scenarios as written — is imported with its family's module when it is asked for
 * ({@link loadPreset}), so the first screen holds one family, not the library (issues #24, #31).
 * Once loaded, {@link loadedPreset} answers synchronously, as `findPreset` does for the whole
 * library (which tests, the CLI and the scripts still import: src/scenarios/index.ts).
 */
import { PRESET_CATALOG } from './parsed/catalog';
import { PRESET_FAMILIES, type PresetFamily } from './presetFamilies';
import type { PresetMeta } from './presetMeta';
import type { Preset, PresetVariant } from './types';

export type { PresetMeta } from './presetMeta';
export { PRESET_CATALOG };

/** The preset a lab opens when nothing else is asked for. */
export const DEFAULT_PRESET_REF = 'at-least-once/default';

const metaById = new Map(PRESET_CATALOG.map((m) => [m.id, m]));

/**
 * Resolve `preset-id` or `preset-id/variant-id` as `findPreset` does, from the catalog alone.
 * @returns the preset's metadata and the variant's id, or undefined for an unknown ref.
 */
export function findPresetMeta(ref: string): { meta: PresetMeta; variantId: string } | undefined {
  const [pid = '', vid] = ref.split('/', 2);
  const meta = metaById.get(pid);
  const variant = vid === undefined ? meta?.variants[0] : meta?.variants.find((v) => v.id === vid);
  return meta && variant ? { meta, variantId: variant.id } : undefined;
}

const loaded = new Map<string, Preset>();
const families = new Map<PresetFamily, Promise<void>>();

function loadFamily(family: PresetFamily): Promise<void> {
  let p = families.get(family);
  if (p === undefined) {
    p = PRESET_FAMILIES[family]().then(
      (presets) => {
        for (const preset of presets) loaded.set(preset.id, preset);
      },
      (e: unknown) => {
        // A failed download is tried again by the next call.
        families.delete(family);
        throw e;
      },
    );
    families.set(family, p);
  }
  return p;
}

/**
 * The preset and variant `ref` names, if its family has been loaded ({@link loadPreset}); else
 * (or for an unknown ref) undefined.
 */
export function loadedPreset(ref: string): { preset: Preset; variant: PresetVariant } | undefined {
  const found = findPresetMeta(ref);
  const preset = found && loaded.get(found.meta.id);
  const variant = preset?.variants.find((v) => v.id === found!.variantId);
  return preset && variant ? { preset, variant } : undefined;
}

/** Import the family of the preset `ref` names (once); resolves as {@link loadedPreset}. */
export async function loadPreset(
  ref: string,
): Promise<{ preset: Preset; variant: PresetVariant } | undefined> {
  const found = findPresetMeta(ref);
  if (found === undefined) return undefined;
  await loadFamily(found.meta.family);
  return loadedPreset(ref);
}

/**
 * The presets loaded so far, in library order (`labPresets`): every one after
 * {@link loadAllPresets}.
 */
export function loadedPresets(): Preset[] {
  return PRESET_CATALOG.flatMap((m) => loaded.get(m.id) ?? []);
}

/** Import every family: the library's search reads every story. */
export async function loadAllPresets(): Promise<readonly Preset[]> {
  await Promise.all(Object.keys(PRESET_FAMILIES).map((f) => loadFamily(f as PresetFamily)));
  return loadedPresets();
}
