/**
 * The guarantee switch on a batch pipeline, as knobs: what the engine's recipe
 * (src/engine/batch/guarantee.ts, the one source of the rule) sets in the job's `batch` part —
 * retries, the write mode and its atomicity, and for every guarantee the window pinned to the
 * logical date with the logical date's partition as the target. As knobs, the page's switch, its undo, the
 * recipe check ("2 knobs differ") and Compare's lanes treat a batch job as any other pipeline.
 */
import { applyBatchGuarantee, BatchSchema, type Guarantee, type ScenarioInput } from '../engine';
import type { KnobSetting } from './guarantees';

const WHY: Record<string, string> = {
  'batch.task.retries': 'retries: a crashed attempt runs again (none: never again)',
  'batch.write.mode': 'append re-inserts on a retry; an overwrite of the partition replaces it',
  'batch.write.atomic': 'one table commit for the whole write',
  'batch.window': 'the window pinned to the logical date ({{ ds }}), not read from the clock',
  'batch.write.partitionBy': "the target partition is the run's logical date",
  'batch.dedupe':
    'no dedupe store in front of the write: a claim before the write loses a row a crash leaves claimed, and behind an overwrite a replay skips every claimed row and empties the partition',
};

/** The knobs `g`'s recipe sets in a batch job (none when its `batch` part does not parse). */
export function batchGuaranteeKnobs(g: Guarantee, s: ScenarioInput): KnobSetting[] {
  const parsed = BatchSchema.safeParse(s.batch);
  if (!parsed.success) return [];
  const b = applyBatchGuarantee(parsed.data, g);
  const knobs: [string, unknown][] = [
    ['batch.task.retries', b.task.retries],
    ['batch.write.mode', b.write.mode],
    ['batch.write.atomic', b.write.atomic],
    ['batch.window', b.window],
    ['batch.write.partitionBy', b.write.partitionBy],
    // At-least-once and exactly-once take the dedupe store away (undefined: removed); why:
    // docs/semantics/batch.md#the-guarantee-switch.
    ...(g === 'at-most-once' ? [] : [['batch.dedupe', b.dedupe] as [string, unknown]]),
  ];
  return knobs.map(([path, value]) => ({ path, value, why: WHY[path]! }));
}
