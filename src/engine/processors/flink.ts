/**
 * A Flink job (actor `flink`, the TaskManager) and its JobManager's checkpoint coordinator (actor
 * `jobmanager`): KafkaSource → keyed running count and sum → sink, parallelism 1.
 *
 * Semantics modelled, from the Flink documentation:
 * - checkpoints (https://nightlies.apache.org/flink/flink-docs-stable/docs/learn-flink/fault_tolerance/):
 *   the JobManager triggers checkpoint n every `execution.checkpointing.interval`; the source
 *   injects barrier n; "Checkpoint n will contain the state of each operator that resulted from
 *   having consumed every event before checkpoint barrier n, and none of the events after it";
 *   a checkpoint completes when every task has acknowledged it, and is then durable;
 * - recovery (https://nightlies.apache.org/flink/flink-docs-stable/docs/concepts/stateful-stream-processing/):
 *   the job "restarts the operators and resets them to the latest successful checkpoint. The input
 *   streams are reset to the point of the state snapshot" — state is exactly-once, the sink sees
 *   whatever it saw, again;
 * - KafkaSink `deliveryGuarantee` (https://nightlies.apache.org/flink/flink-docs-stable/docs/connectors/datastream/kafka/):
 *   NONE sends and forgets; AT_LEAST_ONCE flushes on each checkpoint; EXACTLY_ONCE writes each
 *   checkpoint epoch in a Kafka transaction (`transactionalIdPrefix`), pre-commits (flushes) on the
 *   barrier and commits when the checkpoint-complete notification arrives — "data loss may happen
 *   when Kafka expires an uncommitted transaction" (`transaction.timeout.ms`);
 * - two-phase commit (https://github.com/apache/flink/blob/release-1.17/flink-streaming-java/src/main/java/org/apache/flink/streaming/api/functions/sink/TwoPhaseCommitSinkFunction.java, docs/semantics/flink.md#two-phase-commit): on restore, the pending pre-committed transactions of
 *   the restored checkpoint are committed and the open ones aborted. The names preCommit /
 *   recoverAndCommit / recoverAndAbort used below are the legacy TwoPhaseCommitSinkFunction's; in
 *   KafkaSink (Sink V2) the writer's prepareCommit hands the committables over and the Committer
 *   re-commits them on recovery. A recovery commit of an expired transaction fails: KafkaSink's
 *   KafkaCommitter logs "Unable to commit transaction … Most likely the transaction has been
 *   aborted" and drops it — silent data loss, the job goes on (our default,
 *   `ignoreFailuresAfterTransactionTimeout: true`,
 *   https://github.com/apache/flink-connector-kafka/blob/main/flink-connector-kafka/src/main/java/org/apache/flink/connector/kafka/sink/KafkaCommitter.java);
 *   a sink on the legacy TwoPhaseCommitSinkFunction whose recoverAndCommit throws, without
 *   `ignoreFailuresAfterTransactionTimeout()` (off by default there), rethrows and the job fails on
 *   every restore (`false`, docs/semantics/flink.md#expired-transaction). The legacy FlinkKafkaProducer is not such a sink: its
 *   recoverAndCommit catches the fencing error and logs "Presumably this transaction has been
 *   already committed before", losing the data as KafkaSink does;
 * - the KafkaSource commits offsets back to Kafka only when a checkpoint completes, "only for
 *   exposing the progress"; without checkpointing it relies on the consumer's auto-commit, which
 *   KafkaSourceBuilder switches off unless the job sets `enable.auto.commit` (maybeOverride(…,
 *   "false", false)): by default such a job commits nothing, and a restart without a checkpoint
 *   reads from its starting offsets again.
 * - starting offsets (`offsetsInitializer`): the real KafkaSource starts from earliest by
 *   default (OffsetsInitializer.earliest()); unless told otherwise, this model assumes
 *   `setStartingOffsets(OffsetsInitializer.committedOffsets(OffsetResetStrategy.EARLIEST))`, so a
 *   job without a checkpoint starts at the group's committed offsets; `latest()` starts at each
 *   partition's end when the job starts — a restart without a checkpoint then reads nothing twice
 *   (https://nightlies.apache.org/flink/flink-docs-stable/docs/connectors/datastream/kafka/#starting-offset);
 * - checkpoint timeout (https://nightlies.apache.org/flink/flink-docs-stable/docs/deployment/config/#execution-checkpointing-timeout):
 *   a checkpoint not complete `execution.checkpointing.timeout` after its trigger expires and
 *   counts as failed; more failures in a row than `execution.checkpointing.tolerable-failed-checkpoints`
 *   fail the job over (CheckpointFailureManager, see {@link JobManager});
 * - Flink's JDBC exactly-once sink (`JdbcSink.exactlyOnceSink`, JdbcXaSinkFunction,
 *   https://github.com/apache/flink-connector-jdbc/blob/main/flink-connector-jdbc/src/main/java/org/apache/flink/connector/jdbc/xa/JdbcXaSinkFunction.java):
 *   an XA transaction per checkpoint, prepared in snapshotState, committed in
 *   notifyCheckpointComplete; on restore the restored prepared ones are committed and the hanging
 *   ones rolled back;
 * - a failed sink statement (its error, or no answer within `statement.timeout.ms` once its
 *   retries are spent) fails the task, which the restart strategy restarts from the last completed
 *   checkpoint — JdbcOutputFormat.flush throws after `maxRetries`, the XA sink's open() and
 *   snapshotState() throw ({@link FlinkTask} `sinkFailed`); a KafkaSink's transactional request
 *   unanswered after `request.timeout.ms` is sent again (`recoverTransactions`);
 * - restarts: `restart-strategy.type` exponential-delay (Flink's defaults, without the jitter
 *   draw), fixed-delay (`restart-strategy.fixed-delay.delay`, at most
 *   `restart-strategy.fixed-delay.attempts` times — 1 by default — then the job fails for good)
 *   or none. Left unset, as Flink: none
 *   when checkpointing is disabled (a failure fails the job for good), exponential-delay when it
 *   is enabled. The delay runs from when the task is back (a TaskManager's downtime comes first)
 *   (https://nightlies.apache.org/flink/flink-docs-stable/docs/ops/state/task_failure_recovery/).
 * Barrier alignment only matters for operators with several inputs; this job has one chain, so
 * EXACTLY_ONCE and AT_LEAST_ONCE checkpointing behave alike here (documented, not simulated).
 */
import { NO_ENTRY, type EntryId, type EventId, type IdentityId } from '../ids';
import { Actor, type PendingWork, type World } from '../world';
import { recordRange } from '../stuck';
import type { Cluster, Topic, TxnRecord } from '../broker/cluster';
import { NO_RECORDS } from '../broker/cluster';
import { ProducerClient, outputClientConfig, type RecordListener } from '../client';
import type { FlinkProcessorConfig, KafkaSinkConfig, Scenario } from '../scenario/schema';
import {
  EXPONENTIAL_DELAY,
  flinkRestartStrategy,
  flinkRestartsAfter,
} from '../scenario/flinkRestart';
import { outputTransactionTimeoutMs } from '../scenario/transactionTimeouts';
import type { SinkActor } from '../sinks/table';
import type { ServiceActor } from '../sinks/effects';
import { writeStatement, xaStatement, type XaAnswer } from '../sinks/writer';
import type { SinkRow } from '../sinks/statement';
import type { RunState } from '../simulate';
import { TXN_API, TXN_REASON_REQUESTED, type ErrorCode } from '../trace';
import { writeRestore } from '../traceWriters';
import { fetchFrom, parkOn, type Fetch } from './fetch';
import { call, invoke, type Call } from '../core/call';
import { reply, type Reply } from '../reply';
import { sinkKey, withSideEffect } from './outputs';
import type { Rec } from './consumer';
import { ttlDedupe } from './streamDedupe';
import { writeCommit, writeDataLoss, writeProcess, writeStreamDedupe } from '../traceWriters';
import {
  JobManager,
  traceCheckpoint,
  type CompletedCheckpoint,
  type PendingCommit,
} from './flinkJobManager';
import { keysHeld, StateTracker } from './flinkState';

/**
 * JdbcExactlyOnceOptions' default maxCommitAttempts: the failed commits of one xid after which
 * XaGroupOpsImpl.commit throws and the task fails.
 * https://github.com/apache/flink-connector-jdbc/blob/main/flink-connector-jdbc/src/main/java/org/apache/flink/connector/jdbc/JdbcExactlyOnceOptions.java
 */
const XA_MAX_COMMIT_ATTEMPTS = 3;

const byEpoch = (a: PendingCommit, b: PendingCommit) => a.epoch - b.epoch;

/** What a barrier snapshots of the task: a checkpoint's content but its pending transactions. */
type BarrierSnapshot = Omit<CompletedCheckpoint, 'pending' | 'triggeredAt' | 'completedAt'>;

/**
 * A barrier whose snapshot waits for the sink (a flush, a PREPARE) before it is acknowledged,
 * held as data: the snapshot, the epoch the barrier closes, and the barrier's entry.
 */
interface BarrierInHand {
  snapshot: BarrierSnapshot;
  epoch: number;
  entry: EntryId;
}

/** The TaskManager running the whole chain (the `flink` crash target). */
export class FlinkTask extends Actor {
  running = false;
  private positions: number[] = [];
  /** Next offset to fetch per partition (ahead of `positions` by what is buffered). */
  private fetchPos: number[] = [];
  /**
   * Per partition, the records fetched and not yet processed: the fetch response's own columns
   * (offsets, events), read from `bufferPos` on. No object per record: at a million records
   * those were a fifth of a run's garbage.
   */
  private bufferOffsets: Int32Array[] = [];
  private bufferEvents: Int32Array[] = [];
  /** Per partition: the next unread index of its buffer. */
  private bufferPos: number[] = [];
  private fetching: boolean[] = [];
  private count: Float64Array;
  private sum: Float64Array;
  /**
   * `processor.dedupe`: the keep-first dedupe's keyed state, identity → when it was written
   * (processing time; its TTL runs from there). Plain data, snapshotted with the checkpoint.
   */
  private dedupeWritten: Record<string, number> = {};
  /** Whether the dedupe dropped the record {@link apply} last took. */
  private dropped = false;
  /** Current epoch: records after barrier epoch-1. */
  private epoch = 1;
  private busy = false;
  private pendingBarrier: { id: number; cause: EntryId } | null = null;
  private sinceBarrier = 0;
  /** EXACTLY_ONCE: producer of each open/pre-committed epoch. */
  private producers = new Map<number, ProducerClient>();
  private pendingCommit: PendingCommit[] = [];
  /**
   * Pending transactions whose commit request is out and not answered yet: still pending in the
   * checkpoints taken meanwhile, as Flink keeps a committable (KafkaSink's CommittableCollector,
   * the XA sink's preparedXids) in its state until its commit has succeeded.
   */
  private committing: PendingCommit[] = [];
  /** AT_LEAST_ONCE / NONE producer. */
  private plain: ProducerClient | null = null;
  /** JDBC exactly-once sink: the XA transaction (xid) of the open epoch, or -1. */
  private xid = -1;
  /**
   * The plain JDBC sink's background flush failed (`sinkFlushDelayMs`): the entry that reported
   * it, thrown by the next write or checkpoint; -1 when none.
   */
  private flushError = NO_ENTRY;
  /** Xids handed out so far: never reused, across restarts too (Flink derives them from the job attempt). */
  private xidSeq = 0;
  private lastAutoCommit = 0;
  stateTracker: StateTracker | null;

  constructor(
    world: World,
    readonly cfg: FlinkProcessorConfig,
    private readonly jm: JobManager,
    private readonly cluster: Cluster,
    private readonly input: Topic,
    private readonly output: Topic | null,
    private readonly sink: SinkActor | null,
    private readonly service: ServiceActor | null,
    private readonly scenario: Scenario,
  ) {
    super(world, 'flink');
    const keys = world.events.keys.length;
    this.count = new Float64Array(keys);
    this.sum = new Float64Array(keys);
    this.stateTracker = new StateTracker(world.events.identities);
    jm.job = this;
  }

  private get kafka(): KafkaSinkConfig | null {
    return this.scenario.sink.type === 'kafka' ? this.scenario.sink : null;
  }

  /** Index of the input topic in the trace's topic table. */
  get inputTopic(): number {
    return this.input.index;
  }

  /**
   * Whether a checkpoint now would hold exactly what the task holds and changes nothing: it runs,
   * nothing was processed since the last barrier or restore, no record is waiting in its buffers
   * or being processed, no barrier is being handled and no sink transaction awaits its commit.
   */
  idleForCheckpoint(): boolean {
    return (
      this.alive &&
      this.running &&
      !this.busy &&
      this.pendingBarrier === null &&
      this.sinceBarrier === 0 &&
      this.flushError < 0 &&
      this.pendingCommit.length === 0 &&
      this.committing.length === 0 &&
      this.nextPartition() < 0
    );
  }

  /** What a checkpoint of the idle task holds (see {@link idleForCheckpoint}). */
  snapshotForIdle(): Omit<CompletedCheckpoint, 'id' | 'triggeredAt' | 'completedAt'> {
    const stateKeys = keysHeld(this.count);
    return {
      positions: [...this.positions],
      count: Float64Array.from(this.count),
      sum: Float64Array.from(this.sum),
      stateKeys,
      ...this.dedupeSnapshot(),
      pending: [],
    };
  }

  /**
   * Checkpoints up to `id` completed while the task was idle (accounted by the JobManager, see
   * {@link JobManager}): its next records belong to epoch id + 1. The open sink transaction (empty)
   * carries over to that epoch — Flink would have opened a new one at each of those barriers.
   */
  idleCheckpoints(id: number): void {
    const old = this.epoch;
    this.epoch = id + 1;
    const c = this.producers.get(old);
    if (c) {
      this.producers.delete(old);
      this.producers.set(this.epoch, c);
    }
    if (this.xid >= 0) this.xidEpochs.set(this.xid, this.epoch);
    this.stateTracker?.checkpointCompleted(id);
  }

  start(): void {
    this.later(Math.max(0, this.cfg.startAtMs - this.world.now), this.restore, NO_ENTRY);
  }

  /** When the latest restore (start or restart) began (ms), or -1 before the first. */
  private restoredAt = -1;

  /**
   * What the task still waits for when the run ends (src/engine/stuck.ts): its start-up, when a
   * restore never got as far as running (its recovery requests never answered: the job is
   * neither running nor failed); the record or barrier in hand; its sink producers'
   * acknowledgements; input records it never processed.
   */
  override pendingWork(): PendingWork[] {
    if (this.restoredAt < 0) return [];
    if (!this.running)
      return [
        {
          what: `the end of its start-up, which waits for ${this.startUpWords()} (until then the job does not run)`,
          since: this.restoredAt,
        },
      ];
    const out: PendingWork[] = [];
    if (this.busy) out.push({ what: 'the end of the record or barrier in hand', since: -1 });
    if (this.xa) out.push(...this.sink!.xaPendingWork());
    // A transactional sink's output waits for a completed checkpoint to commit it.
    const transactional = this.xa || this.kafka?.deliveryGuarantee === 'EXACTLY_ONCE';
    if (transactional && (this.sinceBarrier > 0 || this.pendingCommit.length > 0))
      out.push({
        what: `a completed checkpoint to commit its output (${this.sinceBarrier} record(s) since its last barrier, ${this.pendingCommit.length} pre-committed transaction(s))`,
        since: -1,
      });
    for (const c of [this.plain, ...this.producers.values()]) {
      const p = c?.pendingWork();
      if (p) out.push(p);
    }
    const topic = this.input.name;
    this.input.partitions.forEach((part, p) => {
      const at = this.positions[p] ?? 0;
      if (part.hw > at)
        out.push({
          what: `${recordRange(topic, p, at, part.hw - 1)}, never processed`,
          since: part.appendedAt(at),
        });
    });
    return out;
  }

  /** What a start-up waits for before the job runs, in words. */
  private startUpWords(): string {
    if (this.xa) return 'the answer to its XA recovery statements at the database';
    const k = this.kafka;
    if (!k) return 'its restore';
    if (k.deliveryGuarantee !== 'EXACTLY_ONCE') return "its Kafka producer's InitProducerId answer";
    return 'the answer to its EndTxn request, which commits the restored transactions and aborts lingering ones';
  }

  /** Failures of the job so far (never reset: fixed-delay's attempts count them all). */
  private failures = 0;

  /**
   * A failure of the task. With `restart-strategy.type: none` (Flink's default without
   * checkpointing), or with fixed-delay once its `restart-strategy.fixed-delay.attempts` restarts
   * are used up, the job fails and nothing restarts it, whatever the fault's downtime says
   * ({@link flinkRestartsAfter}).
   */
  override crash(cause: EntryId, faultIndex: number, restartAfterMs: number | null): EntryId {
    if (this.alive) {
      this.noteFailure();
      this.failures++;
    }
    return super.crash(
      cause,
      faultIndex,
      flinkRestartsAfter(this.cfg, this.failures) ? restartAfterMs : null,
    );
  }

  protected override onCrash(cause: EntryId): void {
    this.running = false;
    this.jm.onTaskFailed(cause);
  }

  /** exponential-delay: the backoff of the coming restart (ms), and when the last failure was. */
  private backoffMs = 0;
  private lastFailureAt = 0;

  protected override onRestart(cause: EntryId): void {
    const delay =
      flinkRestartStrategy(this.cfg) === 'exponential-delay'
        ? this.backoffMs
        : this.cfg['restart-strategy.fixed-delay.delay'];
    this.later(delay, this.restore, cause);
  }

  /**
   * A failure, for exponential-delay: the initial backoff for a first failure or one after the
   * job ran `resetThresholdMs` (plus the last backoff) without failing, else the last backoff ×
   * the multiplier, up to the maximum (Flink's ExponentialDelayRestartBackoffTimeStrategy).
   */
  private noteFailure(): void {
    const x = EXPONENTIAL_DELAY;
    const now = this.world.now;
    this.backoffMs =
      this.backoffMs === 0 || now - this.lastFailureAt >= x.resetThresholdMs + this.backoffMs
        ? x.initialBackoffMs
        : Math.min(Math.floor(this.backoffMs * x.multiplier), x.maxBackoffMs);
    this.lastFailureAt = now;
  }

  /** Start (or restart) the job from the latest completed checkpoint, or from the beginning. */
  private restore(cause: EntryId): void {
    const w = this.world;
    this.restoredAt = w.now;
    const cp = this.jm.completed;
    const n = this.input.partitions.length;
    const checkpointing = this.cfg['execution.checkpointing.interval'] !== null;
    if (cp) {
      this.positions = [...cp.positions];
      this.count = Float64Array.from(cp.count);
      this.sum = Float64Array.from(cp.sum);
      this.dedupeWritten = { ...cp.dedupe };
      this.epoch = cp.id + 1;
      this.stateTracker?.restored(cp.id);
    } else {
      // No checkpoint: the source's starting offsets (OffsetsInitializer), resolved now. With
      // checkpointing on, offsets are committed only by completed checkpoints: none yet.
      const coord = this.cluster.coordinator;
      const init = this.cfg.offsetsInitializer;
      this.positions = Array.from({ length: n }, (_, p) =>
        // latest(): the end a consumer can read (ListOffsets LATEST: the high watermark).
        init === 'latest'
          ? this.input.partitions[p]!.hw
          : init === 'earliest' || checkpointing
            ? 0
            : (coord.committed('flink-job', this.input.index, p) ?? 0),
      );
      this.count = new Float64Array(this.count.length);
      this.sum = new Float64Array(this.sum.length);
      this.dedupeWritten = {};
      this.epoch = 1;
      this.stateTracker?.restored(0);
    }
    const e = writeRestore(w.trace, {
      time: w.now,
      actor: this.id,
      cause,
      topic: this.input.index,
      position: this.positions[0] ?? 0,
      ckpt: cp?.id ?? -1,
    });
    this.bufferOffsets = new Array<Int32Array>(n).fill(NO_RECORDS);
    this.bufferEvents = new Array<Int32Array>(n).fill(NO_RECORDS);
    this.bufferPos = new Array<number>(n).fill(0);
    this.fetchPos = [...this.positions];
    this.fetching = new Array<boolean>(n).fill(false);
    this.busy = false;
    this.pendingBarrier = null;
    this.sinceBarrier = 0;
    this.flushError = NO_ENTRY;
    this.lastAutoCommit = w.now;
    this.producers.clear();
    this.plain = null;
    this.pendingCommit = cp ? [...cp.pending] : [];
    this.committing = [];
    if (this.xa) return this.recoverXa(e);
    const k = this.kafka;
    if (!k) return this.beginRunning(e);
    if (k.deliveryGuarantee !== 'EXACTLY_ONCE') {
      this.plain = new ProducerClient(
        this,
        this.cluster,
        this.output!,
        outputClientConfig(null, outputTransactionTimeoutMs(this.scenario), k['linger.ms']),
      );
      this.watchSends(this.plain);
      this.plain.init(e, call(this, this.beginRunning, e));
      return;
    }
    // Commit the restored checkpoint's pending transactions (legacy API: recoverAndCommit; KafkaSink:
    // the Committer re-commits the restored committables), abort the lingering ones, then open the
    // transaction of the new epoch.
    this.recoverTransactions(e);
  }

  /** The restore (entry `e`) is done, its sink ready: the job runs. */
  private beginRunning(e: EntryId): void {
    this.running = true;
    this.jm.onRunning();
    this.loop(e);
  }

  /** Whether the sink is Flink's JDBC exactly-once sink (XA transactions per checkpoint). */
  private get xa(): boolean {
    return this.scenario.sink.type === 'table' && this.scenario.sink.xa;
  }

  /** Start the XA transaction of `epoch` (its first statement opens the branch at the database). */
  private openXa(epoch: number): void {
    const xid = ++this.xidSeq;
    this.xid = xid;
    this.xidEpochs.set(xid, epoch);
  }

  /**
   * One XA call to the sink database (the recovery scan, prepare or commit of `xid`): `atDatabase`
   * runs at the database, `done` gets its {@link XaAnswer} back at the task — the result, or
   * STATEMENT_TIMEOUT when no answer came within the sink's `statement.timeout.ms`
   * ({@link xaStatement}). A crash of the task in between drops the answer; the database has
   * acted all the same.
   */
  private xaCall<T>(
    xid: number,
    cause: EntryId,
    atDatabase: Call<EntryId, void, T>,
    done: Call<XaAnswer<T>>,
  ): void {
    const s = this.scenario.sink;
    const timeoutMs = s.type === 'table' ? s['statement.timeout.ms'] : 0;
    xaStatement(this, this.sink!, xid, timeoutMs, cause, atDatabase, done);
  }

  /**
   * A statement of the sink's failed (its error, or no answer within `statement.timeout.ms`): the
   * exception fails the task, and the restart strategy restarts the job from its last completed
   * checkpoint — the JDBC XA sink's open() or snapshotState() throws, and the plain JDBC sink's
   * JdbcOutputFormat.flush() throws once its `maxRetries` are spent
   * (https://github.com/apache/flink-connector-jdbc/blob/main/flink-connector-jdbc/src/main/java/org/apache/flink/connector/jdbc/internal/JdbcOutputFormat.java,
   * https://nightlies.apache.org/flink/flink-docs-stable/docs/ops/state/task_failure_recovery/).
   * `cause`: the entry that reported the failure (the timeout's 'reject', the 'stmt-error' answer).
   */
  private sinkFailed(cause: EntryId): void {
    // The task fails, the TaskManager does not: the restart strategy's delay is the only wait.
    this.crash(cause, -1, 0);
  }

  /**
   * JdbcXaSinkFunction's recovery (its open(): failOrRollback of the hanging xids,
   * commitUpToCheckpoint of the restored ones; source in the module comment): commit the prepared transactions of the restored checkpoint
   * (an unknown xid, XAER_NOTA, means it was committed before: ignored), then roll back every
   * other transaction of this job — the epoch open at the checkpoint and any prepared since
   * (its hanging xids), so none is left in doubt. Its scan of the database (XA RECOVER) left
   * unanswered, open() throws and the task fails ({@link sinkFailed}); the restart recovers again.
   */
  private recoverXa(cause: EntryId): void {
    const pending = this.pendingCommit;
    this.pendingCommit = [];
    this.xaCall(
      -1,
      cause,
      call(this, this.xaRecoverAtDatabase, pending),
      call(this, this.xaRecovered, cause),
    );
  }

  /** At the database: the recovery of {@link recoverXa}, `pending` the restored prepared xids. */
  private xaRecoverAtDatabase(
    pending: PendingCommit[],
    _b: undefined,
    _c: undefined,
    m: EntryId,
  ): void {
    for (const p of pending) this.commitXa(p.txn, p.epoch, m);
    const sink = this.sink!;
    for (const xid of sink.xaOpen()) {
      // until = when it had been prepared (-1: still open, never prepared).
      const r = sink.xaRollback(xid);
      // The restored checkpoint's own were committed just above: these are later epochs'.
      traceCheckpoint(sink, m, 'aborted', this.epochOfXid(xid), {
        txn: xid,
        count: r.rows,
        until: r.preparedAt,
      });
    }
  }

  /** The recovery's answer: the new epoch's XA transaction opens and the job runs. */
  private xaRecovered(restore: EntryId, _b: undefined, _c: undefined, r: XaAnswer<void>): void {
    if (r.error !== 'NONE') return this.sinkFailed(r.cause);
    this.xid = -1;
    this.openXa(this.epoch);
    this.beginRunning(restore);
  }

  /**
   * At the database: COMMIT PREPARED `xid` (of checkpoint `ckpt`), traced there — its rows appear
   * now, caused by that entry. An xid the database no longer knows (XAER_NOTA) was committed
   * before: returns false.
   */
  private commitXa(xid: number, ckpt: number, cause: EntryId): boolean {
    const sink = this.sink!;
    if (!sink.xaIsPrepared(xid)) return false;
    const e = traceCheckpoint(sink, cause, 'committed', ckpt, { txn: xid });
    sink.xaCommit(xid, e);
    return true;
  }

  /**
   * COMMIT PREPARED of `p` got no answer within `statement.timeout.ms`: pgJDBC reports the
   * connection failure as XAER_RMFAIL, which Flink's XaGroupOpsImpl.commit counts as transient —
   * the xid stays pending (in the next checkpoint too) and is committed again at the next
   * checkpoint's notification, until {@link XA_MAX_COMMIT_ATTEMPTS} attempts have failed; then it
   * throws and the task fails (the restore commits it)
   * (https://github.com/apache/flink-connector-jdbc/blob/main/flink-connector-jdbc/src/main/java/org/apache/flink/connector/jdbc/xa/XaGroupOpsImpl.java,
   * https://github.com/pgjdbc/pgjdbc/blob/master/pgjdbc/src/main/java/org/postgresql/xa/PGXAConnection.java).
   */
  private xaCommitUnanswered(p: PendingCommit, cause: EntryId): void {
    const attempts = (p.attempts ?? 0) + 1;
    if (attempts >= XA_MAX_COMMIT_ATTEMPTS) return this.sinkFailed(cause);
    this.pendingCommit.push({ ...p, attempts });
    this.pendingCommit.sort(byEpoch);
  }

  /** The epoch an xid was opened for (kept across restarts in {@link xidEpochs}), or -1. */
  private epochOfXid(xid: number): number {
    return this.xidEpochs.get(xid) ?? -1;
  }
  /** xid → epoch (checkpoint id) it was opened for, for the history of a rolled-back one. */
  private readonly xidEpochs = new Map<number, number>();

  private tid(epoch: number): string {
    return `${this.kafka!.transactionalIdPrefix}-0-${epoch}`;
  }

  /**
   * KafkaSink's recovery, one request to the transaction coordinator: commit what the restored
   * checkpoint pre-committed (the Committer re-commits the restored committables; idempotent if
   * they were committed already), abort this job's lingering transactions of later epochs (the
   * writer's TransactionAborter, by prefix), then `done`. It goes through a recovery producer
   * (KafkaCommitter's getRecoveryProducer) whose client resends it until it is answered: a request
   * unanswered after `request.timeout.ms` is sent again (`TxnRequest`, src/engine/txnRequest.ts), and the blocked
   * commitTransaction() throws TimeoutException after `max.block.ms`, a RetriableException the
   * KafkaCommitter retries (`request.retryLater()`) — so a lost request or answer delays the job's
   * start, it does not stop it (https://kafka.apache.org/documentation/#producerconfigs_request.timeout.ms,
   * https://kafka.apache.org/documentation/#producerconfigs_max.block.ms,
   * https://github.com/apache/flink-connector-kafka/blob/main/flink-connector-kafka/src/main/java/org/apache/flink/connector/kafka/sink/KafkaCommitter.java).
   */
  private recoverTransactions(cause: EntryId): void {
    const k = this.kafka!;
    const recovery = new ProducerClient(
      this,
      this.cluster,
      this.output!,
      outputClientConfig(null, outputTransactionTimeoutMs(this.scenario), k['linger.ms']),
    );
    recovery.coordinatorRequest(
      TXN_API.EndTxn,
      cause,
      call(this, this.recoverAtCoordinator),
      call(this, this.transactionsRecovered, cause),
    );
  }

  /**
   * At the coordinator, the recovery request of {@link recoverTransactions}: its answer is the
   * entry of a failed commit (the job fails), or NO_ENTRY.
   */
  private recoverAtCoordinator(
    _a: undefined,
    _b: undefined,
    _c: undefined,
    m: EntryId,
  ): { result: EntryId; cause: EntryId } {
    const coord = this.cluster.coordinator;
    const k = this.kafka!;
    // Commit what the restored checkpoint pre-committed (idempotent if it already committed).
    for (const p of this.pendingCommit) {
      const rec = this.cluster.txn(p.txn);
      if (!rec) continue;
      if (rec.state === 'Ongoing') coord.endTxn(rec, true, m, TXN_REASON_REQUESTED);
      else if (rec.state === 'CompleteAbort' || rec.state === 'PrepareAbort')
        this.expired(rec, m, k.ignoreFailuresAfterTransactionTimeout);
    }
    if (
      !k.ignoreFailuresAfterTransactionTimeout &&
      this.pendingCommit.some((p) => this.cluster.txn(p.txn)?.state === 'CompleteAbort')
    )
      // The job fails on recovery and restarts, again and again (docs/semantics/flink.md#expired-transaction): the failure
      // is the commit's, at the coordinator (`failedAt`).
      return { result: m, cause: m };
    this.pendingCommit = [];
    // Abort lingering transactions of this job's later epochs (the KafkaSink aborts by prefix).
    for (const [tid, st] of coord.producers) {
      if (!tid.startsWith(`${k.transactionalIdPrefix}-0-`)) continue;
      if (st.current && st.current.state === 'Ongoing')
        coord.initProducerId(tid, outputTransactionTimeoutMs(this.scenario), m);
    }
    return { result: NO_ENTRY, cause: m };
  }

  /**
   * The recovery's answer (`failedAt`: a failed commit's entry, or NO_ENTRY): the new epoch's
   * transaction opens and the job runs, or the task fails — the TaskManager does not: the
   * restart strategy's delay is the only wait (applied by the task's restart, as after a crash).
   */
  private transactionsRecovered(
    restore: EntryId,
    _b: undefined,
    _c: undefined,
    failedAt: EntryId,
  ): void {
    if (failedAt < 0) this.openEpoch(this.epoch, restore, call(this, this.beginRunning, restore));
    else this.crash(failedAt, -1, 0);
  }

  private expired(rec: TxnRecord, cause: EntryId, ignore: boolean): void {
    const w = this.world;
    if (!ignore) return;
    // KafkaSink's KafkaCommitter logs "Unable to commit transaction … Most likely the transaction
    // has been aborted" and drops the committable (the legacy sink with
    // ignoreFailuresAfterTransactionTimeout() logs a data-loss warning): the records are gone for good.
    writeDataLoss(w.trace, w.now, this.id, cause, -1, -1, -1, -1, -1, rec.no);
  }

  /**
   * A record the sink's producer could not write fails the task, whatever the delivery guarantee:
   * KafkaWriter keeps the send callback's exception and throws it from the mailbox ("One or more
   * Kafka Producer send requests have encountered exception"), so no checkpoint completes over a
   * record that was never written; the job restores the last completed one. A fenced producer
   * (its transaction aborted by the coordinator after transaction.timeout.ms) fails the same way.
   * https://github.com/apache/flink-connector-kafka/blob/main/flink-connector-kafka/src/main/java/org/apache/flink/connector/kafka/sink/KafkaWriter.java
   */
  private watchSends(c: ProducerClient): void {
    c.onRecord = new SendWatch(this, this.incarnation);
  }

  /** Open the transaction of `epoch` (EXACTLY_ONCE): a producer with transactional.id prefix-0-epoch. */
  private openEpoch(epoch: number, cause: EntryId, done: Call): void {
    const k = this.kafka!;
    const c = new ProducerClient(
      this,
      this.cluster,
      this.output!,
      outputClientConfig(
        this.tid(epoch),
        outputTransactionTimeoutMs(this.scenario),
        k['linger.ms'],
      ),
    );
    this.producers.set(epoch, c);
    this.watchSends(c);
    c.init(cause, call(this, this.epochOpened, c, done), call(this, this.initFailed));
  }

  /** The producer `c` of a new epoch is ready: its transaction begins, then `done`. */
  private epochOpened(c: ProducerClient, done: Call): void {
    c.beginTransaction();
    invoke(done, undefined);
  }

  /**
   * The sink writer's initTransactions throws: the task fails, and the restart strategy restarts
   * the job — which fails the same way, again and again.
   */
  private initFailed(
    _a: undefined,
    _b: undefined,
    _c: undefined,
    _err: ErrorCode,
    c2: EntryId,
  ): void {
    this.crash(c2, -1, 0);
  }

  // ------------------------------------------------------------------ processing

  private loop(cause: EntryId): void {
    // Records that take less than a millisecond and whose output needs no answer (a Kafka sink,
    // no side effect) are processed in one step, until a barrier, the end of the buffer, or a
    // whole millisecond of processing time has been spent (then the clock moves on).
    const per = this.cfg.processing.perRecordMs;
    const inline = per < 1 && this.scenario.sink.type === 'kafka' && !this.cfg.sideEffect;
    for (;;) {
      if (!this.running || this.busy || !this.alive) return;
      if (this.pendingBarrier) return this.handleBarrier(cause);
      this.autoCommit(cause);
      const p = this.nextPartition();
      if (p < 0) {
        this.fetchMore(cause);
        return;
      }
      // The first record after an idle spell: the checkpoints of that spell come first.
      if (this.jm.sleeping) {
        this.jm.wake(true);
      }
      const i = this.bufferPos[p]!;
      this.bufferPos[p] = i + 1;
      const offset = this.bufferOffsets[p]![i]!;
      const event = this.bufferEvents[p]![i]! as EventId;
      if (inline) {
        const e = this.apply(p, offset, event, cause);
        if (!this.dropped) this.sendOut(event, e);
        if (this.afterRecord(e)) return;
        this.spent += per;
        if (this.spent >= 1) {
          const wait = Math.floor(this.spent);
          this.spent -= wait;
          this.resumeAfter(wait, e);
          return;
        }
        continue;
      }
      this.processAfter(Math.ceil(per), { partition: p, offset, event }, cause);
      return;
    }
  }

  /** Busy for `wait` ms of processing time, then on with the next records. */
  private resumeAfter(wait: number, cause: EntryId): void {
    this.busy = true;
    this.later(wait, this.resume, cause);
  }

  /** The processing time of {@link resumeAfter} is spent. */
  private resume(cause: EntryId): void {
    this.busy = false;
    this.loop(cause);
  }

  /** Busy processing record `r` for `ms`, then its output. */
  private processAfter(ms: number, r: Rec, cause: EntryId): void {
    this.busy = true;
    this.later(ms, this.process, r, cause);
  }

  /** Processing time spent inline and not yet waited for (ms, < 1). */
  private spent = 0;

  /** The dedupe's state for a checkpoint: a copy (nothing without `processor.dedupe`). */
  private dedupeSnapshot(): { dedupe?: Record<string, number> } {
    return this.cfg.dedupe ? { dedupe: { ...this.dedupeWritten } } : {};
  }

  /**
   * Update the keyed state with a record, unless the dedupe drops it ({@link dropped}); returns
   * its 'process' entry (ckpt = its epoch).
   */
  private apply(partition: number, offset: number, event: EventId, cause: EntryId): EntryId {
    const w = this.world;
    const ev = w.events;
    const key = ev.keyIndex[event]!;
    // The dedupe comes first: a record it drops reaches neither the keyed count nor the sink.
    const d = this.cfg.dedupe;
    const ttl = d ? d['table.exec.state.ttl'] : 0;
    const id = ev.identity[event]! as IdentityId;
    this.dropped = d !== undefined && ttlDedupe(this.dedupeWritten, id, w.now, ttl) === 'duplicate';
    if (!this.dropped) {
      this.count[key]!++;
      this.sum[key]! += ev.amount[event]!;
    }
    this.positions[partition] = offset + 1;
    this.sinceBarrier++;
    // For the keyed state: count = the key's running count after this record, aux = the key.
    const e = writeProcess(
      w.trace,
      w.now,
      this.id,
      cause,
      event,
      this.input.index,
      partition,
      offset,
      this.count[key]!,
      key,
    );
    w.trace.ckpt[e] = this.epoch;
    if (!this.dropped) {
      this.stateTracker?.counted(this.epoch, id);
      return e;
    }
    writeStreamDedupe(
      w.trace,
      w.now,
      this.id,
      e,
      event,
      this.input.index,
      partition,
      offset,
      0,
      // When the key's state expires (-1: never, table.exec.state.ttl = 0).
      ttl === 0 ? -1 : this.dedupeWritten[id]! + ttl,
    );
    return e;
  }

  /** The crash points after a record; true if the task died. */
  private afterRecord(cause: EntryId): boolean {
    const w = this.world;
    if (w.faults.crashPoint(this, 'flink', 'mid-batch', cause, this.sinceBarrier)) return true;
    return w.faults.processedRecords(this, 'flink', 1, cause);
  }

  /** Hand a record's output to the Kafka sink's producer (the current epoch's transaction). */
  private sendOut(event: EventId, cause: EntryId): void {
    const s = this.kafka!;
    const client =
      s.deliveryGuarantee === 'EXACTLY_ONCE' ? this.producers.get(this.epoch) : this.plain;
    client?.send(event, cause);
  }

  /** The first partition with unread records (the order shift() on each buffer gave), or -1. */
  private nextPartition(): number {
    const pos = this.bufferPos;
    const offs = this.bufferOffsets;
    for (let p = 0; p < pos.length; p++) if (pos[p]! < offs[p]!.length) return p;
    return -1;
  }

  private fetchMore(cause: EntryId): void {
    const n = this.input.partitions.length;
    for (let p = 0; p < n; p++) {
      if (this.fetching[p] || this.bufferPos[p]! < this.bufferOffsets[p]!.length) continue;
      this.fetching[p] = true;
      const from = this.fetchPos[p]!;
      const done = call(this, this.fetched, this.incarnation);
      fetchFrom(this, this.cluster, this.input, p, from, 500, false, cause, done);
    }
  }

  /** A fetch of incarnation `inc` is answered: its records are buffered, or the source parks. */
  private fetched(inc: number, _b: undefined, _c: undefined, f: Fetch): void {
    const p = f.partition;
    const from = f.offset;
    const r = f.result!;
    const c = f.answer;
    if (this.incarnation !== inc) return;
    this.fetching[p] = false;
    if (this.fetchPos[p] !== from || !this.running) return;
    // The buffer is empty here (fetchMore asks only for empty ones): it becomes the response.
    this.bufferOffsets[p] = r.offsets;
    this.bufferEvents[p] = r.events;
    this.bufferPos[p] = 0;
    this.fetchPos[p] = r.next;
    if (r.offsets.length === 0) this.positions[p] = r.next;
    if (r.offsets.length === 0 && r.next === from) {
      // Caught up: fetch again when the partition moves.
      this.fetching[p] = true;
      parkOn(this, this.input.partitions[p]!, from, false, call(this, this.unparked, p, c));
      return;
    }
    this.loop(c);
  }

  /** Partition `p`, which the source caught up with, has moved: fetch again. */
  private unparked(p: number, cause: EntryId): void {
    this.fetching[p] = false;
    this.loop(cause);
  }

  /** Without checkpointing and with enable.auto.commit set, the consumer's auto-commit exposes (and restarts from) the position. */
  private autoCommit(cause: EntryId): void {
    // KafkaSource turns the consumer's auto-commit off unless the job sets it (see the schema).
    if (this.cfg['execution.checkpointing.interval'] !== null || !this.cfg['enable.auto.commit'])
      return;
    const w = this.world;
    if (w.now - this.lastAutoCommit < 5000) return;
    this.lastAutoCommit = w.now;
    this.commitOffsets(cause);
  }

  /**
   * Commit offsets to the group `flink-job`: on a completed checkpoint its positions; by the
   * auto-commit (no checkpointing) the consumer's fetch position, which runs ahead of processing.
   */
  private commitOffsets(
    cause: EntryId,
    positions: number[] = this.cfg['execution.checkpointing.interval'] === null
      ? [...this.fetchPos]
      : [...this.positions],
  ): void {
    const carry = { topic: this.input.index, partition: 0, offset: positions[0] };
    const arrives = call(this, this.offsetsArrive, positions);
    this.world.send(this, this.cluster.coordinator, 'commit', cause, carry, arrives);
  }

  /** The offset commit of {@link commitOffsets} reaches the coordinator, which stores it. */
  private offsetsArrive(positions: number[], _b: undefined, _c: undefined, m: EntryId): void {
    const w = this.world;
    const coord = this.cluster.coordinator;
    positions.forEach((o, p) => {
      coord.storeOffset('flink-job', this.input.index, p, o);
      writeCommit(w.trace, w.now, coord.id, m, this.input.index, p, o, -1, this.id);
    });
  }

  private process(r: Rec, cause: EntryId): void {
    const e = this.apply(r.partition, r.offset, r.event, cause);
    if (this.dropped) {
      this.busy = false;
      if (this.afterRecord(e)) return;
      return this.loop(e);
    }
    withSideEffect(
      this,
      this.service,
      this.cfg.sideEffect,
      this.input.index,
      r,
      e,
      reply(this, this.sideEffected, r),
    );
  }

  /** The record's side effect is done (or failed: its output is emitted all the same). */
  private sideEffected(r: Rec, _b: undefined, _c: undefined, _err: ErrorCode, c: EntryId): void {
    this.emit(r, c);
  }

  /** Write the record's output to the sink. */
  private emit(r: Rec, cause: EntryId): void {
    const w = this.world;
    const s = this.scenario.sink;
    if (s.type === 'table') {
      const row = {
        event: r.event,
        key: sinkKey(w, s.key, this.input.index, r),
        topic: this.input.index,
        partition: r.partition,
        offset: r.offset,
        cause,
      };
      if (s.xa) {
        // In the epoch's XA transaction. A failed write (maxRetries is 0) throws in the sink
        // writer: the task fails and the job restarts from its last completed checkpoint.
        writeStatement(
          this,
          this.sink!,
          { rows: [row], batchId: -1, xid: this.xid },
          { timeoutMs: s['statement.timeout.ms'], retries: 0, retryDelayMs: 0 },
          cause,
          reply(this, this.rowWritten),
        );
        return;
      }
      if (this.cfg.sinkFlushDelayMs > 0) {
        // The sink buffers and flushes later: a crash before the flush loses the write (A7). A
        // failed background flush is kept and thrown by the next write or checkpoint
        // (JdbcOutputFormat.checkFlushException).
        if (this.flushError >= 0) return this.sinkFailed(this.flushError);
        this.later(this.cfg.sinkFlushDelayMs, this.flushRow, row, reply(this, this.flushedLater));
        this.recordDone(cause);
      } else this.flushRow(row, reply(this, this.rowWritten));
      return;
    }
    if (s.type === 'kafka') {
      this.sendOut(r.event, cause);
      this.recordDone(cause);
      return;
    }
    this.recordDone(cause);
  }

  /** The record's output is written (or handed over): on with the next records. */
  private recordDone(cause: EntryId): void {
    this.busy = false;
    if (this.afterRecord(cause)) return;
    this.loop(cause);
  }

  /**
   * JdbcOutputFormat.flush() of one row: the statement, retried `retries` times (its maxRetries);
   * then it throws and the task fails (sinkFailed).
   */
  private flushRow(row: SinkRow, done: Reply): void {
    const s = this.scenario.sink;
    if (s.type !== 'table') return;
    writeStatement(
      this,
      this.sink!,
      { rows: [row], batchId: -1 },
      { timeoutMs: s['statement.timeout.ms'], retries: s.retries, retryDelayMs: 0 },
      row.cause,
      done,
    );
  }

  /** A row's statement is answered, the task waiting: a failure fails the task. */
  private rowWritten(
    _a: undefined,
    _b: undefined,
    _c: undefined,
    err: ErrorCode,
    c: EntryId,
  ): void {
    if (err === 'NONE') this.recordDone(c);
    else this.sinkFailed(c);
  }

  /** A background flush is answered: its failure is kept, thrown by the next write or checkpoint. */
  private flushedLater(
    _a: undefined,
    _b: undefined,
    _c: undefined,
    err: ErrorCode,
    c: EntryId,
  ): void {
    if (err === 'NONE' || this.flushError >= 0) return;
    this.flushError = c;
    // The task is no longer idle: the next checkpoint is a real one, and throws.
    this.jm.wake(false);
  }

  // ------------------------------------------------------------------ checkpoints

  /** A barrier message arrives (see {@link onBarrier}). */
  barrierArrives(id: number, _b: undefined, _c: undefined, m: EntryId): void {
    this.onBarrier(id, m);
  }

  /** A checkpoint-complete notification arrives (see {@link onCheckpointComplete}). */
  notifyArrives(id: number, _b: undefined, _c: undefined, m: EntryId): void {
    this.onCheckpointComplete(id, m);
  }

  onBarrier(id: number, cause: EntryId): void {
    this.pendingBarrier = { id, cause };
    this.loop(cause);
  }

  /** Barrier n reached the end of the chain (between records): snapshot, pre-commit, acknowledge. */
  private handleBarrier(cause: EntryId): void {
    const w = this.world;
    const b = this.pendingBarrier!;
    this.pendingBarrier = null;
    if (w.faults.crashPoint(this, 'flink', 'before-barrier', cause)) return;
    // snapshotState flushes the plain JDBC sink: a failed background flush throws there.
    if (this.flushError >= 0) return this.sinkFailed(this.flushError);
    const stateKeys = keysHeld(this.count);
    const e = traceCheckpoint(this, b.cause, 'barrier', b.id, {
      topic: this.input.index,
      partition: 0,
      offset: this.positions[0] ?? -1,
      count: stateKeys,
    });
    // The snapshot's offset for every input partition (the barrier entry names partition 0's).
    for (let p = 0; p < this.positions.length; p++)
      traceCheckpoint(this, e, 'source-position', b.id, {
        topic: this.input.index,
        partition: p,
        offset: this.positions[p]!,
      });
    const snapshot: BarrierSnapshot = {
      id: b.id,
      positions: [...this.positions],
      count: Float64Array.from(this.count),
      sum: Float64Array.from(this.sum),
      stateKeys,
      ...this.dedupeSnapshot(),
    };
    this.sinceBarrier = 0;
    const bar: BarrierInHand = { snapshot, epoch: this.epoch, entry: e };
    this.busy = true;
    if (this.xa) {
      // snapshotState: end and prepare this epoch's XA transaction (PREPARE TRANSACTION), keep it
      // pending for checkpoint id, begin the next. An empty one is skipped, as Flink does.
      const xid = this.xid;
      const prepare = call(this, this.xaPrepareAtDatabase, xid, b.id);
      this.xaCall(xid, e, prepare, call(this, this.xaPrepared, bar, xid));
      return;
    }
    const k = this.kafka;
    if (k?.deliveryGuarantee === 'EXACTLY_ONCE') {
      // Pre-commit (legacy preCommit; KafkaSink: the writer's prepareCommit): flush this epoch's
      // transaction, keep it pending for checkpoint id, open the next.
      const client = this.producers.get(bar.epoch)!;
      client.flush(call(this, this.preCommitted, bar, client));
      return;
    }
    this.epoch = b.id + 1;
    if (k?.deliveryGuarantee === 'AT_LEAST_ONCE') {
      // Wait for every outstanding record to be acknowledged before acknowledging the checkpoint.
      this.plain!.flush(call(this, this.ackBarrier, snapshot, [], e));
      return;
    }
    this.ackBarrier(snapshot, [], e);
  }

  /**
   * At the database: PREPARE TRANSACTION `xid` for checkpoint `ckpt`, traced there — a prepared
   * transaction exists from now on, whether or not the task lives to hear of it (restore then
   * rolls it back). Returns its 'pre-committed' entry, or -1 for an empty one (not prepared).
   */
  private xaPrepareAtDatabase(xid: number, ckpt: number, _c: undefined, m: EntryId): EntryId {
    const rows = this.sink!.xaPrepare(xid);
    return rows > 0
      ? traceCheckpoint(this.sink!, m, 'pre-committed', ckpt, { txn: xid, count: rows })
      : NO_ENTRY;
  }

  /** The answer to PREPARE of `xid`, for barrier `bar`: keep it pending, open the next epoch, acknowledge. */
  private xaPrepared(bar: BarrierInHand, xid: number, _c: undefined, r: XaAnswer<EntryId>): void {
    // No answer to PREPARE: snapshotState throws, the checkpoint is declined and the task
    // fails; the restore rolls the transaction back, prepared or not.
    if (r.error !== 'NONE') return this.sinkFailed(r.cause);
    this.xid = -1;
    if (r.result! >= 0)
      this.pendingCommit.push({ epoch: bar.epoch, transactionalId: `xid ${xid}`, txn: xid });
    const pending = this.pendingForSnapshot();
    this.epoch = bar.snapshot.id + 1;
    this.openXa(this.epoch);
    this.ackBarrier(bar.snapshot, pending, r.cause);
  }

  /** Barrier `bar`'s epoch, on `client`, is flushed: pre-committed; the next epoch opens, then the ack. */
  private preCommitted(bar: BarrierInHand, client: ProducerClient): void {
    const { snapshot, epoch } = bar;
    const txn = client.txn;
    const pe = traceCheckpoint(this, bar.entry, 'pre-committed', snapshot.id, {
      txn: txn?.no ?? -1,
    });
    // The producer's own transactional.id (one carried over idle checkpoints keeps its name).
    const tid = client.cfg.transactionalId ?? this.tid(epoch);
    if (txn) this.pendingCommit.push({ epoch, transactionalId: tid, txn: txn.no });
    const pending = this.pendingForSnapshot();
    this.epoch = snapshot.id + 1;
    this.openEpoch(this.epoch, pe, call(this, this.ackBarrier, snapshot, pending, pe));
  }

  /** Acknowledge the checkpoint of `snapshot` (with its `pending` transactions) to the JobManager. */
  private ackBarrier(snapshot: BarrierSnapshot, pending: PendingCommit[], c: EntryId): void {
    const w = this.world;
    this.busy = false;
    if (w.faults.crashPoint(this, 'flink', 'after-precommit', c)) return;
    const jm = this.jm;
    w.send(this, jm, 'checkpoint-ack', c, {}, call(jm, jm.ackArrives, { ...snapshot, pending }));
    this.loop(c);
  }

  /** The pending transactions a checkpoint taken now holds: those waiting for or in their commit. */
  private pendingForSnapshot(): PendingCommit[] {
    if (this.committing.length === 0) return [...this.pendingCommit];
    return [...this.pendingCommit, ...this.committing].sort(byEpoch);
  }

  /** The commit of `p` was answered (or given up): no longer in flight. */
  private committed(p: PendingCommit): void {
    this.committing = this.committing.filter((x) => x !== p);
  }

  /** notifyCheckpointComplete(n): commit the pending transactions of epochs ≤ n; expose offsets. */
  onCheckpointComplete(id: number, cause: EntryId): void {
    const w = this.world;
    if (w.faults.crashPoint(this, 'flink', 'after-checkpoint', cause)) return;
    const cp = this.jm.completed;
    if (cp && cp.id === id) this.commitOffsets(cause, [...cp.positions]);
    const due = this.pendingCommit.filter((p) => p.epoch <= id);
    this.pendingCommit = this.pendingCommit.filter((p) => p.epoch > id);
    if (this.xa) {
      // COMMIT PREPARED, in order; the crash point 'during-commit' falls after the request left.
      for (const p of due) {
        this.committing.push(p);
        const commit = call(this, this.xaCommitAtDatabase, p.txn, id);
        this.xaCall(p.txn, cause, commit, call(this, this.xaCommitAnswered, p));
        if (w.faults.crashPoint(this, 'flink', 'during-commit', cause)) return;
      }
      return;
    }
    for (const p of due) {
      const client = this.producers.get(p.epoch);
      if (!client) continue;
      this.crashedDuringCommit = false;
      this.committing.push(p);
      const done = call(this, this.epochCommitted, p, id);
      client.endTransaction(true, cause, done, { afterSent: call(this, this.commitSent) });
      if (this.crashedDuringCommit) return;
    }
  }

  /** At the database: COMMIT PREPARED `xid` of checkpoint `ckpt` ({@link commitXa}). */
  private xaCommitAtDatabase(xid: number, ckpt: number, _c: undefined, m: EntryId): boolean {
    return this.commitXa(xid, ckpt, m);
  }

  /** The answer to COMMIT PREPARED of `p`. */
  private xaCommitAnswered(
    p: PendingCommit,
    _b: undefined,
    _c: undefined,
    r: XaAnswer<boolean>,
  ): void {
    this.committed(p);
    if (r.error !== 'NONE') this.xaCommitUnanswered(p, r.cause);
    // A retried COMMIT PREPARED whose first attempt had committed: XAER_NOTA, which only a
    // restored xid may ignore — the task fails, and the restore finds nothing to do.
    else if (!r.result) this.sinkFailed(r.cause);
  }

  /**
   * Whether the crash point 'during-commit' fired when the EndTxn request of the commit in hand
   * left ({@link commitSent}): the commits after it are not sent.
   */
  private crashedDuringCommit = false;

  /** The EndTxn request of an epoch's commit left (request entry `c`): the crash point 'during-commit'. */
  private commitSent(_a: undefined, _b: undefined, _c: undefined, c: EntryId): void {
    this.crashedDuringCommit = this.world.faults.crashPoint(this, 'flink', 'during-commit', c);
  }

  /** The commit of `p` (checkpoint `id`) is answered: committed, or expired. */
  private epochCommitted(
    p: PendingCommit,
    id: number,
    _c: undefined,
    committed: boolean,
    c: EntryId,
  ): void {
    this.committed(p);
    this.producers.delete(p.epoch);
    traceCheckpoint(this, c, committed ? 'committed' : 'expired', id, { txn: p.txn });
  }
}

/** Assemble the Flink job of a scenario. */
export function buildFlink(
  w: World,
  s: Scenario,
  p: FlinkProcessorConfig,
  cluster: Cluster,
  input: Topic,
  output: Topic | null,
  sink: SinkActor | null,
  service: ServiceActor | null,
  state: RunState,
): FlinkTask {
  const jm = new JobManager(w, p);
  const task = new FlinkTask(w, p, jm, cluster, input, output, sink, service, s);
  state.state = {
    count: new Float64Array(0),
    sum: new Float64Array(0),
    contributions: task.stateTracker!.contributions,
  };
  state.jobManager = jm;
  task.start();
  return task;
}

/** Fails the task of incarnation `inc` on a record its sink's producer could not write (data). */
class SendWatch implements RecordListener {
  constructor(
    private readonly task: Actor,
    private readonly inc: number,
  ) {}

  recordSettled(_event: EventId, _send: EntryId, ok: boolean, _e: ErrorCode, cause: EntryId): void {
    const t = this.task;
    if (!ok && t.alive && t.incarnation === this.inc) t.crash(cause, -1, 0);
  }
}
