/**
 * A consumer loop as a member of its group (the loop itself: {@link ConsumerInstance}): the
 * partitions the group assigns and revokes — each given up after its final commit — and
 * `max.poll.interval.ms`, after which the member leaves the group and its next poll() rejoins
 * (docs/semantics/consumer.md; https://kafka.apache.org/documentation/#consumerconfigs_max.poll.interval.ms).
 * One layer of the loop's class (consumerCommits.ts ← this ← consumerPoll.ts ← consumerBatch.ts
 * ← consumerWorkers.ts ← consumer.ts), split for size; its pending work is data like the rest.
 */
import type { Timer } from '../world';
import type { Cluster } from '../broker/cluster';
import { NO_RECORDS } from '../broker/cluster';
import { LIST_OFFSETS_RETRY_BACKOFF_MS, latestOffsetRefused } from '../broker/listOffsets';
import { CommittingConsumer, type PartState } from './consumerCommits';
import { reply } from '../reply';
import { writeAssign, writeLeaveGroup, writeRevoke } from '../traceWriters';
import { NO_ENTRY, type EntryId } from '../ids';
import type { ConsumerInstance, LoopConfig, Output, Rec } from './consumer';

/** A consumer group member's assignment and poll timeout (the loop: {@link ConsumerInstance}). */
export abstract class ConsumerMembership extends CommittingConsumer {
  /** A sync batch is running, or a hand-off's commit before it (poll() is not called meanwhile). */
  protected busy = false;
  protected lastAutoCommit = 0;
  /** handoff mode: records handed to the worker thread. */
  protected workerQueue: Rec[] = [];
  /** Fires when the current sync batch has kept poll() waiting for `max.poll.interval.ms`. */
  private pollTimer: Timer | null = null;
  /** The coordinator's removal of this member, `session.timeout.ms` after its poll timeout. */
  private removal: Timer | null = null;
  /**
   * Partitions assigned whose latest-offset lookup a new leader refused, waiting to ask again
   * (partition → the refusal's entry): not read until then.
   */
  protected resetting = new Map<number, EntryId>();
  /** The name faults use for this instance (a replacement answers to the original's). */
  abstract readonly targetName: string;
  abstract readonly cluster: Cluster;
  abstract readonly cfg: LoopConfig;
  abstract readonly output: Output;

  /** poll(): the loop's next turn (consumer.ts). */
  protected abstract loop(cause: EntryId): void;

  /** This loop as its output sees it: every consumer loop is a {@link ConsumerInstance}. */
  protected get instance(): ConsumerInstance {
    return this as unknown as ConsumerInstance;
  }

  onAssign(partitions: number[], generation: number, cause: EntryId): void {
    if (!this.alive) return;
    this.generation = generation;
    for (const p of partitions) this.startOrWait(p, generation, cause);
    this.lastAutoCommit = this.world.now;
    this.loop(cause);
  }

  /**
   * Start reading partition `p` from its committed offset, else from auto.offset.reset's (earliest
   * = 0, latest = the current end). The end is the one the consumer's isolation level reads to:
   * its ListOffsets asks for the latest offset with that level, and read_committed gets the last
   * stable offset, not the high watermark — a transaction still open at the reset is read whole
   * once it commits (https://kafka.apache.org/protocol.html#The_Messages_ListOffsets,
   * isolation_level; https://kafka.apache.org/documentation/#consumerconfigs_isolation.level:
   * "when in read_committed the seekToEnd method will return the LSO"). A new leader may not
   * answer the latest offset yet: then the partition waits for its position, asked again
   * retry.backoff.ms later (OFFSET_NOT_AVAILABLE, src/engine/broker/listOffsets.ts).
   */
  private startOrWait(p: number, generation: number, cause: EntryId): void {
    const w = this.world;
    const committed = this.group.coordinator.committed(this.group.id, this.topic.index, p);
    const part = this.topic.partitions[p]!;
    if (committed === undefined && !this.cfg.earliest) {
      const refused = latestOffsetRefused(this, this.cluster, part, cause);
      if (refused !== null) {
        this.resetting.set(p, refused);
        this.later(LIST_OFFSETS_RETRY_BACKOFF_MS, this.resetAgain, p, generation);
        return;
      }
    }
    const start = committed ?? (this.cfg.earliest ? 0 : part.readableEnd(this.cfg.readCommitted));
    this.parts.set(p, {
      position: start,
      fetchPos: start,
      offsets: NO_RECORDS,
      events: NO_RECORDS,
      head: 0,
      fetching: false,
      parked: false,
      revoking: false,
      releasing: false,
      done: new Set(),
      started: new Set(),
      committed: committed ?? -1,
      requested: committed ?? -1,
    });
    writeAssign(w.trace, w.now, this.id, cause, this.topic.index, p, start);
  }

  /**
   * `retry.backoff.ms` after a refused latest-offset lookup of partition `p`: asked again, if the
   * partition is still this member's in the same generation.
   */
  private resetAgain(p: number, generation: number): void {
    const refused = this.resetting.get(p);
    if (refused === undefined || generation !== this.generation) return;
    this.resetting.delete(p);
    this.startOrWait(p, generation, refused);
    if (this.parts.has(p)) this.loop(refused);
  }

  onRevoke(partitions: number[], cause: EntryId): void {
    if (!this.alive) return;
    // Partitions this incarnation never started on (it just restarted) are given up at once.
    for (const p of partitions) this.resetting.delete(p);
    const unknown = partitions.filter((p) => !this.parts.has(p));
    if (unknown.length > 0) this.group.release(this.name, unknown, cause);
    for (const p of partitions) {
      const s = this.parts.get(p);
      if (s) s.revoking = true;
    }
    // A sync loop gives them up once its current batch is done; otherwise right away.
    if (this.cfg.mode === 'sync' && this.busy) return;
    this.revokeNow(cause);
  }

  /** Commit what may be committed for the partitions being given up, then release them. */
  protected revokeNow(cause: EntryId): void {
    // A partition whose final commit is already in flight is not given up twice: a second commit
    // and release would arrive after the group had assigned it again, and drop the new assignment.
    const gone = [...this.parts.entries()].filter(([, s]) => s.revoking && !s.releasing);
    if (gone.length === 0) return;
    for (const [, s] of gone) s.releasing = true;
    const offsets: { partition: number; offset: number }[] = [];
    for (const [p, s] of gone) {
      const o = this.committable(s);
      if (
        o > s.committed &&
        this.cfg.commit !== 'with-transaction' &&
        (this.cfg.autoCommit ||
          this.cfg.commit === 'after-processing' ||
          this.cfg.mode === 'parallel')
      )
        offsets.push({ partition: p, offset: o });
    }
    if (offsets.length === 0) this.release(gone, cause);
    else this.commitSync(offsets, cause, reply(this, this.revokeCommitted, gone));
  }

  /** The final commit of the partitions given up is over (ok or not): release them. */
  private revokeCommitted(
    gone: [number, PartState][],
    _b: undefined,
    _c: undefined,
    _ok: boolean,
    c: EntryId,
  ): void {
    this.release(gone, c);
  }

  /** Give the partitions of `gone` up to the group. */
  private release(gone: [number, PartState][], c: EntryId): void {
    const w = this.world;
    // Only the states given up here: the group may have assigned a partition afresh meanwhile.
    const mine = gone.filter(([p, s]) => this.parts.get(p) === s);
    for (const [p] of mine) {
      this.parts.delete(p);
      writeRevoke(w.trace, w.now, this.id, c, this.topic.index, p);
    }
    this.workerQueue = this.workerQueue.filter((r) => !mine.some(([p]) => p === r.partition));
    this.group.release(
      this.name,
      mine.map(([p]) => p),
      c,
    );
    this.loop(c);
  }

  /** What a commit of partition state `s` would store now. */
  protected committable(s: PartState): number {
    // A worker's queue is not processed yet: only its finished offsets may be committed.
    if (this.cfg.mode === 'handoff' && !this.cfg.autoCommit) return Math.max(s.requested, 0);
    if (this.cfg.mode === 'parallel') {
      let o = Math.max(s.committed, 0);
      while (s.done.has(o)) o++;
      return o;
    }
    return s.position;
  }

  /**
   * The group no longer knows this instance as the owner (it was expelled, or it left at its poll
   * timeout), or the batch's transaction failed: drop the work and rejoin, from the committed
   * offsets — for a transaction, "abort the transaction and try again" with the consumer back at
   * its last committed offsets (KafkaProducer javadoc,
   * https://kafka.apache.org/40/javadoc/org/apache/kafka/clients/producer/KafkaProducer.html).
   * Unless its producer was fenced: then it exits ({@link exitIfFenced}).
   */
  protected afterCommitFailed(cause: EntryId): void {
    this.busy = false;
    this.parts = new Map();
    this.resetting = new Map();
    this.workerQueue = [];
    this.expelled = false;
    this.disarmPollTimer();
    this.clearPollTimeout();
    if (!this.alive) return;
    if (this.exitIfFenced()) return;
    this.group.join(this, cause);
  }

  /**
   * The output's producer was fenced: another instance with the same `transactional.id` has
   * called initTransactions since, so this one is a zombie and the other does its work. "When you
   * encounter this exception, you must close the producer instance"
   * (https://kafka.apache.org/40/javadoc/org/apache/kafka/common/errors/ProducerFencedException.html);
   * the KafkaProducer javadoc's loop then exits: "We can't recover from these exceptions, so our
   * only option is to close the producer and exit"
   * (https://kafka.apache.org/40/javadoc/org/apache/kafka/clients/producer/KafkaProducer.html).
   * The process ends for good: rejoining with the fenced producer, it would take partitions from
   * the newer instance and never process them; with a new producer, the two would fence each
   * other in turn. Returns whether it exited; its 'crash' follows from the 'fenced' entry.
   */
  protected exitIfFenced(): boolean {
    const fenced = this.output.fencedAt?.(this.instance) ?? NO_ENTRY;
    if (fenced < 0) return false;
    this.crash(fenced, -1, null);
    return true;
  }

  /** A sync batch starts: poll() is next called when it ends, or the poll timeout expires. */
  protected armPollTimer(cause: EntryId): void {
    this.disarmPollTimer();
    this.pollTimer = this.later(this.cfg.maxPollIntervalMs, this.pollTimerFired, cause);
  }

  private pollTimerFired(cause: EntryId): void {
    this.pollTimer = null;
    this.pollTimedOut(cause);
  }

  protected disarmPollTimer(): void {
    if (this.pollTimer) this.world.cancel(this.pollTimer);
    this.pollTimer = null;
  }

  protected clearPollTimeout(): void {
    this.pollExpired = false;
    if (this.removal) this.world.cancel(this.removal);
    this.removal = null;
  }

  /**
   * `max.poll.interval.ms` passed since the last poll(), the batch still running: the heartbeat
   * thread leaves the group. A static member sends no LeaveGroup: it stops heartbeating, and the
   * coordinator removes it `session.timeout.ms` later unless it has rejoined by then.
   */
  private pollTimedOut(cause: EntryId): void {
    const w = this.world;
    const removeAt = w.now + this.cfg.sessionTimeoutMs;
    const e = writeLeaveGroup(w.trace, w.now, this.id, cause, this.topic.index, removeAt);
    this.pollExpired = true;
    this.removal = w.scheduleCall(this.cfg.sessionTimeoutMs, null, this, this.removed, e);
  }

  /** `session.timeout.ms` after the poll timeout: the coordinator removes the member. */
  private removed(e: EntryId): void {
    this.removal = null;
    if (this.pollExpired) this.group.leave(this.name, e);
  }

  /** Whether this member may still commit as a group member (not expelled, not left). */
  get inGroup(): boolean {
    return !this.expelled && !this.pollExpired;
  }

  /** The consumer group generation this instance last joined. */
  get memberGeneration(): number {
    return this.generation;
  }
}
