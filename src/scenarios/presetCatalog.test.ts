/**
 * The catalog (src/scenarios/parsed/catalog.ts, generated) and the per-family loading read the
 * library as `findPreset` does: the same refs resolve, to the same preset objects.
 */
import { describe, expect, it, vi } from 'vitest';
import { findPreset, labPresets } from '.';
import { questionVariant } from './defaultVariant';
import { PRESET_CATALOG } from './parsed/catalog';
import { CATALOG_PARTS, PRESET_FAMILY_OF } from './parsed/catalogParts';
import type * as CatalogParts from './parsed/catalogParts';
import { findPresetMeta, loadedPreset, loadedPresets, loadPreset } from './presetCatalog';
import { PRESET_FAMILIES, type PresetFamily } from './presetFamilies';

describe('presetCatalog', () => {
  it('lists every preset in library order, with its variants and the variant its question is about', () => {
    expect(PRESET_CATALOG.map((m) => m.id)).toEqual(labPresets.map((p) => p.id));
    for (const p of labPresets) {
      const m = PRESET_CATALOG.find((x) => x.id === p.id)!;
      expect(m.variants.map((v) => v.id)).toEqual(p.variants.map((v) => v.id));
      expect(m.questionVariant).toBe(questionVariant(p));
      expect(m.title).toBe(p.title);
    }
  });

  it('resolves a ref as findPreset does, and an unknown one to nothing', async () => {
    const refs = labPresets.flatMap((p) => [p.id, ...p.variants.map((v) => `${p.id}/${v.id}`)]);
    refs.push('nope', 'at-least-once/nope', '', 'at-least-once/default/extra');
    for (const ref of refs) {
      const zodFree = findPresetMeta(ref);
      const full = findPreset(ref);
      expect(zodFree && `${zodFree.meta.id}/${zodFree.variantId}`, ref).toBe(
        full && `${full.preset.id}/${full.variant.id}`,
      );
      // Its family's module holds the very objects the library lists.
      const loaded = await loadPreset(ref);
      expect(loaded?.preset, ref).toBe(full?.preset);
      expect(loaded?.variant, ref).toBe(full?.variant);
      expect(loadedPreset(ref)?.variant, ref).toBe(full?.variant);
    }
    // 33 presets: 26 streaming, 7 batch jobs (src/scenarios/library/batch.ts).
    expect(loadedPresets()).toHaveLength(33);
    expect(loadedPresets()).toEqual(labPresets);
  });

  it("splits the catalog by family: each part is the whole catalog's entries of its family", async () => {
    const families = Object.keys(PRESET_FAMILIES) as PresetFamily[];
    expect(Object.keys(CATALOG_PARTS)).toEqual(families);
    const parts = await Promise.all(families.map(async (f) => (await CATALOG_PARTS[f]()).default));
    parts.forEach((part, i) =>
      expect(part).toEqual(PRESET_CATALOG.filter((m) => m.family === families[i])),
    );
    // Every entry is in one part, and PRESET_FAMILY_OF lists them in library order.
    expect(parts.flat()).toHaveLength(PRESET_CATALOG.length);
    expect(Object.entries(PRESET_FAMILY_OF)).toEqual(PRESET_CATALOG.map((m) => [m.id, m.family]));
  });

  it("knows a preset's metadata and holds it once its family is loaded, and that family alone", async () => {
    vi.resetModules();
    const fresh = await import('./presetCatalog');
    expect(fresh.loadedPreset('zombie-consumer')).toBeUndefined();
    expect(fresh.loadedPresets()).toEqual([]);
    // Nothing of the catalog before a part is loaded (the lab's page provides it whole).
    expect(fresh.findPresetMeta('zombie-consumer')).toBeUndefined();
    expect(fresh.presetCatalog()).toEqual([]);
    // It may be one (its family's part is not in); an id of no family is none.
    expect(fresh.mayBePreset('zombie-consumer/nope')).toBe(true);
    expect(fresh.mayBePreset('no-such-preset')).toBe(false);
    await fresh.loadPreset('zombie-consumer');
    // The part in, the catalog answers.
    expect(fresh.mayBePreset('zombie-consumer/nope')).toBe(false);
    expect(fresh.mayBePreset('zombie-consumer/plain-insert')).toBe(true);
    // The consumer family's part of the catalog only.
    expect(fresh.presetCatalog().map((m) => m.family)).toEqual(Array(7).fill('consumer'));
    expect(fresh.loadedPreset('zombie-consumer')?.variant.id).toBe(
      PRESET_CATALOG.find((m) => m.id === 'zombie-consumer')!.variants[0]!.id,
    );
    // src/scenarios/library/consumer.ts's seven, in library order; no other family's.
    expect(fresh.loadedPresets().map((p) => p.id)).toEqual([
      'commit-before-process',
      'commit-after-process',
      'consume-transform-produce',
      'auto-commit-crash',
      'rebalance-midflight',
      'poll-timeout-slow-batch',
      'zombie-consumer',
    ]);
  });

  it("loads the lab's whole catalog as one module: no family's part, even for a preset asked for meanwhile", async () => {
    vi.resetModules();
    const partsLoaded: string[] = [];
    vi.doMock('./parsed/catalogParts', async (original) => {
      const real = await original<typeof CatalogParts>();
      const counted = Object.fromEntries(
        Object.entries(real.CATALOG_PARTS).map(([family, load]) => [
          family,
          () => (partsLoaded.push(family), load()),
        ]),
      );
      return { ...real, CATALOG_PARTS: counted };
    });
    try {
      const fresh = await import('./presetCatalog');
      // As src/ui/io/firstPresets.ts asks: the whole catalog, and the opened preset beside it.
      await Promise.all([fresh.loadWholeCatalog(), fresh.loadPreset('zombie-consumer')]);
      expect(partsLoaded).toEqual([]);
      expect(fresh.presetCatalog()).toEqual(PRESET_CATALOG);
      expect(fresh.presetCatalog()).toHaveLength(33);
      expect(fresh.loadedPreset('zombie-consumer')?.variant.id).toBe('plain-insert');
    } finally {
      vi.doUnmock('./parsed/catalogParts');
    }
  });
});
