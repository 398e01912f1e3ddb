/**
 * The spacing of generated events: a plain rule with no schema (docs/ARCHITECTURE.md, "Our presets
 * without zod").
 */

/** The mean time between two generated events (ms): from `ratePerSec` when given, else `intervalMs`. */
export function generateIntervalMs(g: { intervalMs?: number; ratePerSec?: number }): number {
  return g.ratePerSec === undefined ? (g.intervalMs ?? DEFAULT_INTERVAL_MS) : 1000 / g.ratePerSec;
}

/** `workload.generate.intervalMs` when neither it nor `ratePerSec` is given (ms). */
export const DEFAULT_INTERVAL_MS = 10;
