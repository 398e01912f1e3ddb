/** The page's kind filter is the CLI's --kinds: the same kinds, and its refusal in page words. */
import { expect, it } from 'vitest';
import { PLACEMENT_KINDS } from '../../engine/atlas/placements';
import { pairsOf } from '../../engine/atlas/explore';
import { BATCH_PLACEMENT_KINDS } from '../../engine/batch/explore';
import { ATLAS_KINDS, BATCH_ATLAS_KINDS, kindsTicked, pageRefusal } from './atlasKinds';

it('offers every kind the engine places, in its order, and passes the ticked ones', () => {
  expect(ATLAS_KINDS.map((k) => k.kind)).toEqual([...PLACEMENT_KINDS]);
  expect(BATCH_ATLAS_KINDS.map((k) => k.kind)).toEqual([...BATCH_PLACEMENT_KINDS]);
  expect(kindsTicked(ATLAS_KINDS, {})).toEqual([...PLACEMENT_KINDS]);
  // In the filter's order, whatever the order of the choice's list.
  expect(kindsTicked(ATLAS_KINDS, { kinds: ['crash', 'drop-request'] })).toEqual([
    'drop-request',
    'crash',
  ]);
  expect(kindsTicked(BATCH_ATLAS_KINDS, { kinds: [] })).toEqual([]);
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
