import { describe, expect, it } from 'vitest';
import { foundationBase, foundationPresets } from './foundation';
import { applyGuarantee } from './guarantees';

describe('foundation presets', () => {
  it('each variant is its guarantee’s recipe applied to the base, exactly (the written-out recipes)', () => {
    expect(foundationPresets.map((p) => p.illustrates)).toEqual([
      'at-most-once',
      'at-least-once',
      'exactly-once',
    ]);
    for (const p of foundationPresets) {
      const shipped = p.variants[0]!.scenario;
      const applied = applyGuarantee(foundationBase(), p.illustrates as never);
      const want = { ...applied, name: shipped.name, expect: shipped.expect };
      // Key order too: a scenario's JSON text is what pristine checks compare.
      expect(JSON.stringify(shipped)).toBe(JSON.stringify(want));
    }
  });
});
