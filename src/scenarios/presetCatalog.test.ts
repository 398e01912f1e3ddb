/**
 * The catalog (src/scenarios/parsed/catalog.ts, generated) and the per-family loading read the
 * library as `findPreset` does: the same refs resolve, to the same preset objects.
 */
import { describe, expect, it, vi } from 'vitest';
import { findPreset, labPresets } from '.';
import {
  findPresetMeta,
  loadedPreset,
  loadedPresets,
  loadPreset,
  PRESET_CATALOG,
} from './presetCatalog';

describe('presetCatalog', () => {
  it('lists every preset in library order, with its variants and the variant its question is about', () => {
    expect(PRESET_CATALOG.map((m) => m.id)).toEqual(labPresets.map((p) => p.id));
    for (const p of labPresets) {
      const m = PRESET_CATALOG.find((x) => x.id === p.id)!;
      expect(m.variants.map((v) => v.id)).toEqual(p.variants.map((v) => v.id));
      expect(m.questionVariant).toBe(p.predict.variant ?? p.variants[0]!.id);
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

  it('holds a preset once its family is loaded, and that family alone', async () => {
    vi.resetModules();
    const fresh = await import('./presetCatalog');
    expect(fresh.loadedPreset('zombie-consumer')).toBeUndefined();
    expect(fresh.loadedPresets()).toEqual([]);
    await fresh.loadPreset('zombie-consumer');
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
});
