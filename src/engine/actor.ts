/**
 * A process of the simulation (producer, broker, processor, sink): its incarnations, crashes,
 * restarts and stalls, and the work it queues on the {@link World}.
 */
import { NO_ENTRY, type ActorId, type EntryId } from './ids';
import type { Links } from './connections';
import type { Timer, World } from './world';
import { writeCrash, writeRestart, writeStall } from './traceWriters';

/** What a process still waits for when the run ends (see {@link Actor.pendingWork}). */
export interface PendingWork {
  /** In words, completing "<component> waits for …", e.g. "the answer to its EndTxn request". */
  what: string;
  /** When the wait began (virtual ms), or -1 when unknown. */
  since: number;
}

/**
 * A process in the simulation. A crash ends an incarnation: its pending timers and the responses
 * addressed to it are dropped, and only the state the component keeps durable survives the
 * restart (each component says which in its `onRestart`).
 */
export abstract class Actor {
  /** Index in the trace's actor table. */
  readonly id: ActorId;
  /** Incarnation number: 0 at start, +1 at each crash. */
  incarnation = 0;
  alive = true;
  /** Down with a restart scheduled (false when it crashed for good, with no restart). */
  restartPending = false;
  /** While now < stalledUntil the process is paused: its work waits (a GC pause, a frozen VM). */
  stalledUntil = -1;
  /**
   * The 'crash' entry that ended each incarnation, by incarnation number: when a client's
   * connection to that incarnation closed (see {@link SendOptions.onLost}).
   */
  readonly crashEntries: EntryId[] = [];
  /** Its connections to the brokers when it fetches (src/engine/processors/fetch.ts). */
  fetchLinks: Links | undefined = undefined;

  constructor(
    readonly world: World,
    readonly name: string,
  ) {
    this.id = world.trace.actors.length as ActorId;
    world.trace.actors.push(name);
    world.actors.push(this);
  }

  /**
   * The work this process still waits for, asked once when the run ends (see src/engine/stuck.ts):
   * a request never answered, a transaction never completed, records never delivered. `since` is
   * the virtual time the wait began (ms), or -1 when the component does not know (then: its last
   * trace entry). Only asked of a live process. Default: nothing.
   */
  pendingWork(): PendingWork[] {
    return [];
  }

  /** Rebuild volatile state from durable state; called when the process starts again. */
  protected abstract onRestart(cause: EntryId): void;
  /** Drop volatile state; called when the process dies. Default: nothing to clean up. */
  protected onCrash(_cause: EntryId): void {}

  /**
   * Kill the process now. Pending work of this incarnation is dropped.
   * @param restartAfterMs - downtime before {@link Actor.restart}; null = stays down.
   * @returns the 'crash' trace entry.
   */
  crash(cause: EntryId, faultIndex: number, restartAfterMs: number | null): EntryId {
    if (!this.alive) return NO_ENTRY;
    const w = this.world;
    const e = writeCrash(w.trace, w.now, this.id, cause, faultIndex);
    this.crashEntries[this.incarnation] = e;
    this.alive = false;
    this.restartPending = restartAfterMs !== null;
    this.incarnation++;
    this.stalledUntil = -1;
    this.onCrash(e);
    if (restartAfterMs !== null) {
      w.scheduleCall(restartAfterMs, null, this, Actor.prototype.restart, e);
    }
    return e;
  }

  /** Start the process again (a new incarnation). */
  restart(cause: EntryId): void {
    if (this.alive) return;
    const w = this.world;
    this.alive = true;
    this.restartPending = false;
    const e = writeRestart(w.trace, w.now, this.id, cause, this.incarnation);
    this.onRestart(e);
  }

  /** Pause the process until `until` (ms); its work resumes afterwards, unaware of the gap. */
  stall(cause: EntryId, until: number): EntryId {
    const w = this.world;
    const e = writeStall(w.trace, w.now, this.id, cause, until);
    this.stalledUntil = until;
    return e;
  }

  /**
   * Run this process's method `fn` with `args` after `delayMs` in this incarnation (dropped if
   * it dies first), held as data — `this.later(ms, this.restore, cause)` — so a snapshot can copy it.
   * @returns the task, for {@link World.cancel}.
   */
  later<P extends [] | [unknown] | [unknown, unknown]>(
    delayMs: number,
    fn: (this: this, ...args: P) => void,
    ...args: P
  ): Timer {
    const call = fn as unknown as (this: this, a: unknown, b: unknown) => void;
    return this.world.scheduleCall(delayMs, this, this, call, args[0], args[1]);
  }
}
