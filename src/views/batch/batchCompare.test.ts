/** Batch Compare's "what differs": the claim, then the job's fields each lane sets otherwise. */
import { expect, it } from 'vitest';
import { findPreset } from '../../scenarios';
import { batchCompareView } from './batchCompare';

it('redis-claim-order beside its other variants: the fields that differ, each lane in order', () => {
  const base = findPreset('redis-claim-order/claim-then-write')!.variant.scenario;
  const v = batchCompareView(base, { lanes: [{ guarantee: 'at-least-once' }] });
  expect(v.lanes).toHaveLength(2);
  // Every row names a field and gives one value per lane, and the values differ.
  expect(v.knobs.length).toBeGreaterThan(0);
  for (const k of v.knobs) {
    expect(k.values).toHaveLength(2);
    expect(new Set(k.values).size, k.name).toBeGreaterThan(1);
  }
  // The claim comes first (the guarantee switch changes it).
  expect(v.knobs[0]).toEqual({
    name: 'claim',
    system: 'the verdict',
    values: ['exactly-once', 'at-least-once'],
  });
  // The at-least-once recipe retries the task (Airflow's retries): its path, its two values.
  expect(v.knobs).toContainEqual({
    name: 'batch.task.retries',
    system: 'batch job',
    values: ['1', '2'],
  });
  // The same lane twice: nothing differs.
  expect(batchCompareView(base, { lanes: [{}] }).knobs).toEqual([]);
});
