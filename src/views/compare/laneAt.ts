/**
 * One lane at the shared cursor. Lanes share one clock, the first lane's: every lane is shown at
 * the same virtual time (the entries up to it applied), and at the end of the first lane's run
 * every lane is shown at its own end — a lane that runs longer is not left half-way when the clock
 * stops.
 */
import { indexAtTime, ledgerRowAt, timeAtIndex } from '../run/at';
import { formatCount } from '../run/format';
import type { RunView } from '../run/runView';

/** Entries of `lane` applied when the first lane (`base`) has `baseIdx` applied. */
export function laneIndexAt(base: RunView, baseIdx: number, lane: RunView): number {
  if (baseIdx >= base.n) return lane.n;
  return indexAtTime(lane, timeAtIndex(base, baseIdx));
}

/** One line of a lane's table: a row of an event, or the gap where a lost event's row should be. */
export interface LaneLine {
  id: string;
  amount: number;
  /** Which copy of its id (1 = the first); 0 for a lost event's gap. */
  copy: number;
  lost: boolean;
}

/**
 * The lane's rows at the end of the pipeline at a cursor, in workload order (so lanes line up
 * side by side): each event's rows (a duplicate as its 2nd, 3rd… copy) and, once the run is over,
 * a lost event as a gap line where its row should be. Events not there yet have no line.
 * @param limit - events listed at most (`listed`; the rest are counted in `more`).
 */
export function laneLinesAt(
  v: RunView,
  idx: number,
  limit = 200,
): { lines: LaneLine[]; listed: number; more: number } {
  const lines: LaneLine[] = [];
  const n = Math.min(limit, v.events.identities);
  for (let j = 0; j < n; j++) {
    const r = ledgerRowAt(v, j, idx);
    if (r.fate === 'lost') lines.push({ id: r.id, amount: r.amount, copy: 0, lost: true });
    for (let c = 1; c <= r.rows; c++)
      lines.push({ id: r.id, amount: r.amount, copy: c, lost: false });
  }
  return { lines, listed: n, more: v.events.identities - n };
}

/**
 * The line under a lane's table: "no rows yet", or the events past the listed ones. With none of
 * the listed events' rows in yet, the events past them are not "after these" (there are none on
 * screen), and may hold rows already (at-most-once's lane writes only the last ones): said so.
 */
export function laneTableNote(table: {
  lines: readonly LaneLine[];
  listed: number;
  more: number;
}): string | null {
  if (table.lines.length > 0)
    return table.more > 0 ? `and the ${formatCount(table.more)} events after these` : null;
  return table.more > 0
    ? `no rows yet of the first ${formatCount(table.listed)} events (the ${formatCount(table.more)} after them are not listed)`
    : 'no rows yet';
}
