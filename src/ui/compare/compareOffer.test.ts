// Compare's default offer as the page and an embed make it (docs/page.md#compare): the other two
// guarantees, or, for knobs that are not the claim's recipe, that recipe beside the strongest other.
import { describe, expect, it } from 'vitest';
import { findPreset } from '../../scenarios';
import { recipeDifferences } from '../../scenarios/guarantees';
import { loadValidation } from '../../views/run/validationOnDemand';
import { compareOpenedLabel } from '../../views/compare/compareSpec';
import { offerFor } from './compareOffer';

const scenario = (ref: string) => structuredClone(findPreset(ref)!.variant.scenario);

describe('offerFor', () => {
  it('a scenario on its claim’s recipe: the other two guarantees', async () => {
    await loadValidation();
    const s = scenario('at-least-once/default');
    expect(recipeDifferences(s, 'at-least-once')).toEqual([]);
    const spec = offerFor(s);
    expect(spec).toEqual({ lanes: [{ guarantee: 'at-most-once' }, { guarantee: 'exactly-once' }] });
    expect(compareOpenedLabel(spec)).toBe(
      'Compare: the same faults under at-most-once and exactly-once',
    );
  });

  it('knobs that break the claim (retry-storm, enable.idempotence=false under exactly-once): the claim’s recipe is offered', async () => {
    await loadValidation();
    const s = scenario('retry-storm/idempotence-off');
    expect(s.claim).toBe('exactly-once');
    expect(recipeDifferences(s, 'exactly-once').map((k) => k.path)).toContain(
      'producer.enable.idempotence',
    );
    // Before: at-most-once and at-least-once, neither of which answers "what does exactly-once
    // change on these same faults?".
    expect(offerFor(s)).toEqual({
      lanes: [{ guarantee: 'at-least-once' }, { guarantee: 'exactly-once' }],
    });
  });

  it('an at-most-once claim off its recipe: that recipe and exactly-once', async () => {
    await loadValidation();
    const s = scenario('retry-storm/idempotence-off');
    s.claim = 'at-most-once';
    expect(recipeDifferences(s, 'at-most-once')).not.toEqual([]);
    expect(offerFor(s)).toEqual({
      lanes: [{ guarantee: 'at-most-once' }, { guarantee: 'exactly-once' }],
    });
  });
});
