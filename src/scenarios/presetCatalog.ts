/**
 * The presets as the page loads them: the catalog (src/scenarios/parsed/, generated) says what
 * every preset is called and where it lives; a preset itself — its story, question and scenarios
 * as written — is imported with its family's module when it is asked for ({@link loadPreset}), so
 * the first screen holds one family, not the library (issues #24, #31). The catalog is read in
 * parts too, one module per family (src/scenarios/parsed/catalog-<family>.ts): an embed loads its
 * family's part with the family (~0.5 kB gzip of the whole's 4.6); the lab's page loads the whole
 * catalog, one module, before it boots ({@link loadWholeCatalog}: its scenario menu lists every
 * preset).
 * Once loaded, {@link loadedPreset} answers synchronously, as `findPreset`
 * does for the whole library (which tests, the CLI and the scripts still import:
 * src/scenarios/index.ts).
 */
import { variantOfRef } from './defaultVariant';
import { CATALOG_PARTS, PRESET_FAMILY_OF } from './parsed/catalogParts';
import { PRESET_FAMILIES, type PresetFamily } from './presetFamilies';
import type { PresetMeta } from './presetMeta';
import type { Preset, PresetVariant } from './types';

export type { PresetMeta } from './presetMeta';

/** The preset a lab opens when nothing else is asked for. */
export const DEFAULT_PRESET_REF = 'at-least-once/default';

const metaById = new Map<string, PresetMeta>();

/** Hand over a part of the catalog: {@link findPresetMeta} then knows its entries. */
function provideCatalog(metas: readonly PresetMeta[]): void {
  for (const m of metas) metaById.set(m.id, m);
}

/** The family of the preset `ref` names (`preset-id` or `preset-id/variant-id`), if any. */
function familyOfRef(ref: string): PresetFamily | undefined {
  const pid = ref.split('/', 1)[0]!;
  return Object.hasOwn(PRESET_FAMILY_OF, pid) ? PRESET_FAMILY_OF[pid] : undefined;
}

/**
 * The catalog entries known so far, in library order (`labPresets`): every preset's once the
 * page loaded the whole catalog ({@link loadWholeCatalog}, {@link loadAllPresets}).
 */
export function presetCatalog(): PresetMeta[] {
  return Object.keys(PRESET_FAMILY_OF).flatMap((id) => metaById.get(id) ?? []);
}

/**
 * Resolve `preset-id` (its default variant: the one its question is about,
 * src/scenarios/defaultVariant.ts) or `preset-id/variant-id` as `findPreset` does, from the
 * catalog alone — the part of its family must be in (the lab's page has them all;
 * {@link loadPresetMeta}).
 * @returns the preset's metadata and the variant's id, or undefined for an unknown ref.
 */
export function findPresetMeta(ref: string): { meta: PresetMeta; variantId: string } | undefined {
  const [pid = '', vid] = ref.split('/', 2);
  const meta = metaById.get(pid);
  const variant = meta && variantOfRef(meta.variants, vid, meta.questionVariant);
  return meta && variant ? { meta, variantId: variant.id } : undefined;
}

/**
 * Whether `ref` may name a preset: the catalog knows it, or its preset's family's part of the
 * catalog is not in yet (an embed holds its own family's part only) — {@link loadPreset} answers.
 */
export function mayBePreset(ref: string): boolean {
  if (findPresetMeta(ref) !== undefined) return true;
  const family = familyOfRef(ref);
  return family !== undefined && !partKnown(family);
}

const parts = new Map<PresetFamily, Promise<void>>();
const loaded = new Map<string, Preset>();
const families = new Map<PresetFamily, Promise<void>>();

/** Import `family`'s module, or its part of the catalog, once; a failed download is tried again. */
function once(
  started: Map<PresetFamily, Promise<void>>,
  family: PresetFamily,
  load: (family: PresetFamily) => Promise<void>,
): Promise<void> {
  let p = started.get(family);
  if (p === undefined) {
    p = load(family).catch((e: unknown) => {
      started.delete(family);
      throw e;
    });
    started.set(family, p);
  }
  return p;
}

/** Whether every preset of `family` is in the catalog already (the lab's page: all of them). */
const partKnown = (family: PresetFamily) =>
  Object.entries(PRESET_FAMILY_OF).every(([id, f]) => f !== family || metaById.has(id));

/** The whole catalog's download, once asked for ({@link loadWholeCatalog}). */
let whole: Promise<void> | null = null;

/** A family's part of the catalog, or the whole catalog when it is on its way (one file, not two). */
const loadPart = (family: PresetFamily) =>
  partKnown(family)
    ? Promise.resolve()
    : (whole ??
      once(parts, family, (f) => CATALOG_PARTS[f]().then((m) => provideCatalog(m.default))));

const loadFamily = (family: PresetFamily) =>
  once(families, family, (f) =>
    PRESET_FAMILIES[f]().then((presets) => {
      for (const preset of presets) loaded.set(preset.id, preset);
    }),
  );

/** Import the catalog's part of the preset `ref` names (once); resolves as {@link findPresetMeta}. */
async function loadPresetMeta(
  ref: string,
): Promise<{ meta: PresetMeta; variantId: string } | undefined> {
  const family = familyOfRef(ref);
  if (family !== undefined) await loadPart(family);
  return findPresetMeta(ref);
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

/**
 * Import the family of the preset `ref` names (once), with its part of the catalog (both at once);
 * resolves as {@link loadedPreset}.
 */
export async function loadPreset(
  ref: string,
): Promise<{ preset: Preset; variant: PresetVariant } | undefined> {
  const family = familyOfRef(ref);
  if (family === undefined) return undefined;
  await Promise.all([loadPresetMeta(ref), loadFamily(family)]);
  return loadedPreset(ref);
}

/**
 * The presets loaded so far, in library order (`labPresets`): every one after
 * {@link loadAllPresets}.
 */
export function loadedPresets(): Preset[] {
  return Object.keys(PRESET_FAMILY_OF).flatMap((id) => loaded.get(id) ?? []);
}

const ALL_FAMILIES = Object.keys(PRESET_FAMILIES) as PresetFamily[];

/**
 * Import the whole catalog (once), one module rather than the twelve parts (issue 24: each file of
 * the lab's first load is a request in the queue its first verdict waits for): the lab's page,
 * whose scenario menu, `?preset=`, "Start here" and library read every preset's metadata
 * (src/ui/io/firstPresets.ts). A part asked for meanwhile waits for it; a failed download is tried
 * again by the next call.
 */
export function loadWholeCatalog(): Promise<void> {
  whole ??= import('./parsed/catalog').then(
    (m) => provideCatalog(m.PRESET_CATALOG),
    (e: unknown) => {
      whole = null;
      throw e;
    },
  );
  return whole;
}

/** Import every family, and the whole catalog: the library's search reads every story. */
export async function loadAllPresets(): Promise<readonly Preset[]> {
  await Promise.all([loadWholeCatalog(), ...ALL_FAMILIES.map(loadFamily)]);
  return loadedPresets();
}
