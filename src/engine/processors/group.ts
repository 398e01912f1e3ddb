/**
 * A consumer group as the group coordinator runs it: members, the partition assignment, the
 * generation, and the committed offsets' fencing.
 *
 * Modelling choices (documented behaviour, simplified protocol):
 * - members use static membership (`group.instance.id` = the instance name), so an instance that
 *   restarts within `session.timeout.ms` takes its own partitions back without a rebalance;
 *   a member silent for longer is removed and its partitions go to the others;
 * - assignment is the range assignor over the members sorted by name; a `rebalance` fault instead
 *   moves one member's partitions to the next member;
 * - a member that loses a partition finishes its current batch first (as a member does before it
 *   rejoins); a new owner starts from the committed offset;
 * - an offset commit from a member that no longer owns the partition fails (CommitFailedException:
 *   "cannot generally be retried because some of the partitions may have already been assigned to
 *   another member"), https://kafka.apache.org/documentation/#consumerapi
 */
import type { World } from '../world';
import type { Coordinator, Topic } from '../broker/cluster';

/** What the group needs from a member. */
export interface GroupMember {
  readonly name: string;
  readonly alive: boolean;
  /** The member now owns `partitions` (a fresh start from the committed offsets). */
  onAssign(partitions: number[], generation: number, cause: number): void;
  /** The member must give up `partitions`; it calls `release` once it has committed what it may. */
  onRevoke(partitions: number[], cause: number): void;
}

/** One consumer group on one topic. */
export class ConsumerGroup {
  /** Joined members by name. */
  private readonly members = new Map<string, GroupMember>();
  /** partition → owning member name (or undefined). */
  private readonly owner: (string | undefined)[];
  /** partition → member that is giving it up, and who gets it next. */
  private readonly handoff = new Map<number, { from: string; to: string | undefined }>();
  generation = 0;

  constructor(
    private readonly world: World,
    readonly coordinator: Coordinator,
    readonly id: string,
    readonly topic: Topic,
  ) {
    this.owner = new Array(topic.partitions.length).fill(undefined);
  }

  /** The partitions `name` owns. */
  owned(name: string): number[] {
    const r: number[] = [];
    this.owner.forEach((o, p) => {
      if (o === name) r.push(p);
    });
    return r;
  }

  /** Whether `name` may commit an offset for `partition` (it owns it or is handing it over). */
  mayCommit(name: string, partition: number): boolean {
    return this.owner[partition] === name || this.handoff.get(partition)?.from === name;
  }

  /**
   * A member (re)joins: the range assignment is recomputed over the members. A member rejoining
   * under the same name (a restart, static membership) gets its partitions assigned afresh.
   */
  join(m: GroupMember, cause: number): void {
    // A member back from a crash while it was giving partitions up: its previous incarnation will
    // never release them (its commit's answer died with it). It leaves and joins afresh, or the
    // handoff would wait for that release for good and the partitions would have no owner.
    for (const h of this.handoff.values())
      if (h.from === m.name) {
        this.leave(m.name, cause);
        break;
      }
    const rejoin = this.members.has(m.name);
    this.members.set(m.name, m);
    this.assignRange(cause, rejoin ? new Set(this.owned(m.name)) : new Set());
  }

  /** A member leaves or is removed: its partitions go to the others. */
  leave(name: string, cause: number): void {
    if (!this.members.delete(name)) return;
    for (const [p, h] of this.handoff) if (h.from === name) this.complete(p, cause);
    this.owner.forEach((o, p) => {
      if (o === name) this.owner[p] = undefined;
    });
    this.assignRange(cause);
  }

  isMember(name: string): boolean {
    return this.members.has(name);
  }

  /** The `rebalance` fault: move `name`'s partitions to the next member (itself when alone). */
  move(name: string, cause: number): void {
    const names = [...this.members.keys()].sort();
    if (!names.includes(name)) return;
    const next = names[(names.indexOf(name) + 1) % names.length]!;
    const target = new Array<string | undefined>(this.owner.length);
    this.owner.forEach((o, p) => (target[p] = o === name ? next : o));
    this.apply(target, cause, name === next ? new Set(this.owned(name)) : new Set());
  }

  private assignRange(cause: number, reassign: Set<number> = new Set()): void {
    const names = [...this.members.keys()].sort();
    const n = this.owner.length;
    const target = new Array<string | undefined>(n).fill(undefined);
    if (names.length > 0) {
      // Range assignor: contiguous ranges, the first members take one more when it does not divide.
      const per = Math.floor(n / names.length);
      const extra = n % names.length;
      let p = 0;
      names.forEach((m, i) => {
        const k = per + (i < extra ? 1 : 0);
        for (let j = 0; j < k; j++) target[p++] = m;
      });
    }
    this.apply(target, cause, reassign);
  }

  /** Move to the `target` ownership: revoke from old owners first, then assign. */
  private apply(target: (string | undefined)[], cause: number, reassignSelf: Set<number>): void {
    this.generation++;
    const revoke = new Map<string, number[]>();
    target.forEach((to, p) => {
      const from = this.owner[p];
      if (from === to && !reassignSelf.has(p)) return;
      const pending = this.handoff.get(p);
      if (pending) {
        pending.to = to;
        return;
      }
      if (from !== undefined && this.members.get(from)?.alive) {
        this.handoff.set(p, { from, to });
        if (!revoke.has(from)) revoke.set(from, []);
        revoke.get(from)!.push(p);
      } else {
        this.owner[p] = undefined;
        this.handoff.set(p, { from: '', to });
        this.complete(p, cause);
      }
    });
    for (const [from, ps] of revoke) this.members.get(from)!.onRevoke(ps, cause);
  }

  /** A member has given up `partitions` (committed what it may). */
  release(name: string, partitions: number[], cause: number): void {
    for (const p of partitions) {
      const h = this.handoff.get(p);
      if (h && h.from === name) this.complete(p, cause);
    }
  }

  private complete(p: number, cause: number): void {
    const h = this.handoff.get(p);
    if (!h) return;
    this.handoff.delete(p);
    const to = h.to !== undefined && this.members.has(h.to) ? h.to : undefined;
    this.owner[p] = to;
    if (to !== undefined) {
      const m = this.members.get(to)!;
      // Deliver after a coordinator round trip.
      this.world.scheduleGlobal(this.world.scenario.network.latencyMs, () => {
        if (this.owner[p] === to && m.alive) m.onAssign([p], this.generation, cause);
      });
    }
  }
}
