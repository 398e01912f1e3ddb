/**
 * Where a run gave a scripted fault its chance: each message sent (with its rank on its link and
 * direction, the count a message fault matches on) and each crash point a component reached (with
 * its rank among the same point of the same target). Recorded only when asked
 * ({@link SimulateOptions.opportunities}), beside the trace, never in it: the trace's bytes stay
 * the same. The fault atlas (atlas/placements.ts) reads it to place one more fault exactly on
 * each of these chances, without mirroring the registry's counting rules (faults.ts).
 */
import type { EntryId } from './ids';
import type { CrashPoint, Link } from './scenario/schema';
import { MESSAGE_LINK } from './faultLink';
import type { MessageType } from './trace';

/** A crash point a component reached. */
export interface PointReached {
  /** The fault target the component answers to (`consumer-0`, `flink`, `producer`…). */
  target: string;
  point: CrashPoint;
  /** `mid-batch`: the records processed so far (a crash fault's `afterRecords`); else 0. */
  detail: number;
  /** Virtual time (ms). */
  time: number;
  /**
   * 1-based rank among the arrivals of the same target at the same point (and, for `mid-batch`,
   * the same `detail`) that a fault listed after the scenario's would count: arrivals where one
   * of the scenario's own crash faults struck are not counted (the crash returns first).
   */
  rank: number;
  /** The trace entry that caused the arrival (the record, the commit…), or -1. */
  cause: EntryId;
}

/** The link key of a message: `<link>:req` or `<link>:resp`. */
function linkKey(link: Link, request: boolean): string {
  return `${link}:${request ? 'req' : 'resp'}`;
}

/** What {@link Faults} recorded for the fault atlas. See the module comment. */
export class Opportunities {
  /** The 'msg' (or, dropped by a fault, 'msg-lost') entry of each message sent, in order. */
  readonly messageEntry: EntryId[] = [];
  /**
   * Its 1-based rank among the messages sent on the same link in the same direction
   * ({@link MESSAGE_LINK}): the `match.nth` of a fault (armed from 0, no event or partition) that
   * strikes exactly it. Replication between brokers is not counted (no fault matches it).
   */
  readonly messageRank: number[] = [];
  readonly points: PointReached[] = [];
  private readonly sent = new Map<string, number>();
  private readonly reached = new Map<string, number>();

  /** A message was sent (entry `entry`, of `type`). */
  message(entry: EntryId, type: MessageType): void {
    if (type === 'replicate') return;
    const m = MESSAGE_LINK[type];
    const key = linkKey(m.link, m.request);
    const rank = (this.sent.get(key) ?? 0) + 1;
    this.sent.set(key, rank);
    this.messageEntry.push(entry);
    this.messageRank.push(rank);
  }

  /** `target` reached `point`; `struck`: one of the scenario's crash faults fired there. */
  point(
    target: string,
    point: CrashPoint,
    detail: number,
    time: number,
    cause: EntryId,
    struck: boolean,
  ): void {
    // A crash 'now' is timed (its `at`), not a point reached: only the record crashes ask at it.
    if (struck || point === 'now') return;
    const key = `${target}\u0000${point}\u0000${point === 'mid-batch' ? detail : 0}`;
    const rank = (this.reached.get(key) ?? 0) + 1;
    this.reached.set(key, rank);
    this.points.push({
      target,
      point,
      detail: point === 'mid-batch' ? detail : 0,
      time,
      rank,
      cause,
    });
  }
}

export { linkKey };
