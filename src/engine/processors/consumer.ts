/**
 * A Kafka consumer loop (actors `consumer-0`…, and downstream `reader-0`…): poll → process →
 * write → commit, as the consumer documentation describes its delivery semantics
 * (https://kafka.apache.org/documentation/#semantics, KafkaConsumer javadoc "Manual Offset Control"):
 * - commit before processing: a crash after the commit and before the output loses records
 *   (at-most-once);
 * - commit after processing: a crash after the output and before the commit replays them
 *   (at-least-once: "the first few messages it receives will already have been processed");
 * - `enable.auto.commit`: the position is committed during `poll()` once
 *   `auto.commit.interval.ms` has passed (and before giving up partitions) — "it is possible for the
 *   committed offset to get ahead of the consumed position" when records are handed to another
 *   thread (docs/semantics/consumer.md#auto-commit);
 * - `with-transaction`: outputs and offsets commit atomically through the output producer's
 *   transaction (`sendOffsetsToTransaction`);
 * - `max.poll.interval.ms`: a batch that keeps the loop from calling poll() for longer makes the
 *   member leave the group. "If poll() is not called before expiration of this timeout, then the
 *   consumer is considered failed and the group will rebalance"; for a static member
 *   (`group.instance.id`, as here) "the consumer will stop sending heartbeats and partitions will
 *   be reassigned after expiration of session.timeout.ms"
 *   (https://kafka.apache.org/documentation/#consumerconfigs_max.poll.interval.ms). Its generation
 *   is gone, so its next offset commit fails (CommitFailedException: "the time between subsequent
 *   calls to poll() was longer than the configured max.poll.interval.ms") and its next poll()
 *   rejoins, from the committed offsets: the batch is processed again.
 *
 * The loop's class is built in layers, one concept each: its commits (consumerCommits.ts), its
 * group membership (consumerMembership.ts), poll() and fetching (consumerPoll.ts), processing and
 * the sync batch (consumerBatch.ts), the hand-off worker and parallel tasks (consumerWorkers.ts).
 */
import type { PendingWork, World } from '../world';
import { recordRange } from '../stuck';
import type { Cluster, Topic } from '../broker/cluster';
import type { ConsumerGroup, GroupMember } from './group';
import { call, type Call } from '../core/call';
import { reply, type Reply } from '../reply';
import type { CrashPoint } from '../scenario/schema';
import { writePoll } from '../traceWriters';
import { NO_ENTRY, type EntryId, type EventId } from '../ids';
import { ConsumerWorkers } from './consumerWorkers';

export { DEFAULT_API_TIMEOUT_MS } from './consumerCommits';

/** A record handed to processing. */
export interface Rec {
  partition: number;
  offset: number;
  event: EventId;
}

/**
 * Where a consumer loop's processed records go. `record` is called per record (after its
 * processing time); `end` at the end of a batch. Each calls back once the write is durable.
 */
export interface Output {
  /** Per-record work (side effect, per-record statement, producer send). */
  record(owner: ConsumerInstance, rec: Rec, cause: EntryId, done: Reply): void;
  /** End of a batch (batched statement, producer flush). */
  end(owner: ConsumerInstance, recs: Rec[], cause: EntryId, done: Reply): void;
  /** A new incarnation starts (reset client state). */
  reset?(owner: ConsumerInstance, cause: EntryId, ready: Call<EntryId>): void;
  /** True when `record` only buffers and answers at once (its write happens in `end`). */
  readonly buffersRecords?: boolean;
  /** What the output still waits for when the run ends (a producer's unacknowledged records). */
  pendingWork?(owner: ConsumerInstance): PendingWork | null;
  /**
   * True when `record` does its whole write before it returns, never fails, and answers with the
   * entry the next record follows from (a downstream reader's own table) — and neither `record`
   * nor `end` keeps the records it is given: a sync loop reuses them for its next batch.
   */
  readonly synchronous?: boolean;
  /**
   * The 'fenced' entry of the output's producer once a newer instance with the same
   * `transactional.id` has fenced it (ProducerFencedException, fatal), else -1.
   */
  fencedAt?(owner: ConsumerInstance): EntryId;
  /** Transactional outputs: begin a transaction for a batch. */
  begin?(owner: ConsumerInstance, cause: EntryId): boolean;
  /** Transactional outputs: commit the batch's output together with the offsets. */
  commit?(
    owner: ConsumerInstance,
    offsets: { partition: number; offset: number }[],
    cause: EntryId,
    done: Reply<boolean>,
  ): void;
}

/** The consumer settings this loop uses (processor or reader). */
export interface LoopConfig {
  autoCommit: boolean;
  autoCommitIntervalMs: number;
  commit: 'after-processing' | 'before-processing' | 'with-transaction';
  maxPollRecords: number;
  readCommitted: boolean;
  earliest: boolean;
  sessionTimeoutMs: number;
  /** `max.poll.interval.ms`: the longest a sync loop may spend on one batch without polling. */
  maxPollIntervalMs: number;
  perRecordMs: number;
  mode: 'sync' | 'handoff' | 'parallel';
  concurrency: number;
  durationsMs: number[] | undefined;
  onStatementError: 'retry' | 'skip' | 'halt';
  startAtMs: number;
  /** Whether processing leaves 'process' entries (a downstream reader's copy needs none). */
  traceProcessing: boolean;
}

/** One consumer instance (process) of a group. */
export class ConsumerInstance extends ConsumerWorkers implements GroupMember {
  constructor(
    world: World,
    name: string,
    /** The name faults use for this instance (a replacement answers to the original's). */
    readonly targetName: string,
    readonly cluster: Cluster,
    readonly topic: Topic,
    readonly group: ConsumerGroup,
    readonly cfg: LoopConfig,
    readonly output: Output,
  ) {
    super(world, name);
  }

  /** Join the group at `startAtMs`. */
  start(): void {
    this.later(Math.max(0, this.cfg.startAtMs - this.world.now), this.begin, NO_ENTRY);
  }

  private begin(cause: EntryId): void {
    if (this.output.reset) this.output.reset(this, cause, call(this, this.join));
    else this.group.join(this, cause);
  }

  /** Join the group (once the output is ready). */
  private join(_a: undefined, _b: undefined, _c: undefined, cause: EntryId): void {
    this.group.join(this, cause);
  }

  protected override onCrash(cause: EntryId): void {
    this.disarmPollTimer();
    // The group notices after session.timeout.ms, unless the instance is back by then (static membership).
    const ms = this.cfg.sessionTimeoutMs;
    this.world.scheduleCall(ms, null, this, this.sessionExpired, cause, this.incarnation);
  }

  /** `session.timeout.ms` after the crash of incarnation `inc`: gone from the group if still down. */
  private sessionExpired(cause: EntryId, inc: number): void {
    if (!this.alive && this.incarnation === inc) this.group.leave(this.name, cause);
  }

  protected override onRestart(cause: EntryId): void {
    this.parts = new Map();
    this.resetting = new Map();
    this.busy = false;
    this.workerQueue = [];
    this.workerBusy = false;
    this.inflight = 0;
    this.autoCommitWake = false;
    this.lastAutoCommit = this.world.now;
    // The new incarnation joins under the same group.instance.id: no removal is due any more.
    this.clearPollTimeout();
    this.begin(cause);
  }

  /**
   * What the loop still waits for when the run ends (src/engine/stuck.ts): a batch, a worker's or
   * a parallel write never finished (a request never answered), or records of its partitions it
   * never got — its position behind the end it reads to, with nothing left to fetch them. An
   * application that stopped on purpose (a 'halt' on a statement error, a failed transaction
   * start) waits for nothing.
   */
  override pendingWork(): PendingWork[] {
    const topic = this.topic.name;
    if (this.haltedHolding)
      return [...this.parts.keys()].map((p) => ({
        what: `someone to process ${topic}/${p}: it stopped when its producer could not begin a transaction, and still holds the partition`,
        since: -1,
      }));
    if (this.halted) return [];
    const out: PendingWork[] = [];
    if (this.busy) out.push({ what: 'the end of the batch it is processing', since: -1 });
    if (this.workerBusy || this.workerQueue.length > 0)
      out.push({ what: 'its worker thread to finish the records handed to it', since: -1 });
    if (this.inflight > 0)
      out.push({ what: `${this.inflight} record(s) it is processing in parallel`, since: -1 });
    for (const [p, s] of this.parts) {
      const part = this.topic.partitions[p]!;
      const end = part.readableEnd(this.cfg.readCommitted);
      if (end > s.position)
        out.push({
          what: `${recordRange(topic, p, s.position, end - 1)}, which it never received`,
          since: part.appendedAt(s.position),
        });
      // read_committed reads up to the last stable offset: an open transaction holds back its
      // own records and every record after it (https://kafka.apache.org/documentation/#consumerconfigs_isolation.level).
      else if (part.hw > end)
        out.push({
          what: `${recordRange(topic, p, end, part.hw - 1)}, held back by an open transaction (read_committed reads up to the last stable offset, ${end})`,
          since: part.appendedAt(end),
        });
    }
    const pending = this.output.pendingWork?.(this);
    if (pending) out.push(pending);
    return out;
  }

  // ------------------------------------------------------------------ the poll loop

  protected loop(cause: EntryId): void {
    if (!this.alive || this.halted) return;
    if (this.busy) return;
    // poll() after the poll timeout, or by an expelled member (a zombie, awake again, which learns
    // it from its heartbeat's UNKNOWN_MEMBER_ID): the member lost its partitions and joins the
    // group again. The batch it was in finished unaware; the next one does not start. (A manual
    // commit's refusal rejoins too; an auto-commit's is only logged.) KafkaConsumer javadoc,
    // "Detecting Consumer Failures":
    // https://kafka.apache.org/40/javadoc/org/apache/kafka/clients/consumer/KafkaConsumer.html
    if (this.pollExpired || this.expelled) return this.afterCommitFailed(cause);
    for (const s of this.parts.values()) if (s.revoking) return this.revokeNow(cause);
    const w = this.world;
    // Auto-commit happens inside poll(), once the interval has passed (docs/semantics/consumer.md#auto-commit).
    if (this.cfg.autoCommit && w.now - this.lastAutoCommit >= this.cfg.autoCommitIntervalMs) {
      const offsets = this.autoOffsets();
      this.lastAutoCommit = w.now;
      if (offsets.length > 0) this.commitAsync(offsets, cause);
    }
    const capacity =
      this.cfg.mode === 'parallel'
        ? Math.min(this.cfg.maxPollRecords, this.cfg.concurrency - this.inflight)
        : this.cfg.maxPollRecords;
    const batch = capacity > 0 ? this.takeRecords(capacity) : [];
    this.fetchMore(cause);
    if (batch.length === 0) {
      this.scheduleAutoCommit();
      return;
    }
    const first = batch[0]!;
    const pe = writePoll(
      w.trace,
      w.now,
      this.id,
      cause,
      first.event,
      this.topic.index,
      first.partition,
      first.offset,
      batch.length,
    );
    if (w.faults.crashPoint(this, this.targetName, 'after-poll', pe)) return;
    switch (this.cfg.mode) {
      case 'sync':
        this.armPollTimer(pe);
        this.runSyncBatch(batch, pe);
        return;
      case 'handoff': {
        // At-most-once with a worker: commitSync() right after poll(), before the hand-off — the
        // poll thread owns the consumer ("The Kafka consumer is NOT thread-safe"), so it commits,
        // and blocks. KafkaConsumer javadoc, "Multi-threaded Processing":
        // https://kafka.apache.org/documentation/#consumerapi
        if (!this.cfg.autoCommit && this.cfg.commit === 'before-processing') {
          this.busy = true;
          this.commitSync(
            this.positionsAfter(batch),
            pe,
            reply(this, this.committedBeforeHandOff, batch),
          );
          return;
        }
        this.handOff(batch, pe);
        return;
      }
      case 'parallel':
        for (const r of batch) this.startParallel(r, pe);
        return;
    }
  }

  /** A crash point hook for outputs (Flink-style outputs don't use it; transactional ones do). */
  crashAt(point: CrashPoint, cause: EntryId): boolean {
    return this.world.faults.crashPoint(this, this.targetName, point, cause);
  }
}
