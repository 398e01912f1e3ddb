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
 *
 * The task is one class in layers, a file each: its state (flinkTaskState.ts), restore and
 * restarts (flinkRestore.ts), the JDBC XA sink (flinkXa.ts), KafkaSink's two-phase commit
 * (flinkTwoPhase.ts), checkpoints (flinkCheckpoint.ts) and, here, processing; the JobManager is
 * flinkJobManager.ts.
 */
import type { EntryId, EventId, IdentityId } from '../ids';
import type { World } from '../world';
import type { Cluster, Topic } from '../broker/cluster';
import type { FlinkProcessorConfig, Scenario } from '../scenario/schema';
import type { SinkActor } from '../sinks/table';
import type { ServiceActor } from '../sinks/effects';
import { writeStatement } from '../sinks/writer';
import type { SinkRow } from '../sinks/statement';
import type { RunState } from '../simulate';
import type { ErrorCode } from '../trace';
import { fetchFrom, parkOn, type Fetch } from './fetch';
import { call } from '../core/call';
import { reply, type Reply } from '../reply';
import { sinkKey, withSideEffect } from './outputs';
import type { Rec } from './consumer';
import { ttlDedupe } from './streamDedupe';
import { writeProcess, writeStreamDedupe } from '../traceWriters';
import { JobManager } from './flinkJobManager';
import { FlinkCheckpoint } from './flinkCheckpoint';

/** The TaskManager running the whole chain (the `flink` crash target). */
export class FlinkTask extends FlinkCheckpoint {
  protected loop(cause: EntryId): void {
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
  protected resumeAfter(wait: number, cause: EntryId): void {
    this.busy = true;
    this.later(wait, this.resume, cause);
  }

  /** The processing time of {@link resumeAfter} is spent. */
  protected resume(cause: EntryId): void {
    this.busy = false;
    this.loop(cause);
  }

  /** Busy processing record `r` for `ms`, then its output. */
  protected processAfter(ms: number, r: Rec, cause: EntryId): void {
    this.busy = true;
    this.later(ms, this.process, r, cause);
  }

  /** Processing time spent inline and not yet waited for (ms, < 1). */
  protected spent = 0;

  /**
   * Update the keyed state with a record, unless the dedupe drops it ({@link dropped}); returns
   * its 'process' entry (ckpt = its epoch).
   */
  protected apply(partition: number, offset: number, event: EventId, cause: EntryId): EntryId {
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
      ttl === 0 ? -1 : this.dedupeWritten.get(id)! + ttl,
    );
    return e;
  }

  /** The crash points after a record; true if the task died. */
  protected afterRecord(cause: EntryId): boolean {
    const w = this.world;
    if (w.faults.crashPoint(this, 'flink', 'mid-batch', cause, this.sinceBarrier)) return true;
    return w.faults.processedRecords(this, 'flink', 1, cause);
  }

  /** Hand a record's output to the Kafka sink's producer (the current epoch's transaction). */
  protected sendOut(event: EventId, cause: EntryId): void {
    const s = this.kafka!;
    const client =
      s.deliveryGuarantee === 'EXACTLY_ONCE' ? this.producers.get(this.epoch) : this.plain;
    client?.send(event, cause);
  }

  protected fetchMore(cause: EntryId): void {
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
  protected fetched(inc: number, _b: undefined, _c: undefined, f: Fetch): void {
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
  protected unparked(p: number, cause: EntryId): void {
    this.fetching[p] = false;
    this.loop(cause);
  }

  protected process(r: Rec, cause: EntryId): void {
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
  protected sideEffected(r: Rec, _b: undefined, _c: undefined, _err: ErrorCode, c: EntryId): void {
    this.emit(r, c);
  }

  /** Write the record's output to the sink. */
  protected emit(r: Rec, cause: EntryId): void {
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
  protected recordDone(cause: EntryId): void {
    this.busy = false;
    if (this.afterRecord(cause)) return;
    this.loop(cause);
  }

  /**
   * JdbcOutputFormat.flush() of one row: the statement, retried `retries` times (its maxRetries);
   * then it throws and the task fails (sinkFailed).
   */
  protected flushRow(row: SinkRow, done: Reply): void {
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
  protected rowWritten(
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
  protected flushedLater(
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
  jm.job = task;
  state.state = {
    count: new Float64Array(0),
    sum: new Float64Array(0),
    contributions: task.stateTracker!.contributions,
  };
  state.jobManager = jm;
  task.start();
  return task;
}
