/**
 * Small builders shared by the library's presets: event lists and per-event expectations.
 */
import type { EventSpec } from '../../engine';

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
