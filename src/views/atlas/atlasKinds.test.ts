/** The page's kind filter is the CLI's --kinds: the same kinds, and its refusal in page words. */
import { expect, it } from 'vitest';
import { PLACEMENT_KINDS } from '../../engine/atlas/placements';
import { pairsOf } from '../../engine/atlas/explore';
import { ATLAS_KINDS, kindsTicked, pageRefusal } from './atlasKinds';

it('offers every kind the engine places, in its order, and passes the ticked ones', () => {
  expect(ATLAS_KINDS.map((k) => k.kind)).toEqual([...PLACEMENT_KINDS]);
  expect(kindsTicked(new Set())).toEqual([...PLACEMENT_KINDS]);
  expect(kindsTicked(new Set(['crash', 'drop-request']))).toEqual(
    PLACEMENT_KINDS.filter((k) => k !== 'crash' && k !== 'drop-request'),
  );
});

it('too many pairs: the page names its checkboxes, not a CLI flag', () => {
  // effectively-once's 248 placements (the tester's figure): 248 × 247 / 2 = 30,628 pairs.
  const refused = pairsOf(248, 20);
  if (!('refused' in refused)) throw new Error('not refused');
  expect(pageRefusal(refused.refused)).toBe(
    '248 placements make 30,628 pairs, more than the bound of 20,000 runs: narrow them by unticking some of the fault kinds above',
  );
  expect(pageRefusal(refused.refused)).not.toContain('--kinds');
});
