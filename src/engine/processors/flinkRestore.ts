/**
 * The Flink task's start, failures and restarts: a restore from the latest completed checkpoint
 * (or the source's starting offsets), the restart strategy's delays, and a failed sink statement
 * failing the task (https://nightlies.apache.org/flink/flink-docs-stable/docs/ops/state/task_failure_recovery/,
 * https://nightlies.apache.org/flink/flink-docs-stable/docs/concepts/stateful-stream-processing/).
 */
import { NO_ENTRY, type EntryId } from '../ids';
import { NO_RECORDS } from '../broker/cluster';
import { LIST_OFFSETS_RETRY_BACKOFF_MS, latestOffsetsRefused } from '../broker/listOffsets';
import { ProducerClient, outputClientConfig } from '../client';
import {
  EXPONENTIAL_DELAY,
  flinkRestartStrategy,
  flinkRestartsAfter,
} from '../scenario/flinkRestart';
import { outputTransactionTimeoutMs } from '../scenario/transactionTimeouts';
import { writeRestore } from '../traceWriters';
import { call } from '../core/call';
import { FlinkTaskState } from './flinkTaskState';
import { restoreColumn } from './flinkState';

/** Start, failures and restarts of the task. */
export abstract class FlinkRestore extends FlinkTaskState {
  start(): void {
    this.later(Math.max(0, this.cfg.startAtMs - this.world.now), this.restore, NO_ENTRY);
  }

  /** Failures of the job so far (never reset: fixed-delay's attempts count them all). */
  protected failures = 0;

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
  protected backoffMs = 0;

  protected lastFailureAt = 0;

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
  protected noteFailure(): void {
    const x = EXPONENTIAL_DELAY;
    const now = this.world.now;
    this.backoffMs =
      this.backoffMs === 0 || now - this.lastFailureAt >= x.resetThresholdMs + this.backoffMs
        ? x.initialBackoffMs
        : Math.min(Math.floor(this.backoffMs * x.multiplier), x.maxBackoffMs);
    this.lastFailureAt = now;
  }

  /** Start (or restart) the job from the latest completed checkpoint, or from the beginning. */
  protected restore(cause: EntryId): void {
    const w = this.world;
    const cp = this.jm.completed;
    // latest() asks each partition's leader for its latest offset, and retries a lookup a new
    // leader cannot answer yet (OFFSET_NOT_AVAILABLE, src/engine/broker/listOffsets.ts).
    if (!cp && this.cfg.offsetsInitializer === 'latest') {
      const refused = latestOffsetsRefused(this, this.cluster, this.input, cause);
      if (refused !== null) {
        this.later(LIST_OFFSETS_RETRY_BACKOFF_MS, this.restore, refused);
        return;
      }
    }
    this.restoredAt = w.now;
    const n = this.input.partitions.length;
    const checkpointing = this.cfg['execution.checkpointing.interval'] !== null;
    if (cp) {
      this.positions = [...cp.positions];
      restoreColumn(this.count, cp.count);
      restoreColumn(this.sum, cp.sum);
      this.dedupeWritten = new Map(cp.dedupe);
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
      this.count.fill(0);
      this.sum.fill(0);
      this.dedupeWritten = new Map();
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
  protected beginRunning(e: EntryId): void {
    this.running = true;
    this.jm.onRunning();
    this.loop(e);
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
  protected sinkFailed(cause: EntryId): void {
    // The task fails, the TaskManager does not: the restart strategy's delay is the only wait.
    this.crash(cause, -1, 0);
  }

  /** The JDBC XA sink's recovery, then the job runs (flinkXa.ts). */
  protected abstract recoverXa(cause: EntryId): void;

  /** KafkaSink's recovery, then the job runs (flinkTwoPhase.ts). */
  protected abstract recoverTransactions(cause: EntryId): void;

  /** Fail the task on a record its sink's producer could not write (flinkTwoPhase.ts). */
  protected abstract watchSends(c: ProducerClient): void;
}
