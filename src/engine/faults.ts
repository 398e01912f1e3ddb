/**
 * The fault registry: turns the scenario's fault schedule into decisions at the moments the
 * components ask ("is this message lost?", "do I crash at this point?").
 *
 * Each fault is armed from its `at` time. Message faults count the matching messages (by link,
 * partition, business event) and fire on the `nth`; random faults draw from their own seeded stream
 * — `fault:id:<id>` for a labelled fault, else `fault:<index>` — so adding or deleting one fault
 * does not change the draws of another (a labelled one keeps its draws wherever it sits). A random fault draws
 * once per opportunity while it is armed — per message on its link, per record its target
 * processes, per event taken from upstream, per produce request a leader appends — whatever the
 * other faults do. Every firing is a 'fault' trace entry, which the consequences cite as their cause.
 */
import { NO_ENTRY, NO_EVENT, type EntryId, type EventId, type IdentityId } from './ids';
import type { FaultSpec, CrashPoint } from './scenario/schema';
import type { MessageType } from './trace';
import { faultActsOn } from './faultLink';
import type { Actor, Carry, World } from './world';
import type { Rng } from './core/rng';
import type { Opportunities } from './opportunities';
import { writeFault } from './traceWriters';
import { ArmedFaults, streamOf, type Armed } from './faultsArmed';

/** What a random rebalance asks to move a member's partitions (a consumer group). */
export interface Rebalancer {
  move(target: string, cause: EntryId): void;
}

export { MESSAGE_LINK } from './faultLink';

/** What the network should do with a message. */
export interface MessageFate {
  drop: boolean;
  delayMs: number;
  /** The 'fault' entry that decided it, or -1. */
  faultEntry: EntryId;
}

const PASS: MessageFate = { drop: false, delayMs: 0, faultEntry: NO_ENTRY };

export { hitsCheckpoints } from './faultsArmed';

/** The chance `p`, drawn `n` times (once per opportunity): true if any draw came up. */
function drawAny(rng: Rng, p: number, n: number): boolean {
  let hit = false;
  for (let i = 0; i < n; i++) if (rng.chance(p)) hit = true;
  return hit;
}

/**
 * The fault registry of one run: its faults as armed (./faultsArmed.ts), and the decisions the
 * components ask for.
 */
export class Faults extends ArmedFaults {
  /** True when some fault draws per event taken from upstream (the source app asks only then). */
  readonly drawsPerUpstreamEvent: boolean;
  /**
   * Moves a member's partitions to the next member (the consumer group); set by simulate() when
   * the processor is a consumer group. An object with a method, not a closure: a random
   * rebalance is queued as a task naming it, which a snapshot copies.
   */
  rebalancer: Rebalancer | null = null;
  /** Where faults had their chance, recorded for the fault atlas; null (most runs): not recorded. */
  opportunities: Opportunities | null = null;
  constructor(
    world: World,
    /** The environment actor that fault entries are attributed to. */
    private readonly lab: Actor,
    faults: readonly FaultSpec[],
  ) {
    super(world);
    faults.forEach((spec, index) => this.arm(spec, index));
    this.drawsPerUpstreamEvent = this.upstream.length > 0;
  }

  /** Record that fault `index` fired; returns its 'fault' entry. */
  fire(index: number, cause: EntryId = NO_ENTRY, event: EventId = NO_EVENT): EntryId {
    const w = this.world;
    return writeFault(w.trace, w.now, this.lab.id, cause, event, index);
  }

  private carries(carry: Carry, identity: IdentityId): boolean {
    const ids = this.world.events.identity;
    const list = carry.events;
    if (list) {
      const n = carry.count >= 0 && carry.count < list.length ? carry.count : list.length;
      for (let i = 0; i < n; i++) if (ids[list[i]!] === identity) return true;
      return false;
    }
    return carry.event >= 0 && ids[carry.event] === identity;
  }

  /** Decide the fate of a message about to be sent. */
  onMessage(type: MessageType, carry: Carry, cause: EntryId): MessageFate {
    if (this.message.length === 0) return PASS;
    if (type === 'replicate') return PASS;
    const now = this.world.now;
    // Each scripted fault counts the matching messages on its own ("the 2nd response of p-77" is
    // the 2nd whether or not another fault hit the 1st). The first fault to fire decides the
    // message's fate; a later one due on the same message waits for the next match.
    let fate: MessageFate | null = null;
    for (const a of this.message) {
      const s = a.spec;
      if (a.done || now < s.at) continue;
      if (s.kind === 'random') {
        if (s.what !== 'drop-request' && s.what !== 'drop-response') continue;
        if (fate || !faultActsOn(s.what, s.link, type)) continue;
        if (!this.active(s)) continue;
        if (this.world.rng(streamOf(a)).chance(s.probability)) {
          fate = {
            drop: true,
            delayMs: 0,
            faultEntry: this.fire(a.index, cause, carry.event),
          };
        }
        continue;
      }
      if (s.kind !== 'drop-request' && s.kind !== 'drop-response' && s.kind !== 'delay-response')
        continue;
      if (!faultActsOn(s.kind, s.link, type)) continue;
      const m = s.match;
      if (m.partition !== undefined && carry.partition !== m.partition) continue;
      if (m.event !== undefined) {
        const id = this.world.events.identityOf(m.event);
        if (id < 0 || !this.carries(carry, id)) continue;
      }
      a.seen++;
      if (a.seen < m.nth) continue;
      if (m.every !== undefined && (a.seen - m.nth) % m.every !== 0) continue;
      if (fate) {
        a.seen--; // taken by an earlier fault: fire on the next matching message instead
        continue;
      }
      if (m.every === undefined) a.done = true;
      const fe = this.fire(a.index, cause, carry.event);
      fate =
        s.kind === 'delay-response'
          ? { drop: false, delayMs: s.delayMs, faultEntry: fe }
          : { drop: true, delayMs: 0, faultEntry: fe };
    }
    return fate ?? PASS;
  }

  /**
   * A component reached a crash point. If a crash fault is armed for it here, the component
   * crashes now (and is restarted per the fault) and this returns true: the caller must stop.
   * @param targetName - the fault target the component answers to (e.g. `consumer-0`).
   * @param detail - `mid-batch`: records processed so far in the batch.
   * @param placed - whether the fault atlas places a crash here (atlas/placements.ts reads the
   *   points recorded in {@link Opportunities}): false where a crash cannot change the outcome
   *   and would only lengthen every atlas — the point still fires for a fault that names it.
   */
  crashPoint(
    actor: Actor,
    targetName: string,
    point: CrashPoint,
    cause: EntryId,
    detail = 0,
    placed = true,
  ): boolean {
    const o = this.opportunities;
    // Most runs have neither a crash at a point nor a record crash due: nothing to look for.
    if (o === null && this.points.length === 0 && !this.mayBePending) return false;
    const now = this.world.now;
    for (const a of this.points) {
      const s = a.spec;
      if (
        a.done ||
        s.kind !== 'crash' ||
        s.target !== targetName ||
        s.point !== point ||
        now < s.at
      )
        continue;
      if (point === 'mid-batch' && detail !== s.afterRecords) continue;
      a.seen++;
      if (a.seen < s.nth) continue;
      a.done = true;
      o?.point(targetName, point, detail, now, cause, true);
      const fe = this.fire(a.index, cause);
      actor.crash(fe, a.index, s.restartAfterMs);
      return true;
    }
    if (placed) o?.point(targetName, point, detail, now, cause, false);
    for (const p of this.recordCrashes) {
      if (!p.pending || p.target !== targetName || p.point !== point) continue;
      p.pending = false;
      const fe = this.fire(p.index, cause);
      actor.crash(fe, p.index, p.restartAfterMs);
      // Others due right after the same record find the process already down: one crash.
      if (point === 'now')
        for (const q of this.recordCrashes)
          if (q.pending && q.target === targetName && q.point === 'now') q.pending = false;
      return true;
    }
    if (this.mayBePending) this.mayBePending = this.recordCrashes.some((p) => p.pending);
    return false;
  }

  /**
   * A component finished processing `n` more records. Arms its periodic crashes and draws its
   * random crashes and rebalances (each once per record); a crash at point 'now' happens here
   * (returns true: the caller must stop), a rebalance just after (the group moves the partitions
   * once the current step is over, as a real rebalance starts from the coordinator).
   */
  processedRecords(actor: Actor, targetName: string, n: number, cause: EntryId): boolean {
    let t = this.lastTarget;
    if (t === null || t.name !== targetName) {
      t = this.recordTargets.get(targetName) ?? null;
      if (t === null) return false;
      this.lastTarget = t;
    }
    const total = (t.processed += n);
    // Nothing to draw and no periodic crash due yet: the loops below would change nothing.
    if (!t.draws && total < t.nextDue) return false;
    const now = this.world.now;
    for (const r of this.recordRebalances) {
      const s = r.spec;
      if (s.what !== 'rebalance' || s.target !== targetName || !this.active(s)) continue;
      if (!drawAny(r.rng, s.probability, n)) continue;
      const fe = this.fire(r.index, cause);
      const g = this.rebalancer;
      if (g) this.world.scheduleCall(0, null, g, g.move, targetName, fe);
    }
    let due = false;
    let nextDue = Infinity;
    for (const p of this.recordCrashes) {
      const s = p.spec;
      if (p.target !== targetName) continue;
      if (now >= s.at) {
        if (s.kind === 'periodic-crash') {
          if (total >= p.next) {
            while (p.next <= total) p.next += s.everyRecords;
            p.pending = true;
            this.mayBePending = true;
            if (p.point === 'now') due = true;
          }
        } else if (s.kind === 'random' && this.active(s)) {
          // Drawn for every record, due or not, so the stream does not depend on the other faults.
          if (drawAny(p.rng!, p.probability, n) && !p.pending) {
            p.pending = true;
            this.mayBePending = true;
            if (p.point === 'now') due = true;
          }
        }
      }
      // A periodic crash not armed yet keeps its `next`: it is due at its first record once armed.
      if (s.kind === 'periodic-crash' && p.next < nextDue) nextDue = p.next;
    }
    t.nextDue = nextDue;
    // A crash at point 'now' happens here; other points wait for the component to reach them.
    return due && this.crashPoint(actor, targetName, 'now', cause);
  }

  /**
   * The source application took business event `event` from upstream. Each random `app-resend`
   * or `source-duplicate` draws once; `copy` queues the copy (after the original) with the
   * 'fault' entry of each firing.
   */
  takenFromUpstream(
    event: EventId,
    cause: EntryId,
    copy: (why: 'app-resend' | 'source-duplicate', faultEntry: EntryId) => void,
  ): void {
    for (const r of this.upstream) {
      const s = r.spec;
      if ((s.what !== 'app-resend' && s.what !== 'source-duplicate') || !this.active(s)) continue;
      if (r.rng.chance(s.probability)) copy(s.what, this.fire(r.index, cause, event));
    }
  }

  /**
   * A partition leader appended a produce request (its records are in the leader's log, not yet
   * on any follower). A `leader-failover` at `after-append` armed for the partition fires (once);
   * each random `leader-failover` for it draws once. The first firing in fault order takes the
   * leader down now, before it answers its followers' fetches.
   */
  leaderAppended(
    leader: Actor,
    topic: string,
    partition: number,
    event: EventId,
    cause: EntryId,
  ): void {
    if (this.appends.length === 0 && this.afterAppend.length === 0) return;
    const w = this.world;
    const input = w.scenario.workload.topic;
    let index = -1;
    let restartAfterMs: number | null = null;
    let armed: Armed | null = null;
    for (const a of this.afterAppend) {
      const s = a.spec;
      if (a.done || s.kind !== 'leader-failover' || w.now < s.at) continue;
      if ((s.topic ?? input) !== topic || s.partition !== partition) continue;
      armed = a;
      index = a.index;
      restartAfterMs = s.restartAfterMs;
      break;
    }
    for (const r of this.appends) {
      const s = r.spec;
      if (s.what !== 'leader-failover' || !this.active(s)) continue;
      if ((s.topic ?? input) !== topic) continue;
      if (s.partition !== undefined && s.partition !== partition) continue;
      if (r.rng.chance(s.probability) && (index < 0 || r.index < index)) {
        index = r.index;
        restartAfterMs = s.restartAfterMs;
      }
    }
    if (index < 0) return;
    if (armed?.index === index) armed.done = true;
    leader.crash(this.fire(index, cause, event), index, restartAfterMs);
  }

  /** What the application does with its nth transaction (1-based). */
  transactionFate(n: number): { fate: 'commit' } | { fate: 'abort' | 'hang'; index: number } {
    return this.txnFate.get(n) ?? { fate: 'commit' };
  }
}
