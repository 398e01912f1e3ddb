/**
 * The faults that happen at a time (`at`): a crash 'now', a leader failover, a rebalance, a
 * zombie pause, a checkpoint reset, an application re-send or a source duplicate — the others
 * fire where the components ask (src/engine/faults.ts). Each is queued as a task naming its fault
 * index, held as data so a snapshot of the run copies it (docs/ARCHITECTURE.md, "Pending work and
 * forks").
 */
import { NO_ENTRY, type EntryId, type EventId } from './ids';
import type { World, Actor } from './world';
import type { Scenario } from './scenario/schema';
import type { Cluster, Topic } from './broker/cluster';
import type { SourceApp } from './producer';
import { ConsumerInstance } from './processors/consumer';
import type { ConsumerGroup } from './processors/group';
import type { SparkQuery } from './processors/spark';

/** What the timed faults act on. */
export interface FaultTargets {
  cluster: Cluster;
  input: Topic;
  producer: SourceApp;
  consumers: ConsumerInstance[];
  group: ConsumerGroup | null;
  spark: SparkQuery | null;
}

/** The scenario's timed faults, each fired by a task at its time. */
class TimedFaults {
  private readonly byName = new Map<string, Actor>();

  constructor(
    private readonly w: World,
    private readonly s: Scenario,
    private readonly parts: FaultTargets,
  ) {
    for (const a of w.actors) this.byName.set(a.name, a);
  }

  /** Queue each timed fault of index `from` to `to` (excluded) at its time. */
  schedule(from: number, to: number): void {
    const w = this.w;
    this.s.faults.forEach((f, index) => {
      if (index < from || index >= to) return;
      switch (f.kind) {
        case 'crash':
          if (f.point !== 'now') return;
          w.scheduleFault(f.at, this, this.fire, index);
          return;
        case 'leader-failover':
          // After an append: armed from `at`, it waits for the append (src/engine/faults.ts).
          if (f.point === 'after-append') return;
          w.scheduleFault(f.at, this, this.fire, index);
          return;
        case 'rebalance':
        case 'zombie':
        case 'checkpoint-reset':
          w.scheduleFault(f.at, this, this.fire, index);
          return;
        case 'app-resend':
        case 'source-duplicate': {
          const ev = w.events;
          const first = ev.firstIndexOf(ev.identityOf(f.event));
          w.scheduleFault(Math.max(f.at, ev.at[first]!), this, this.inject, index, first);
          return;
        }
        default:
          return;
      }
    });
  }

  /** Fault `index` happens now. */
  private fire(index: number): void {
    const { w, parts } = this;
    const f = this.s.faults[index]!;
    switch (f.kind) {
      case 'crash': {
        const a = this.byName.get(f.target) ?? w.actors.find((x) => x.name === f.target);
        if (!a || !a.alive) return;
        const fe = w.faults.fire(index);
        a.crash(fe, index, f.restartAfterMs);
        return;
      }
      case 'leader-failover': {
        const topic = f.topic ? parts.cluster.topics.get(f.topic)! : parts.input;
        const p = topic.partitions[f.partition]!;
        const leader = parts.cluster.leaderOf(p);
        const fe = w.faults.fire(index);
        if (leader) leader.crash(fe, index, f.restartAfterMs);
        return;
      }
      case 'rebalance':
        if (!parts.group) return;
        parts.group.move(f.target, w.faults.fire(index));
        return;
      case 'zombie':
        return this.zombie(index, f.target, f.pauseMs);
      case 'checkpoint-reset':
        parts.spark?.resetCheckpoint(w.faults.fire(index), f.restartAfterMs, f.txnAppId);
        return;
      default:
        return;
    }
  }

  /** An application re-send or a source duplicate of the event at index `first`. */
  private inject(index: number, first: EventId): void {
    const f = this.s.faults[index]!;
    if (f.kind !== 'app-resend' && f.kind !== 'source-duplicate') return;
    this.parts.producer.inject(first, f.kind, this.w.faults.fire(index, NO_ENTRY, first));
  }

  /**
   * A zombie: the instance stalls (a long pause); once `session.timeout.ms` has passed the group
   * removes it and a replacement takes its partitions; the old instance then wakes up and
   * finishes what it was doing, unaware, and its next poll() rejoins the group (its heartbeat has
   * been told UNKNOWN_MEMBER_ID meanwhile).
   */
  private zombie(index: number, target: string, pauseMs: number): void {
    const { w, parts } = this;
    const old = parts.consumers.find((c) => c.name === target);
    if (!old || !old.alive || !parts.group) return;
    const fe = w.faults.fire(index);
    old.stall(fe, w.now + pauseMs);
    const timeout = old.cfg.sessionTimeoutMs;
    if (pauseMs <= timeout) return;
    w.scheduleCall(timeout, null, this, this.expel, old, fe);
  }

  /** The zombie's session has timed out: the group removes it; a replacement starts if alone. */
  private expel(old: ConsumerInstance, fe: EntryId): void {
    const { w } = this;
    const { consumers } = this.parts;
    const group = this.parts.group!;
    if (!old.alive) return;
    old.expelled = true;
    group.leave(old.name, fe);
    const others = consumers.filter((c) => c !== old && c.alive && group.isMember(c.name));
    if (others.length > 0) return;
    // Nobody else in the group: the orchestrator starts a replacement instance.
    const rep = new ConsumerInstance(
      w,
      `${old.name}-replacement`,
      old.targetName,
      old.cluster,
      old.topic,
      group,
      { ...old.cfg, startAtMs: 0 },
      old.output,
    );
    consumers.push(rep);
    rep.start();
  }
}

/**
 * Queue the faults of `s` that happen at a time (the others fire where the components ask), of
 * index `from` to `to` (excluded): all at set-up, or one armed later in a trial that forks
 * (src/engine/atlas/continuation.ts).
 */
export function scheduleTimedFaults(
  w: World,
  s: Scenario,
  parts: FaultTargets,
  from = 0,
  to = s.faults.length,
): void {
  new TimedFaults(w, s, parts).schedule(from, to);
}
