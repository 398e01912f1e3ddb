/**
 * Small builders shared by the library's presets: event lists and per-event expectations.
 */
import type { EventSpec, ScenarioInput } from '../../engine';

/** `e1..en` with docs/semantics/README.md#amounts's amounts (10·i), each at the time `at(i)` gives (ms). */
export function indexedEvents(n: number, at: (i: number) => number): EventSpec[] {
  return Array.from({ length: n }, (_, k) => ({
    id: `e${k + 1}`,
    amount: 10 * (k + 1),
    at: at(k + 1),
  }));
}

/** The ids `e<from>..e<to>`, inclusive. */
export function ids(from: number, to: number): string[] {
  return Array.from({ length: to - from + 1 }, (_, k) => `e${from + k}`);
}

/** An `expect.rows` record giving every id the same count. */
export function each(list: readonly string[], count: number): Record<string, number> {
  return Object.fromEntries(list.map((id) => [id, count]));
}

/**
 * S13's consumer loop over `workload`: it starts at 1 s, reads from the earliest offset, polls 5
 * records at a time and commits by hand after writing (`processor` adds or overrides knobs).
 * docs/semantics/scenarios.md#s13-commit-after-processing
 */
export function fivePerPoll(
  name: string,
  workload: ScenarioInput['workload'],
  processor: Record<string, unknown>,
  sink: ScenarioInput['sink'],
  faults: ScenarioInput['faults'],
  expect: ScenarioInput['expect'],
): ScenarioInput {
  return {
    version: 1,
    name,
    claim: 'exactly-once',
    workload,
    processor: {
      type: 'consumer',
      'enable.auto.commit': false,
      'auto.offset.reset': 'earliest',
      'max.poll.records': 5,
      startAtMs: 1000,
      ...processor,
    },
    sink,
    ...(faults ? { faults } : {}),
    expect,
  };
}
