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
 */
import { type PendingWork, type Timer, type World } from '../world';
import { CommittingConsumer, type PartState } from './consumerCommits';
import { recordRange } from '../stuck';
import type { Cluster, Topic } from '../broker/cluster';
import { errorIndex, NO_RECORDS } from '../broker/cluster';
import type { ConsumerGroup, GroupMember } from './group';
import { fetchFrom, parkOn, type Fetch } from './fetch';
import { call, invoke, stateless, type Call } from '../core/call';
import { answer, reply, type Reply } from '../reply';
import type { ErrorCode } from '../trace';
import type { CrashPoint } from '../scenario/schema';
import {
  writeAssign,
  writeLeaveGroup,
  writePoll,
  writeProcess,
  writeReject,
  writeRevoke,
} from '../traceWriters';
import { NO_ENTRY, NO_EVENT, type EntryId, type EventId } from '../ids';

export { DEFAULT_API_TIMEOUT_MS } from './consumerCommits';

/** What a buffered record's write answers (nothing waits for it: the batch's statement does). */
const ignored = reply(
  undefined,
  stateless(function ignore(): void {}),
);

/** Runs a held call as a task (a statement retried after its delay). */
const runHeld = stateless(function runHeld(this: undefined, k: Call<void>): void {
  invoke(k, undefined);
});

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
export class ConsumerInstance extends CommittingConsumer implements GroupMember {
  private busy = false;
  private lastAutoCommit = 0;
  private autoCommitWake = false;
  private halted = false;
  /**
   * Halted because its producer could not begin a transaction (fenced, failed): the application
   * stopped while still a member of the group, so the partitions it holds are processed by nobody.
   */
  private haltedHolding = false;
  /** handoff mode: records handed to the worker thread. */
  private workerQueue: Rec[] = [];
  private workerBusy = false;
  /** parallel mode: records in flight. */
  private inflight = 0;
  private durationIndex = 0;
  /** Fires when the current sync batch has kept poll() waiting for `max.poll.interval.ms`. */
  private pollTimer: Timer | null = null;
  /** The coordinator's removal of this member, `session.timeout.ms` after its poll timeout. */
  private removal: Timer | null = null;

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

  // ------------------------------------------------------------------ group callbacks

  onAssign(partitions: number[], generation: number, cause: EntryId): void {
    if (!this.alive) return;
    this.generation = generation;
    const w = this.world;
    for (const p of partitions) {
      const committed = this.group.coordinator.committed(this.group.id, this.topic.index, p);
      const part = this.topic.partitions[p]!;
      // No committed offset: auto.offset.reset (earliest = 0, latest = the current end). The end
      // is the one the consumer's isolation level reads to: its ListOffsets asks for the latest
      // offset with that level, and read_committed gets the last stable offset, not the high
      // watermark — a transaction still open at the reset is read whole once it commits
      // (https://kafka.apache.org/protocol.html#The_Messages_ListOffsets, isolation_level;
      // https://kafka.apache.org/documentation/#consumerconfigs_isolation.level: "when in
      // read_committed the seekToEnd method will return the LSO").
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
    this.lastAutoCommit = w.now;
    this.loop(cause);
  }

  onRevoke(partitions: number[], cause: EntryId): void {
    if (!this.alive) return;
    // Partitions this incarnation never started on (it just restarted) are given up at once.
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
  private revokeNow(cause: EntryId): void {
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
  private committable(s: PartState): number {
    // A worker's queue is not processed yet: only its finished offsets may be committed.
    if (this.cfg.mode === 'handoff' && !this.cfg.autoCommit) return Math.max(s.requested, 0);
    if (this.cfg.mode === 'parallel') {
      let o = Math.max(s.committed, 0);
      while (s.done.has(o)) o++;
      return o;
    }
    return s.position;
  }

  // ------------------------------------------------------------------ the poll loop

  private loop(cause: EntryId): void {
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

  /** At-most-once with a worker: the batch's offsets are committed; hand it over. */
  private committedBeforeHandOff(
    batch: Rec[],
    _b: undefined,
    _c: undefined,
    ok: boolean,
    c: EntryId,
  ): void {
    this.busy = false;
    if (!ok) return this.afterCommitFailed(c);
    if (this.world.faults.crashPoint(this, this.targetName, 'after-commit', c)) return;
    this.handOff(batch, c);
  }

  /** poll() returns at once: the worker processes later; the loop polls again. */
  private handOff(batch: Rec[], c: EntryId): void {
    this.workerQueue.push(...batch);
    this.runWorker(c);
    this.later(0, this.loop, c);
  }

  private autoOffsets(): { partition: number; offset: number }[] {
    const r: { partition: number; offset: number }[] = [];
    for (const [p, s] of this.parts)
      if (s.position > s.committed) r.push({ partition: p, offset: s.position });
    return r;
  }

  /** An idle loop still calls poll(): wake once when an auto-commit is due. */
  private scheduleAutoCommit(): void {
    if (!this.cfg.autoCommit || this.autoCommitWake || this.autoOffsets().length === 0) return;
    this.autoCommitWake = true;
    const due = this.lastAutoCommit + this.cfg.autoCommitIntervalMs - this.world.now;
    this.later(Math.max(0, due), this.autoCommitDue);
  }

  /** An idle loop's auto-commit is due: poll() again. */
  private autoCommitDue(): void {
    this.autoCommitWake = false;
    this.loop(NO_ENTRY);
  }

  /**
   * poll(): up to `max` buffered records, partition by partition in ascending order. A sync loop
   * whose output is {@link Output.synchronous} is done with a batch before it polls again (it is
   * busy until then, and its output keeps nothing): its Rec objects are reused from batch to
   * batch instead of made anew for each record.
   */
  private takeRecords(max: number): Rec[] {
    const reuse = this.cfg.mode === 'sync' && this.output.synchronous === true;
    const pool = this.recPool;
    // Sized once: the records available, up to `max`.
    let room = 0;
    for (const s of this.parts.values()) if (!s.revoking) room += s.offsets.length - s.head;
    const out = new Array<Rec>(Math.min(room, max));
    let n = 0;
    // Ascending partition numbers, without sorting the map's entries.
    const partitions = this.topic.partitions.length;
    for (let p = 0; p < partitions; p++) {
      const s = this.parts.get(p);
      if (!s || s.revoking) continue;
      const offs = s.offsets;
      const evs = s.events;
      while (s.head < offs.length && n < max) {
        const i = s.head++;
        let r: Rec | undefined;
        if (reuse && (r = pool[n]) !== undefined) {
          r.partition = p;
          r.offset = offs[i]!;
          r.event = evs[i]! as EventId;
        } else {
          r = { partition: p, offset: offs[i]!, event: evs[i]! as EventId };
          if (reuse) pool[n] = r;
        }
        out[n++] = r;
        s.position = offs[i]! + 1;
      }
      if (s.head === offs.length) {
        s.offsets = NO_RECORDS;
        s.events = NO_RECORDS;
        s.head = 0;
        if (s.position < s.fetchPos) s.position = s.fetchPos;
      }
    }
    return out;
  }

  /** The Rec objects {@link takeRecords} reuses (a sync loop with a synchronous output). */
  private readonly recPool: Rec[] = [];

  /** Keep one fetch in flight per owned partition whose buffer is empty; park when caught up. */
  private fetchMore(cause: EntryId): void {
    for (const [p, s] of this.parts) {
      if (s.fetching || s.parked || s.head < s.offsets.length || s.revoking) continue;
      s.fetching = true;
      const max = Math.max(this.cfg.maxPollRecords, 500);
      fetchFrom(
        this,
        this.cluster,
        this.topic,
        p,
        s.fetchPos,
        max,
        this.cfg.readCommitted,
        cause,
        call(this, this.fetched, s),
      );
    }
  }

  /** A fetch for partition state `s` is answered: its records are buffered, or it parks. */
  private fetched(s: PartState, _b: undefined, _c: undefined, f: Fetch): void {
    const p = f.partition;
    const from = f.offset;
    const r = f.result!;
    const c = f.answer;
    if (this.parts.get(p) !== s) return;
    s.fetching = false;
    if (s.fetchPos === from) {
      // The buffer is empty (only an empty one is fetched for): it becomes the response.
      s.offsets = r.offsets;
      s.events = r.events;
      s.head = 0;
      s.fetchPos = r.next;
      if (r.offsets.length === 0 && s.position < s.fetchPos) s.position = s.fetchPos;
    }
    if (r.offsets.length === 0 && r.next === from) {
      // Caught up: wait for the partition to move instead of polling it again and again.
      s.parked = true;
      const wake = call(this, this.unparked, s, c);
      parkOn(this, this.topic.partitions[p]!, from, this.cfg.readCommitted, wake);
      return;
    }
    this.loop(c);
  }

  /** The partition a parked fetch waits on has moved: poll again. */
  private unparked(s: PartState, cause: EntryId): void {
    s.parked = false;
    this.loop(cause);
  }

  // ------------------------------------------------------------------ processing

  /** Records take no virtual time: a batch is processed in one step. */
  private get instant(): boolean {
    return this.cfg.perRecordMs === 0 && !this.cfg.durationsMs?.length;
  }

  /** How long the next record takes: the next of `durationsMs` (cycling), else `perRecordMs`. */
  private nextDuration(): number {
    const ds = this.cfg.durationsMs;
    return ds && ds.length > 0
      ? ds[this.durationIndex++ % ds.length]!
      : Math.ceil(this.cfg.perRecordMs);
  }

  /** The 'process' entry of a record (its processing attempt is this incarnation). */
  private traceProcess(r: Rec, cause: EntryId): EntryId {
    if (!this.cfg.traceProcessing) return cause;
    const w = this.world;
    return writeProcess(
      w.trace,
      w.now,
      this.id,
      cause,
      r.event,
      this.topic.index,
      r.partition,
      r.offset,
      1,
      this.incarnation,
    );
  }

  /** Process one record: its processing time, then its output. */
  private processRecord(r: Rec, durationMs: number, cause: EntryId, done: Reply): void {
    this.later(durationMs, this.processNow, r, { cause, done });
  }

  /** A record's processing time is over: its 'process' entry, then its output. */
  private processNow(r: Rec, step: { cause: EntryId; done: Reply }): void {
    const e = this.traceProcess(r, step.cause);
    this.output.record(this, r, e, step.done);
  }

  private runSyncBatch(batch: Rec[], cause: EntryId): void {
    this.busy = true;
    if (!this.cfg.autoCommit && this.cfg.commit === 'before-processing') {
      const positions = this.positionsAfter(batch);
      this.commitSync(positions, cause, reply(this, this.committedBeforeBatch, batch));
    } else this.beginBatch(batch, cause);
  }

  /** At-most-once: the batch's offsets are committed before it is processed. */
  private committedBeforeBatch(
    batch: Rec[],
    _b: undefined,
    _c: undefined,
    ok: boolean,
    c: EntryId,
  ): void {
    if (!ok) return this.afterCommitFailed(c);
    if (this.world.faults.crashPoint(this, this.targetName, 'after-commit', c)) return;
    this.beginBatch(batch, c);
  }

  /** The batch's processing starts (in a transaction, for `with-transaction`). */
  private beginBatch(batch: Rec[], c: EntryId): void {
    if (
      this.cfg.commit === 'with-transaction' &&
      this.output.begin &&
      !this.output.begin(this, c)
    ) {
      if (this.exitIfFenced()) return;
      this.halt();
      this.haltedHolding = true;
      return;
    }
    this.runRecords(batch, 0, c);
  }

  /** The cause the next record of a synchronous output follows from (see {@link runRecords}). */
  private followCause: EntryId = NO_ENTRY;
  private readonly follow = reply(this, this.followed);
  private followed(
    _a: undefined,
    _b: undefined,
    _c: undefined,
    _e: ErrorCode,
    next: EntryId,
  ): void {
    this.followCause = next;
  }

  private runRecords(batch: Rec[], i: number, cause: EntryId): void {
    // Records that take no virtual time and whose output is buffered (one statement per batch)
    // are processed in one step: the same trace, without a queue round trip per record.
    // Whether the records take no time and how the output writes: fixed for the loop's life.
    const instant = this.instant;
    const buffers = instant && this.output.buffersRecords === true;
    while (i < batch.length && buffers) {
      const r = batch[i]!;
      this.output.record(this, r, this.traceProcess(r, cause), ignored);
      if (this.world.faults.crashPoint(this, this.targetName, 'mid-batch', cause, i + 1)) return;
      if (this.world.faults.processedRecords(this, this.targetName, 1, cause)) return;
      i++;
    }
    // The same for an output that writes at once (a reader's table): each record follows from the
    // previous one's write, as it would through the queue, without a task per record.
    const synchronous = instant && this.output.synchronous === true;
    while (i < batch.length && synchronous) {
      const r = batch[i]!;
      this.output.record(this, r, this.traceProcess(r, cause), this.follow);
      cause = this.followCause;
      if (this.world.faults.crashPoint(this, this.targetName, 'mid-batch', cause, i + 1)) return;
      if (this.world.faults.processedRecords(this, this.targetName, 1, cause)) return;
      i++;
    }
    if (i === batch.length) return this.endSyncBatch(batch, cause);
    const done = reply(this, this.recordWritten, batch, i);
    this.processRecord(batch[i]!, this.nextDuration(), cause, done);
  }

  /** Record `i` of a sync batch is written (or failed). */
  private recordWritten(
    batch: Rec[],
    i: number,
    _c: undefined,
    error: ErrorCode,
    c: EntryId,
  ): void {
    if (error !== 'NONE')
      return this.onStatementError(
        batch,
        error,
        c,
        call(this, this.runRecords, batch, i, c),
        call(this, this.skipTo, batch, i + 1),
      );
    if (this.world.faults.crashPoint(this, this.targetName, 'mid-batch', c, i + 1)) return;
    if (this.world.faults.processedRecords(this, this.targetName, 1, c)) return;
    this.runRecords(batch, i + 1, c);
  }

  /** Go on with record `i`, skipping a failed one (`onStatementError: skip`). */
  private skipTo(batch: Rec[], i: number, _c: undefined, e: EntryId): void {
    this.runRecords(batch, i, e);
  }

  private endSyncBatch(batch: Rec[], cause: EntryId): void {
    this.output.end(this, batch, cause, reply(this, this.batchWritten, batch));
  }

  /** The batch's output is written (or failed). */
  private batchWritten(
    batch: Rec[],
    _b: undefined,
    _c: undefined,
    error: ErrorCode,
    c: EntryId,
  ): void {
    if (error !== 'NONE')
      return this.onStatementError(
        batch,
        error,
        c,
        call(this, this.endSyncBatch, batch, c),
        call(this, this.finishSkipped, batch),
      );
    this.finishSyncBatch(batch, c);
  }

  /** Go on past a failed batch statement (`onStatementError: skip`). */
  private finishSkipped(batch: Rec[], _b: undefined, _c: undefined, e: EntryId): void {
    this.finishSyncBatch(batch, e);
  }

  /** After the batch's output: the crash point before the commit, then the commit per mode. */
  private finishSyncBatch(batch: Rec[], c: EntryId): void {
    if (this.world.faults.crashPoint(this, this.targetName, 'before-commit', c)) return;
    const positions = this.positionsAfter(batch);
    if (this.cfg.autoCommit || this.cfg.commit === 'before-processing') return this.nextBatch(c);
    const done = reply(this, this.batchCommitted);
    if (this.cfg.commit === 'with-transaction') this.output.commit!(this, positions, c, done);
    else this.commitSync(positions, c, done);
  }

  /** The batch's offsets are committed (or the commit failed). */
  private batchCommitted(
    _a: undefined,
    _b: undefined,
    _c: undefined,
    ok: boolean,
    c: EntryId,
  ): void {
    if (ok) this.nextBatch(c);
    else this.afterCommitFailed(c);
  }

  /** The sync batch is over: poll() again. */
  private nextBatch(c: EntryId): void {
    this.busy = false;
    this.disarmPollTimer();
    this.loop(c);
  }

  /**
   * A statement failed (an SQL error, or a timeout after the writer's retries): apply
   * `onStatementError` — stop, retry it after a second, or skip it and go on (its rows are lost,
   * unless the statement had in fact been applied).
   */
  private onStatementError(
    batch: Rec[],
    error: ErrorCode,
    cause: EntryId,
    retry: Call<void>,
    skip: Call<EntryId>,
  ): void {
    const w = this.world;
    const e = writeReject(
      w.trace,
      w.now,
      this.id,
      cause,
      batch[0]?.event ?? NO_EVENT,
      this.topic.index,
      batch[0]?.partition ?? -1,
      batch[0]?.offset ?? -1,
      batch.length,
      errorIndex(error),
    );
    switch (this.cfg.onStatementError) {
      case 'halt':
        this.halt();
        return;
      case 'retry':
        w.scheduleCall(1000, this, undefined, runHeld, retry);
        return;
      case 'skip':
        invoke(skip, e);
        return;
    }
  }

  /**
   * The group no longer knows this instance as the owner (it was expelled, or it left at its poll
   * timeout), or the batch's transaction failed: drop the work and rejoin, from the committed
   * offsets — for a transaction, "abort the transaction and try again" with the consumer back at
   * its last committed offsets (KafkaProducer javadoc,
   * https://kafka.apache.org/40/javadoc/org/apache/kafka/clients/producer/KafkaProducer.html).
   * Unless its producer was fenced: then it exits ({@link exitIfFenced}).
   */
  private afterCommitFailed(cause: EntryId): void {
    this.busy = false;
    this.parts = new Map();
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
  private exitIfFenced(): boolean {
    const fenced = this.output.fencedAt?.(this) ?? NO_ENTRY;
    if (fenced < 0) return false;
    this.crash(fenced, -1, null);
    return true;
  }

  /** The application stops processing (a failed transaction start, a statement error with 'halt'). */
  private halt(): void {
    this.halted = true;
    this.disarmPollTimer();
  }

  /** A sync batch starts: poll() is next called when it ends, or the poll timeout expires. */
  private armPollTimer(cause: EntryId): void {
    this.disarmPollTimer();
    this.pollTimer = this.later(this.cfg.maxPollIntervalMs, this.pollTimerFired, cause);
  }

  private pollTimerFired(cause: EntryId): void {
    this.pollTimer = null;
    this.pollTimedOut(cause);
  }

  private disarmPollTimer(): void {
    if (this.pollTimer) this.world.cancel(this.pollTimer);
    this.pollTimer = null;
  }

  private clearPollTimeout(): void {
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

  private positionsAfter(batch: Rec[]): { partition: number; offset: number }[] {
    // Per partition, in order of first appearance: the offset after its last record. A batch
    // holds runs of one partition's records, so the lookup is rarely needed.
    const out: { partition: number; offset: number }[] = [];
    // Indexed loops, no iterator or closure: this runs twice per batch, once per record.
    let cur: { partition: number; offset: number } | undefined;
    for (let i = 0; i < batch.length; i++) {
      const r = batch[i]!;
      if (cur?.partition !== r.partition) {
        cur = undefined;
        for (let k = 0; k < out.length; k++) if (out[k]!.partition === r.partition) cur = out[k];
        if (!cur) out.push((cur = { partition: r.partition, offset: 0 }));
      }
      if (r.offset + 1 > cur.offset) cur.offset = r.offset + 1;
    }
    return out;
  }

  /**
   * One record on its own — a hand-off worker's or a parallel pool's task: its processing, then
   * its statement, with `onStatementError` applied as a sync batch applies it ({@link
   * runRecords}, {@link endSyncBatch}): a failed processing step (a per-record statement, a side
   * effect) is retried from the processing, a failed batch statement alone; `done` gets whether
   * the record was written (false: skipped). A revoke does not stop the task, retries included
   * (see {@link startParallel}); a crash does, with the incarnation.
   */
  private runAlone(r: Rec, cause: EntryId, done: Reply<boolean>): void {
    const processed = reply(this, this.aloneProcessed, r, done);
    this.processRecord(r, this.nextDuration(), cause, processed);
  }

  /** A record on its own is processed: its statement next (or its processing again). */
  private aloneProcessed(
    r: Rec,
    done: Reply<boolean>,
    _c: undefined,
    error: ErrorCode,
    c: EntryId,
  ): void {
    if (error !== 'NONE')
      return this.onStatementError(
        [r],
        error,
        c,
        call(this, this.runAlone, r, c, done),
        call(this, this.skipAlone, done),
      );
    this.endAlone(r, done, c);
  }

  /** A record on its own: its batch statement. */
  private endAlone(r: Rec, done: Reply<boolean>, c: EntryId): void {
    this.output.end(this, [r], c, reply(this, this.aloneWritten, r, done));
  }

  private aloneWritten(
    r: Rec,
    done: Reply<boolean>,
    _c: undefined,
    error: ErrorCode,
    c: EntryId,
  ): void {
    if (error !== 'NONE')
      return this.onStatementError(
        [r],
        error,
        c,
        call(this, this.endAlone, r, done, c),
        call(this, this.skipAlone, done),
      );
    answer(done, true, c);
  }

  /** A record on its own is skipped (`onStatementError: skip`): not written. */
  private skipAlone(done: Reply<boolean>, _b: undefined, _c: undefined, e: EntryId): void {
    answer(done, false, e);
  }

  // handoff mode: a worker thread processes what poll() handed over
  private runWorker(cause: EntryId): void {
    if (this.workerBusy || this.workerQueue.length === 0) return;
    this.workerBusy = true;
    const r = this.workerQueue.shift()!;
    this.runAlone(r, cause, reply(this, this.workerDone, r));
  }

  /** The worker is done with `r` (written or skipped). */
  private workerDone(r: Rec, _b: undefined, _c: undefined, _written: boolean, c2: EntryId): void {
    this.workerBusy = false;
    if (this.world.faults.processedRecords(this, this.targetName, 1, c2)) return;
    if (this.world.faults.crashPoint(this, this.targetName, 'mid-batch', c2, 1)) return;
    // At-least-once with a worker: the worker hands each finished offset back to the poll
    // thread, which commits it (commitAsync) — only what was processed (or skipped) is ever
    // committed (the javadoc's second option, decoupling consumption and processing, where
    // committing needs the threads to co-ordinate: the same source as above).
    const s = this.parts.get(r.partition);
    if (
      s &&
      !this.cfg.autoCommit &&
      this.cfg.commit === 'after-processing' &&
      r.offset + 1 > s.requested
    ) {
      s.requested = r.offset + 1;
      this.commitAsync([{ partition: r.partition, offset: s.requested }], c2);
    }
    this.runWorker(c2);
    if (this.workerQueue.length === 0) this.loop(c2);
  }

  // parallel mode: records finish out of order; only the contiguous prefix is committed
  private startParallel(r: Rec, cause: EntryId): void {
    const s = this.parts.get(r.partition);
    if (!s) return;
    this.inflight++;
    s.started.add(r.offset);
    // A revoke does not stop a task already running in the application's pool: it finishes and
    // writes (the KafkaConsumer javadoc leaves waiting for or cancelling it to the application's
    // onPartitionsRevoked); only its offset is no longer this member's to commit.
    this.runAlone(r, cause, reply(this, this.parallelDone, r, s));
  }

  /** A parallel task is done with `r` (written or skipped). */
  private parallelDone(r: Rec, s: PartState, _c: undefined, _written: boolean, c2: EntryId): void {
    this.inflight--;
    if (!(this.parts.get(r.partition) === s && s.started.has(r.offset))) return this.loop(c2);
    s.started.delete(r.offset);
    // Written or skipped (onStatementError=skip), the record is done with: the prefix moves on.
    s.done.add(r.offset);
    if (this.world.faults.processedRecords(this, this.targetName, 1, c2)) return;
    // Commit the contiguous prefix of finished offsets, once per new value.
    const o = this.committable(s);
    if (o > s.requested) {
      s.requested = o;
      this.commitAsync([{ partition: r.partition, offset: o }], c2);
    }
    this.loop(c2);
  }

  /** A crash point hook for outputs (Flink-style outputs don't use it; transactional ones do). */
  crashAt(point: CrashPoint, cause: EntryId): boolean {
    return this.world.faults.crashPoint(this, this.targetName, point, cause);
  }

  /** The consumer group generation this instance last joined. */
  get memberGeneration(): number {
    return this.generation;
  }
}
