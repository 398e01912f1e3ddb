/**
 * One rule for a bare preset id (src/scenarios/defaultVariant.ts): every resolver opens the
 * variant the preset's question is about, else its first. Before, each took `variants[0]`:
 * `?preset=aborted-transaction-dirty-read` opened read-committed while its question is about
 * read-uncommitted, and the first screen said "This question is about the “read_uncommitted”
 * variant. Open it" instead of asking.
 */
import { describe, expect, it } from 'vitest';
import { findPreset, labPresets } from '.';
import { findBatchPreset } from './library/batch';
import { findPresetMeta } from './presetCatalog';
import { presetRefOf } from './presetScenarios';
import { questionVariant } from './defaultVariant';

/**
 * The presets whose `predict.variant` names another variant than their first, read off their
 * modules (broker.ts, consumer.ts, processor.ts, sideEffect.ts, streamDedupe.ts); every other
 * preset's question is about its first variant.
 */
const ABOUT_ANOTHER: Readonly<Record<string, string>> = {
  'aborted-transaction-dirty-read': 'read-uncommitted',
  'commit-after-process': 'additive-upsert',
  'flink-commit-phase-crash': 'after-transaction-timeout',
  'card-charge-idempotency': 'key-per-attempt',
  'raw-clean-layer': 'raw-then-clean',
};

describe('a bare preset id opens the variant its question is about, else the first', () => {
  it('findPreset, findPresetMeta, presetRefOf (the CLI) and findBatchPreset agree', () => {
    for (const p of labPresets) {
      const want = `${p.id}/${ABOUT_ANOTHER[p.id] ?? p.variants[0]!.id}`;
      const found = findPreset(p.id);
      expect(found && `${found.preset.id}/${found.variant.id}`, 'findPreset').toBe(want);
      const meta = findPresetMeta(p.id);
      expect(meta && `${meta.meta.id}/${meta.variantId}`, 'findPresetMeta').toBe(want);
      expect(presetRefOf(p.id), 'presetRefOf').toBe(want);
      expect(`${p.id}/${questionVariant(p)}`, 'questionVariant').toBe(want);
      if (p.group === 'batch') {
        const batch = findBatchPreset(p.id);
        expect(batch && `${batch.preset.id}/${batch.variant.id}`, 'findBatchPreset').toBe(want);
      }
    }
    // Five of the library's 33 presets ask about another variant than their first.
    expect(labPresets.filter((p) => questionVariant(p) !== p.variants[0]!.id)).toHaveLength(5);
  });

  it('a variant named is that variant, whatever the question is about; an unknown one is none', () => {
    expect(findPreset('aborted-transaction-dirty-read/read-committed')?.variant.id).toBe(
      'read-committed',
    );
    expect(findPresetMeta('aborted-transaction-dirty-read/read-committed')?.variantId).toBe(
      'read-committed',
    );
    expect(presetRefOf('aborted-transaction-dirty-read/read-committed')).toBe(
      'aborted-transaction-dirty-read/read-committed',
    );
    expect(findPreset('aborted-transaction-dirty-read/nope')).toBeUndefined();
    expect(findPresetMeta('aborted-transaction-dirty-read/nope')).toBeUndefined();
    expect(presetRefOf('aborted-transaction-dirty-read/nope')).toBeUndefined();
    expect(presetRefOf('constructor')).toBeUndefined();
  });
});
