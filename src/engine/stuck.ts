/**
 * What is stuck when a run ends: the components still waiting for something — a request never
 * answered, a transaction never completed, a job neither running nor failed, records never
 * delivered, progress never committed. Each component says what it waits for
 * ({@link Actor.pendingWork}); this file asks them once, when the run has ended, and words it.
 *
 * A run that settles (nothing left to happen) with a component still waiting is not finished: that
 * component waits forever, and the run is reported as cut off, `cutOffBy: 'stuck'`, never as a
 * clean verdict. A run cut off at stopAtMs or the trace limit lists what was still waiting then.
 * Only reads state: the trace is the same byte for byte.
 */
import type { World } from './world';
import type { Run } from './simulate';
import { groupDigits } from './groupDigits';

/** One component still waiting when the run ended. */
export interface Stuck {
  /** The component (actor name, e.g. `flink`, `consumer-0-replacement`, `reader-0`). */
  component: string;
  /** What it waits for, completing "<component> waits for …". */
  what: string;
  /** Virtual time it has waited since (ms). */
  since: number;
}

/** Ask every live component what it still waits for (see {@link Actor.pendingWork}). */
export function findStuck(w: World): Stuck[] {
  const out: Stuck[] = [];
  let lastSeen: Float64Array | null = null;
  for (const a of w.actors) {
    if (!a.alive) continue;
    for (const p of a.pendingWork()) {
      let since = p.since;
      if (since < 0) {
        lastSeen ??= lastEntryTimes(w);
        since = lastSeen[a.id]!;
      }
      out.push({ component: a.name, what: p.what, since });
    }
  }
  return out;
}

/** Each actor's last trace entry time (ms), 0 when it has none: when it went quiet. */
function lastEntryTimes(w: World): Float64Array {
  const t = w.trace;
  const last = new Float64Array(t.actors.length);
  for (let i = 0; i < t.length; i++) last[t.actor[i]!] = t.time[i]!;
  return last;
}

/** Offsets `from`..`to` (inclusive) of a partition in words: "record 18 of events/0", "records 0–9 of in/0". */
export function recordRange(topic: string, partition: number, from: number, to: number): string {
  return `${from === to ? `record ${from}` : `records ${from}–${to}`} of ${topic}/${partition}`;
}

/** One stuck component in words: "flink (since 0 ms) waits for the end of its start-up, …". */
export function stuckLine(s: Stuck): string {
  return `${s.component} (since ${groupDigits(s.since)} ms) waits for ${s.what}`;
}

/**
 * Why a run is stuck, for a parenthesis: "nothing was left to happen but flink (since 0 ms) waits
 * for …". The first two components, and how many more. Returns '' for a run that is not stuck.
 */
export function stuckWords(run: Pick<Run, 'cutOffBy' | 'stuck'>): string {
  if (run.cutOffBy !== 'stuck' || run.stuck.length === 0) return '';
  const shown = run.stuck.slice(0, 2).map(stuckLine).join('; ');
  const more = run.stuck.length - 2;
  return `nothing was left to happen but ${shown}${more > 0 ? `; and ${more} more` : ''}`;
}
