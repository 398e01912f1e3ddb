/**
 * The fault registry: turns the scenario's fault schedule into decisions at the moments the
 * components ask ("is this message lost?", "do I crash at this point?").
 *
 * Each fault is armed from its `at` time. Message faults count the matching messages (by link,
 * partition, business event) and fire on the `nth`; random faults draw from their own seeded stream
 * (`fault:<index>`), so adding one fault does not change the draws of another. Every firing is a
 * 'fault' trace entry, which the consequences cite as their cause.
 */
import type { FaultSpec, CrashPoint, Link } from './scenario/schema';
import type { MessageType } from './trace';
import type { Actor, Carry, World } from './world';
import { K } from './trace';

/** The link (fault `link`) a message type travels on, and whether it is a request. */
export const MESSAGE_LINK: Record<MessageType, { link: Link; request: boolean }> = {
  produce: { link: 'produce', request: true },
  'produce-response': { link: 'produce', request: false },
  fetch: { link: 'fetch', request: true },
  'fetch-response': { link: 'fetch', request: false },
  commit: { link: 'commit', request: true },
  'commit-response': { link: 'commit', request: false },
  'sink-write': { link: 'sink', request: true },
  'sink-response': { link: 'sink', request: false },
  'effect-call': { link: 'effect', request: true },
  'effect-response': { link: 'effect', request: false },
  'txn-request': { link: 'txn', request: true },
  'txn-response': { link: 'txn', request: false },
  replicate: { link: 'produce', request: true },
  barrier: { link: 'checkpoint', request: true },
  'checkpoint-ack': { link: 'checkpoint', request: false },
  'checkpoint-notify': { link: 'checkpoint', request: true },
};

/** What the network should do with a message. */
export interface MessageFate {
  drop: boolean;
  delayMs: number;
  /** The 'fault' entry that decided it, or -1. */
  faultEntry: number;
}

const PASS: MessageFate = { drop: false, delayMs: 0, faultEntry: -1 };

interface Armed {
  index: number;
  spec: FaultSpec;
  seen: number;
  done: boolean;
}

/** The fault registry of one run. */
export class Faults {
  private readonly message: Armed[] = [];
  private readonly points: Armed[] = [];
  private readonly periodic: (Armed & { next: number; pending: boolean })[] = [];
  /** Per-target count of records processed (for periodic crashes). */
  private readonly processed = new Map<string, number>();
  /** Targets of the periodic crashes: only their records need counting. */
  private readonly periodicTargets = new Set<string>();
  /** Transaction number (1-based) → what the application does with it. */
  private readonly txnFate = new Map<number, { fate: 'abort' | 'hang'; index: number }>();

  constructor(
    private readonly world: World,
    /** The environment actor that fault entries are attributed to. */
    private readonly lab: Actor,
    faults: readonly FaultSpec[],
  ) {
    faults.forEach((spec, index) => {
      const a: Armed = { index, spec, seen: 0, done: false };
      switch (spec.kind) {
        case 'drop-request':
        case 'drop-response':
        case 'delay-response':
        case 'random':
          this.message.push(a);
          break;
        case 'crash':
          if (spec.point !== 'now') this.points.push(a);
          break;
        case 'periodic-crash':
          this.periodic.push({ ...a, next: spec.everyRecords, pending: false });
          this.periodicTargets.add(spec.target);
          break;
        case 'abort-transaction':
          this.txnFate.set(spec.transaction, { fate: 'abort', index });
          break;
        case 'hang-transaction':
          this.txnFate.set(spec.transaction, { fate: 'hang', index });
          break;
        default:
          break; // timed faults are scheduled by simulate()
      }
    });
  }

  /** Record that fault `index` fired; returns its 'fault' entry. */
  fire(index: number, cause = -1, event = -1): number {
    const w = this.world;
    return w.trace.add(w.now, K['fault'], this.lab.id, cause, event, -1, -1, -1, -1, index);
  }

  private carries(carry: Carry, identity: number): boolean {
    const ids = this.world.events.identity;
    const list = carry.events;
    if (list) {
      for (let i = 0; i < list.length; i++) if (ids[list[i]!] === identity) return true;
      return false;
    }
    return carry.event !== undefined && carry.event >= 0 && ids[carry.event] === identity;
  }

  /** Decide the fate of a message about to be sent. */
  onMessage(type: MessageType, carry: Carry, cause: number): MessageFate {
    if (this.message.length === 0) return PASS;
    const { link, request } = MESSAGE_LINK[type];
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
        if (fate || s.link !== link || (s.what === 'drop-request') !== request) continue;
        if (s.untilMs !== undefined && now > s.untilMs) continue;
        if (this.world.rng(`fault:${a.index}`).chance(s.probability)) {
          fate = {
            drop: true,
            delayMs: 0,
            faultEntry: this.fire(a.index, cause, carry.event ?? -1),
          };
        }
        continue;
      }
      if (s.kind !== 'drop-request' && s.kind !== 'drop-response' && s.kind !== 'delay-response')
        continue;
      if (s.link !== link || (s.kind === 'drop-request') !== request) continue;
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
      const fe = this.fire(a.index, cause, carry.event ?? -1);
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
   */
  crashPoint(
    actor: Actor,
    targetName: string,
    point: CrashPoint,
    cause: number,
    detail = 0,
  ): boolean {
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
      const fe = this.fire(a.index, cause);
      actor.crash(fe, a.index, s.restartAfterMs);
      return true;
    }
    for (const p of this.periodic) {
      const s = p.spec;
      if (!p.pending || s.kind !== 'periodic-crash' || s.target !== targetName) continue;
      if (s.point !== point) continue;
      p.pending = false;
      const fe = this.fire(p.index, cause);
      actor.crash(fe, p.index, s.restartAfterMs);
      return true;
    }
    return false;
  }

  /**
   * A component finished processing `n` more records. Arms its periodic crashes; with point 'now'
   * the crash happens here (returns true: the caller must stop).
   */
  processedRecords(actor: Actor, targetName: string, n: number, cause: number): boolean {
    if (!this.periodicTargets.has(targetName)) return false;
    const total = (this.processed.get(targetName) ?? 0) + n;
    this.processed.set(targetName, total);
    let now = false;
    for (const p of this.periodic) {
      const s = p.spec;
      if (s.kind !== 'periodic-crash' || s.target !== targetName || this.world.now < s.at) continue;
      if (total >= p.next) {
        while (p.next <= total) p.next += s.everyRecords;
        p.pending = true;
        if (s.point === 'now') now = true;
      }
    }
    // A crash at point 'now' happens here; other points wait for the component to reach them.
    return now && this.crashPoint(actor, targetName, 'now', cause);
  }

  /** What the application does with its nth transaction (1-based). */
  transactionFate(n: number): { fate: 'commit' } | { fate: 'abort' | 'hang'; index: number } {
    return this.txnFate.get(n) ?? { fate: 'commit' };
  }
}
