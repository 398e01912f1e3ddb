/**
 * Builders shared by the batch presets (./batch.ts, ./batchDedupe.ts).
 */
import type { BatchInput, ScenarioInput } from '../../engine';
import type { Preset } from '../types';

/** A batch preset: a library preset whose group is the batch half. */
export interface BatchPreset extends Omit<Preset, 'group'> {
  group: 'batch';
}

/** One day and one hour of virtual time (ms). */
export const DAY = 86_400_000;
export const HOUR = 3_600_000;

/** e1..e10 dated `date`, amounts 10·i (docs/semantics/README.md#amounts). */
export function tenOn(date: string) {
  return Array.from({ length: 10 }, (_, k) => ({ id: `e${k + 1}`, date, amount: 10 * (k + 1) }));
}

/** A scenario whose business events are the batch source's rows. */
export function batchScenario(
  name: string,
  batch: BatchInput,
  expect: ScenarioInput['expect'],
): ScenarioInput {
  return {
    version: 1,
    name,
    claim: 'exactly-once',
    workload: { events: batch.source.map((r) => ({ id: r.id, amount: r.amount ?? 10, at: 0 })) },
    batch,
    expect,
  };
}
