/**
 * A consumer group as the group coordinator runs it: members, the partition assignment, the
 * generation, and the committed offsets' fencing.
 *
 * Modelling choices (documented behaviour, simplified protocol):
 * - members use static membership (`group.instance.id` = the instance name), so an instance that
 *   restarts within `session.timeout.ms` takes its own partitions back without a rebalance
 *   ("Static group members are able to leave and rejoin a group within the configured
 *   session.timeout.ms without prompting a group rebalance"): nobody else gives anything up;
 *   a member silent for longer is removed and its partitions go to the others;
 * - `partition.assignment.strategy` picks the assignor and with it the rebalance protocol.
 *   Kafka's default list [RangeAssignor, CooperativeStickyAssignor] "will use the RangeAssignor by
 *   default" (https://kafka.apache.org/documentation/#consumerconfigs_partition.assignment.strategy):
 *   - `range` — the range assignor (contiguous ranges over the members sorted by name, the first
 *     ones taking one more when it does not divide) with the EAGER protocol, which "requires a
 *     consumer to always revoke all its owned partitions before participating in a rebalance
 *     event" (https://kafka.apache.org/42/javadoc/org/apache/kafka/clients/consumer/ConsumerPartitionAssignor.RebalanceProtocol.html;
 *     ConsumerCoordinator.onJoinPrepare: auto-commit, then onPartitionsRevoked for all assigned
 *     partitions). At each rebalance every live member gives up every partition, the ones it
 *     keeps too, committing what it may first; the new assignment is handed out once every
 *     partition has been given up (the join barrier: nobody reads during the rebalance) or, if a
 *     member never rejoins (a halted loop), after the rebalance timeout (`max.poll.interval.ms`),
 *     and a kept partition starts again from its committed offset like a moved one;
 *   - `cooperative-sticky` — the CooperativeStickyAssignor with the COOPERATIVE protocol: only
 *     the partitions that move are revoked, the others are never interrupted. The sticky
 *     assignment is AbstractStickyAssignor's constrained one (all members read the one topic):
 *     each member keeps its partitions up to its quota (floor or, for n mod k members, ceil of
 *     partitions / members; its lowest-numbered ones), and the rest go round-robin to the members
 *     under quota, in name order. The partitions given up are assigned as soon as their old owner
 *     releases them (Kafka waits for the follow-up rebalance: a round trip later).
 *   Members starting at the same instant join one after the other, one generation each (Kafka
 *   would gather them in one, after group.initial.rebalance.delay.ms); only `range` and
 *   `cooperative-sticky` are modelled (not RoundRobinAssignor nor the eager StickyAssignor);
 * - a `rebalance` fault moves one member's partitions to the next member (whatever the
 *   assignor); the protocol decides who else gives partitions up (eager: everyone);
 * - a member that loses a partition finishes its current batch first (as a member does before it
 *   rejoins); a new owner starts from the committed offset;
 * - an offset commit from a member that no longer owns the partition fails (CommitFailedException:
 *   "cannot generally be retried because some of the partitions may have already been assigned to
 *   another member"), https://kafka.apache.org/documentation/#consumerapi
 */
import type { EntryId } from '../ids';
import type { Timer, World } from '../world';
import type { Topic } from '../broker/cluster';
import type { Coordinator } from '../broker/coordinator';

/**
 * `partition.assignment.strategy`: `range` = RangeAssignor, eager protocol (Kafka's default in
 * effect); `cooperative-sticky` = CooperativeStickyAssignor, cooperative protocol.
 * https://kafka.apache.org/documentation/#consumerconfigs_partition.assignment.strategy
 */
export type AssignmentStrategy = 'range' | 'cooperative-sticky';

/** What the group needs from a member. */
export interface GroupMember {
  readonly name: string;
  readonly alive: boolean;
  /** The member now owns `partitions` (a fresh start from the committed offsets). */
  onAssign(partitions: number[], generation: number, cause: EntryId): void;
  /** The member must give up `partitions`; it calls `release` once it has committed what it may. */
  onRevoke(partitions: number[], cause: EntryId): void;
}

/** One consumer group on one topic. */
export class ConsumerGroup {
  /** Joined members by name. */
  private readonly members = new Map<string, GroupMember>();
  /** partition → owning member name (or undefined). */
  private readonly owner: (string | undefined)[];
  /** partition → the member the last assignment gave it to (what a sticky assignor keeps). */
  private assigned: (string | undefined)[];
  /** partition → member that is giving it up, and who gets it next. */
  private readonly handoff = new Map<number, { from: string; to: string | undefined }>();
  /** Eager: partitions given up and owned anew, waiting for the rebalance to complete. */
  private readonly ready = new Set<number>();
  /** Eager: a rebalance is waiting for its members to give their partitions up (the join phase). */
  private joining = false;
  /** Eager: ends the join phase after the rebalance timeout, whoever has not rejoined. */
  private joinTimer: Timer | null = null;
  /** partition → number of its latest assignment delivery (an older one still on its way is void). */
  private readonly delivery: number[];
  generation = 0;

  constructor(
    private readonly world: World,
    readonly coordinator: Coordinator,
    readonly id: string,
    readonly topic: Topic,
    /** The assignor and its rebalance protocol (`partition.assignment.strategy`). */
    readonly strategy: AssignmentStrategy = 'range',
    /**
     * How long an eager rebalance waits for every member to give its partitions up (ms): the
     * consumer's rebalance timeout is its `max.poll.interval.ms` (GroupRebalanceConfig).
     */
    readonly rebalanceTimeoutMs = 300_000,
  ) {
    const n = topic.partitions.length;
    this.owner = new Array<string | undefined>(n).fill(undefined);
    this.assigned = new Array<string | undefined>(n).fill(undefined);
    this.delivery = new Array<number>(n).fill(0);
  }

  /** Whether a rebalance revokes every partition of every member (the eager protocol). */
  get eager(): boolean {
    return this.strategy === 'range';
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
   * A member joins: a rebalance. A member rejoining under the same name (a restart or a poll
   * timeout within session.timeout.ms: static membership) triggers none — it gets its own
   * partitions assigned afresh and nobody else gives anything up.
   */
  join(m: GroupMember, cause: EntryId): void {
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
    if (rejoin) this.apply(this.assigned.slice(), cause, new Set(this.owned(m.name)), false);
    else this.rebalance(cause);
  }

  /** A member leaves or is removed: its partitions go to the others. */
  leave(name: string, cause: EntryId): void {
    if (!this.members.delete(name)) return;
    for (const [p, h] of this.handoff) if (h.from === name) this.complete(p, cause);
    this.owner.forEach((o, p) => {
      if (o === name) this.owner[p] = undefined;
    });
    this.rebalance(cause);
  }

  isMember(name: string): boolean {
    return this.members.has(name);
  }

  /** The `rebalance` fault: move `name`'s partitions to the next member (itself when alone). */
  move(name: string, cause: EntryId): void {
    const names = [...this.members.keys()].sort();
    if (!names.includes(name)) return;
    const next = names[(names.indexOf(name) + 1) % names.length]!;
    const target = new Array<string | undefined>(this.owner.length);
    this.owner.forEach((o, p) => (target[p] = o === name ? next : o));
    this.apply(target, cause, name === next ? new Set(this.owned(name)) : new Set(), this.eager);
  }

  /** A rebalance over the current members, with the group's assignor and protocol. */
  private rebalance(cause: EntryId): void {
    const target = this.strategy === 'range' ? this.rangeTarget() : this.stickyTarget();
    this.apply(target, cause, new Set(), this.eager);
  }

  /**
   * RangeAssignor (one topic): contiguous ranges over the members sorted by name, the first
   * `n mod k` members taking one more.
   * https://kafka.apache.org/42/javadoc/org/apache/kafka/clients/consumer/RangeAssignor.html
   */
  private rangeTarget(): (string | undefined)[] {
    const names = [...this.members.keys()].sort();
    const n = this.owner.length;
    const target = new Array<string | undefined>(n).fill(undefined);
    if (names.length > 0) {
      const per = Math.floor(n / names.length);
      const extra = n % names.length;
      let p = 0;
      names.forEach((m, i) => {
        const k = per + (i < extra ? 1 : 0);
        for (let j = 0; j < k; j++) target[p++] = m;
      });
    }
    return target;
  }

  /**
   * The sticky assignment (AbstractStickyAssignor.constrainedAssign, all members on one topic):
   * minQuota = floor(n / k), maxQuota = ceil(n / k), and n mod k members may hold maxQuota. Each
   * member, in name order, keeps its previously assigned partitions (lowest first) up to
   * maxQuota while fewer than n mod k members hold that many, else up to minQuota; the
   * partitions left over go, in partition order, round-robin to the members under minQuota,
   * then one each to the members at minQuota.
   * https://kafka.apache.org/42/javadoc/org/apache/kafka/clients/consumer/CooperativeStickyAssignor.html
   */
  private stickyTarget(): (string | undefined)[] {
    const names = [...this.members.keys()].sort();
    const n = this.owner.length;
    const k = names.length;
    const target = new Array<string | undefined>(n).fill(undefined);
    if (k === 0) return target;
    const minQuota = Math.floor(n / k);
    const maxQuota = Math.ceil(n / k);
    const expectedOver = n % k;
    let over = 0;
    const count = new Map<string, number>();
    const under: string[] = [];
    let atMin: string[] = [];
    for (const m of names) {
      const had: number[] = [];
      this.assigned.forEach((o, p) => {
        if (o === m) had.push(p);
      });
      let keep: number;
      if (had.length < minQuota) {
        keep = had.length;
        under.push(m);
      } else if (had.length >= maxQuota && over < expectedOver) {
        keep = maxQuota;
        if (++over === expectedOver) atMin = [];
      } else {
        keep = minQuota;
        if (over < expectedOver) atMin.push(m);
      }
      for (const p of had.slice(0, keep)) target[p] = m;
      count.set(m, keep);
    }
    // Round-robin over the members under minQuota (restarting while any is left), then the ones
    // at minQuota, one more partition each.
    let i = 0;
    for (let p = 0; p < n; p++) {
      if (target[p] !== undefined) continue;
      let m: string | undefined;
      if (i < under.length) m = under[i++];
      else if (under.length > 0) {
        i = 0;
        m = under[i++];
      } else m = atMin.shift();
      if (m === undefined) break;
      target[p] = m;
      const c = count.get(m)! + 1;
      count.set(m, c);
      if (c === minQuota && under[i - 1] === m) {
        under.splice(--i, 1);
        atMin.push(m);
      } else if (c === maxQuota) over++;
    }
    return target;
  }

  /**
   * Move to the `target` ownership: revoke from old owners first, then assign. `eager`: every
   * live member gives up all it owns, the partitions it keeps too.
   */
  private apply(
    target: (string | undefined)[],
    cause: EntryId,
    reassignSelf: Set<number>,
    eager: boolean,
  ): void {
    this.generation++;
    this.assigned = target.slice();
    if (eager) this.startJoin(cause);
    const revoke = new Map<string, number[]>();
    target.forEach((to, p) => {
      const from = this.owner[p];
      if (from === to && !reassignSelf.has(p) && !(eager && from !== undefined)) return;
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
    this.deliverReady(cause);
  }

  /**
   * Eager: a join phase starts. It ends when every partition has been given up, or after the
   * rebalance timeout: the coordinator then completes the join without the members that have not
   * rejoined (static ones stay members: GroupCoordinator.onCompleteJoin removes only "dynamic
   * members who haven't joined the group yet"), and what they hold is handed on when they let go.
   */
  private startJoin(cause: EntryId): void {
    this.joining = true;
    if (this.joinTimer) this.world.cancel(this.joinTimer);
    this.joinTimer = this.world.scheduleCall(
      this.rebalanceTimeoutMs,
      null,
      this,
      this.joinTimedOut,
      cause,
    );
  }

  /** The rebalance timeout has passed: the join phase ends, whoever has not rejoined. */
  private joinTimedOut(cause: EntryId): void {
    this.joinTimer = null;
    this.deliverReady(cause, true);
  }

  /** A member has given up `partitions` (committed what it may). */
  release(name: string, partitions: number[], cause: EntryId): void {
    for (const p of partitions) {
      const h = this.handoff.get(p);
      if (h && h.from === name) this.complete(p, cause);
    }
    this.deliverReady(cause);
  }

  private complete(p: number, cause: EntryId): void {
    const h = this.handoff.get(p);
    if (!h) return;
    this.handoff.delete(p);
    const to = h.to !== undefined && this.members.has(h.to) ? h.to : undefined;
    this.owner[p] = to;
    if (to === undefined) return;
    // Eager: the assignment is handed out when the join phase ends, below.
    if (this.joining) this.ready.add(p);
    else this.deliver(p, to, cause);
  }

  /**
   * Eager: once no partition is still being given up (every member has rejoined: the join
   * barrier), or when the rebalance timeout has passed (`force`), the join phase ends and the new
   * assignment is handed out.
   */
  private deliverReady(cause: EntryId, force = false): void {
    if (!this.joining || (this.handoff.size > 0 && !force)) return;
    this.joining = false;
    if (this.joinTimer) this.world.cancel(this.joinTimer);
    this.joinTimer = null;
    const ps = [...this.ready].sort((a, b) => a - b);
    this.ready.clear();
    for (const p of ps) {
      const to = this.owner[p];
      if (to !== undefined && this.members.has(to)) this.deliver(p, to, cause);
    }
  }

  /** Tell `to` it owns `p`, after a coordinator round trip (unless it changed hands meanwhile). */
  private deliver(p: number, to: string, cause: EntryId): void {
    const n = ++this.delivery[p]!;
    const d: Delivery = { p, to, member: this.members.get(to)!, n, cause };
    this.world.scheduleCall(this.world.scenario.network.latencyMs, null, this, this.assignNow, d);
  }

  /** The assignment reaches its member, unless the partition changed hands meanwhile. */
  private assignNow(d: Delivery): void {
    if (this.owner[d.p] === d.to && this.delivery[d.p] === d.n && d.member.alive)
      d.member.onAssign([d.p], this.generation, d.cause);
  }
}

/** An assignment on its way to its member (see {@link ConsumerGroup.deliver}): its `n`-th for `p`. */
interface Delivery {
  p: number;
  to: string;
  member: GroupMember;
  n: number;
  cause: EntryId;
}
