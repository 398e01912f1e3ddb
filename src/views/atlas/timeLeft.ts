/**
 * The fault atlas's time estimate while it runs ("~12 s left"): the runs left at the rate of the
 * runs done lately. Wall-clock time: the page's progress line only, never a trace, a report or a
 * share link (those stay deterministic).
 *
 * The rate is counted from the first progress report, not from the click: before it the page
 * finds every placement (the scenario's own run) and a cold worker starts, seconds in which no
 * trial runs — counted in, a 15 s atlas of 2,770 runs first said "~106 min left". And it is the
 * rate of the last {@link WINDOW_MS}, once there is one: a worker's first trials build the
 * snapshots its later ones start from, so the runs speed up as the atlas goes.
 */

/** How long after the first run is reported the estimate is first said (ms). */
const TIME_LEFT_AFTER_MS = 1_000;

/** The rate is that of the runs done in about this last stretch of time (ms). */
const WINDOW_MS = 3_000;

/**
 * "~12 s left", "~3 min left", or null (none left, or no rate): `left` runs at `perMs` runs per
 * millisecond.
 */
function words(left: number, perMs: number): string | null {
  if (left <= 0 || !(perMs > 0)) return null;
  const seconds = Math.ceil(left / perMs / 1000);
  return seconds < 90 ? `~${seconds} s left` : `~${Math.round(seconds / 60)} min left`;
}

/** One progress report: when (wall clock, ms) and how many runs were done then. */
interface Sample {
  ms: number;
  done: number;
}

/**
 * A running atlas's estimate: call it with each progress report (runs done, runs in all, the
 * wall clock in ms); it answers the words to show, or null — until a second after the first
 * report, with nothing done since it, or with nothing left.
 */
export function timeLeftEstimator(): (done: number, total: number, nowMs: number) => string | null {
  // The first report, then the reports of about the last WINDOW_MS (and the one just before).
  let first: Sample | null = null;
  const recent: Sample[] = [];
  return (done, total, nowMs) => {
    if (!first) {
      first = { ms: nowMs, done };
      return null;
    }
    recent.push({ ms: nowMs, done });
    // The latest report at least WINDOW_MS old is the base; older ones are no longer needed.
    while (recent.length > 1 && recent[1]!.ms <= nowMs - WINDOW_MS) recent.shift();
    if (nowMs - first.ms < TIME_LEFT_AFTER_MS || done >= total) return null;
    const base = recent[0]!.ms <= nowMs - WINDOW_MS ? recent[0]! : first;
    return words(total - done, (done - base.done) / (nowMs - base.ms));
  };
}
