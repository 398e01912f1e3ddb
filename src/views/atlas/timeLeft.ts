/**
 * The fault atlas's time estimate while it runs ("~12 s left"): the runs left at the rate of the
 * runs done so far. Said only after the first second — before it, a worker's start-up weighs more
 * than its runs and the rate says little. Wall-clock time: the page's progress line only, never a
 * trace, a report or a share link (those stay deterministic).
 */

/** How long the atlas runs before its estimate is said (ms). */
const TIME_LEFT_AFTER_MS = 1_000;

/**
 * "~12 s left", "~3 min left", or null (the first second, no run done yet, or none left).
 * @param elapsedMs - wall-clock time since the atlas started.
 */
export function timeLeftWords(done: number, total: number, elapsedMs: number): string | null {
  if (elapsedMs < TIME_LEFT_AFTER_MS || done <= 0 || done >= total) return null;
  const seconds = Math.ceil(((total - done) * elapsedMs) / done / 1000);
  return seconds < 90 ? `~${seconds} s left` : `~${Math.round(seconds / 60)} min left`;
}
