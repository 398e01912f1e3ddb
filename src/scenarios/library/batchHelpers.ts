/**
 * Builders shared by the batch presets (./batch.ts, ./batchDedupe.ts).
 */
import type { BatchInput, ScenarioInput } from '../../engine';
import { each, ids } from './helpers';
import type { Preset, PresetVariant } from '../types';

/** A batch preset: a library preset whose group is the batch half. */
export interface BatchPreset extends Preset {
  group: 'batch';
}

/** One day and one hour of virtual time (ms). */
export const DAY = 86_400_000;
export const HOUR = 3_600_000;

/** e1..e10 dated `date`, amounts 10·i (docs/semantics/README.md#amounts). */
export function tenOn(date: string) {
  return Array.from({ length: 10 }, (_, k) => ({ id: `e${k + 1}`, date, amount: 10 * (k + 1) }));
}

/**
 * The two outcomes of S21 over {@link tenOn}'s e1..e10 (sum 550), which several presets reach:
 * each event written twice (20 rows, 10 duplicates, sum 1,100), or exactly once (10 rows, 550).
 */
export const TEN_TWICE: ScenarioInput['expect'] = {
  totals: { rows: 20, duplicates: 10, lost: 0, sum: 1100 },
  rows: each(ids(1, 10), 2),
  observed: 'at-least-once',
};
export const TEN_ONCE: ScenarioInput['expect'] = {
  totals: { rows: 10, duplicates: 0, lost: 0, sum: 550 },
  observed: 'exactly-once',
};

/** A scenario whose business events are the batch source's rows. */
function batchScenario(
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

/**
 * One variant of a batch preset: its id, label and card summary, and the scenario (`name`, the
 * job, its hand-derived `expect`) it opens — the block every batch variant repeated.
 */
export function batchVariant(
  id: string,
  label: string,
  summary: string,
  name: string,
  batch: BatchInput,
  expect: ScenarioInput['expect'],
): PresetVariant {
  return { id, label, summary, scenario: batchScenario(name, batch, expect) };
}
