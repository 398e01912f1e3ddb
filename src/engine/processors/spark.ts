/**
 * A Spark Structured Streaming query (actor `spark`) reading Kafka in micro-batches and writing
 * with `foreachBatch` (a SQL table, a Delta table, calls to an external service) or a built-in
 * sink (file, Kafka).
 *
 * The order of work per batch N and the restart rule follow Spark's MicroBatchExecution
 * (https://github.com/apache/spark/blob/v3.3.0/sql/core/src/main/scala/org/apache/spark/sql/execution/streaming/MicroBatchExecution.scala):
 * the offset range of batch N is written to the offset log before the batch runs; the sink gets
 * `addBatch(N, data)`; then `commits/N` is written. On restart, if the latest offset-log entry has
 * no commit, batch N runs again
 * with the same offset range and the same batch id (docs/semantics/spark.md#batch-re-execution). "By default, foreachBatch provides only at-least-once write guarantees. However, you can
 * use the batchId provided to the function as way to deduplicate the output"
 * (https://spark.apache.org/docs/latest/streaming/apis-on-dataframes-and-datasets.html#using-foreach-and-foreachbatch).
 * Deleting the checkpoint location starts over from `startingOffsets` with batch ids from 0
 * (https://docs.delta.io/latest/delta-streaming.html#idempotent-table-writes-in-foreachbatch warns
 * that writes are then skipped under the same txnAppId). A trigger with no new data runs no batch.
 *
 * Trigger timing (`trigger(processingTime=…)`), as the programming guide's triggers table says:
 * "If the previous micro-batch completes within the interval, then the engine will wait until the
 * interval is over before kicking off the next micro-batch. If the previous micro-batch takes
 * longer than the interval to complete (i.e. if an interval boundary is missed), then the next
 * micro-batch will start as soon as the previous one completes (i.e., it will not wait for the
 * next interval boundary). If no new data is available, then no micro-batch will be kicked off."
 * (https://spark.apache.org/docs/latest/streaming/apis-on-dataframes-and-datasets.html#triggers).
 * ProcessingTimeExecutor takes the next trigger time from the trigger's start, before the batch
 * runs: `nextBatchTime(triggerTimeMs)` = ⌊T / interval⌋ · interval + interval, then
 * `waitTillTime` it — a time already past returns at once
 * (https://github.com/apache/spark/blob/master/sql/core/src/main/scala/org/apache/spark/sql/execution/streaming/TriggerExecutor.scala;
 * before SPARK-20209, Spark 2.1, it was taken from the batch's end instead).
 *
 * The built-in Kafka sink writes each batch's rows with a plain (idempotent, non-transactional)
 * producer and flushes before the commit log: "Yes (at-least-once)", a batch re-run after a crash
 * writes its records again
 * (https://spark.apache.org/docs/latest/streaming/apis-on-dataframes-and-datasets.html#output-sinks).
 */
import { NO_ENTRY, type EntryId, type EventId } from '../ids';
import type { ErrorCode } from '../trace';
import { Actor, type PendingWork, type World } from '../world';
import { recordRange } from '../stuck';
import type { Cluster, Topic } from '../broker/cluster';
import { LIST_OFFSETS_RETRY_BACKOFF_MS, latestOffsetsRefused } from '../broker/listOffsets';
import type { Scenario, SparkProcessorConfig } from '../scenario/schema';
import type { SinkActor } from '../sinks/table';
import type { ServiceActor } from '../sinks/effects';
import { fetchFrom, parkOn, type Fetch } from './fetch';
import { call } from '../core/call';
import { reply } from '../reply';
import { sinkKey, withSideEffect } from './outputs';
import type { Rec } from './consumer';
import { rateLimit, startBatchRun, type BatchRun, type PlannedBatch } from './sparkBatch';
import { SparkSink } from './sparkWrite';
import {
  emptyWatermarkState,
  nextWatermark,
  sparkDedupe,
  type WatermarkDedupeState,
} from './streamDedupe';
import {
  writeBatchCommitted,
  writeBatchPlanned,
  writeProcess,
  writeRestore,
  writeStreamDedupe,
} from '../traceWriters';

export type { PlannedBatch } from './sparkBatch';

/** The query process. Its checkpoint location (offset and commit logs) is durable. */
export class SparkQuery extends Actor {
  /** offsets/N — durable. */
  readonly offsetLog = new Map<number, PlannedBatch>();
  /** commits/N — durable. */
  readonly commitLog = new Set<number>();
  /** Every batch ever planned (for the views), in order. */
  readonly history: (PlannedBatch & { attempt: number; committedAt: number })[] = [];
  private running = false;
  private waiting = false;
  /**
   * Where a query with an empty checkpoint starts: `startingOffsets`, resolved at its first start
   * and kept in the checkpoint (the Kafka source's `sources/0/0`), so a restart reads from there
   * again rather than from a new "latest" — "This only applies when a new query is started, and
   * that resuming will always pick up from where the query left off"
   * (https://spark.apache.org/docs/latest/streaming/structured-streaming-kafka-integration.html;
   * KafkaMicroBatchStream.getOrCreateInitialPartitionOffsets: "Read initial partition offsets
   * from the checkpoint, or decide the offsets and write them to the checkpoint",
   * https://github.com/apache/spark/blob/master/connector/kafka-0-10-sql/src/main/scala/org/apache/spark/sql/kafka010/KafkaMicroBatchStream.scala).
   * Null until resolved, and again once the checkpoint location is deleted. Durable.
   */
  private initialStart: number[] | null = null;
  /** When the trigger that runs the current batch fired (ms): the next one is due one interval on. */
  private triggeredAt = 0;
  /**
   * The dedupe's state store as of the last committed batch (`processor.dedupe`): durable in the
   * checkpoint location; a re-executed batch starts again from it.
   */
  private dedupeState: WatermarkDedupeState = emptyWatermarkState();

  constructor(
    world: World,
    readonly cfg: SparkProcessorConfig,
    private readonly cluster: Cluster,
    private readonly input: Topic,
    sink: SinkActor | null,
    private readonly service: ServiceActor | null,
    private readonly scenario: Scenario,
    /** The Kafka sink's topic, when the query writes to Kafka. */
    output: Topic | null = null,
  ) {
    super(world, 'spark');
    this.out = new SparkSink(this, cluster, sink, service, scenario, output);
  }

  /** Where the batches go (./sparkWrite.ts). */
  private readonly out: SparkSink;

  start(): void {
    this.later(Math.max(0, this.cfg.startAtMs - this.world.now), this.resume, NO_ENTRY);
  }

  protected override onRestart(cause: EntryId): void {
    this.resume(cause);
  }

  /**
   * What the query still waits for when the run ends (src/engine/stuck.ts): the end of the batch
   * it runs (a write or commit never answered), or input records no batch has planned.
   */
  override pendingWork(): PendingWork[] {
    if (this.running) {
      const ids = [...this.offsetLog.keys()];
      const n = ids.length > 0 ? Math.max(...ids) : 0;
      return [{ what: `the end of batch ${n}`, since: this.triggeredAt }];
    }
    const start = this.nextStart();
    const topic = this.input.name;
    const out: PendingWork[] = [];
    this.input.partitions.forEach((part, p) => {
      const at = start[p] ?? 0;
      if (part.hw > at)
        out.push({
          what: `${recordRange(topic, p, at, part.hw - 1)}, never processed`,
          since: part.appendedAt(at),
        });
    });
    return out;
  }

  /**
   * The Delta `txnAppId` the query writes with, when a restart changed it (`checkpoint-reset`'s
   * `txnAppId`); null: the sink's own.
   */
  private txnAppId: string | null = null;

  /**
   * The checkpoint location is deleted (a fault): the logs are gone; the query starts over, with a
   * new `txnAppId` when the fault gives one (docs/semantics/spark.md#checkpoint-reset).
   */
  resetCheckpoint(cause: EntryId, restartAfterMs: number, txnAppId?: string): void {
    if (txnAppId !== undefined) this.txnAppId = txnAppId;
    this.dedupeState = emptyWatermarkState();
    this.offsetLog.clear();
    this.commitLog.clear();
    this.initialStart = null;
    if (this.alive) this.crash(cause, -1, restartAfterMs);
  }

  /** Start or restart: re-run an uncommitted batch, or plan the next one. */
  private resume(cause: EntryId): void {
    const w = this.world;
    this.running = false;
    this.waiting = false;
    const ids = [...this.offsetLog.keys()];
    const latest = ids.length > 0 ? Math.max(...ids) : -1;
    if (latest >= 0 && !this.commitLog.has(latest)) {
      // "re-executes batch N with the same offset range and the same batchId"
      const e = writeRestore(w.trace, {
        time: w.now,
        actor: this.id,
        cause,
        topic: this.input.index,
        position: this.offsetLog.get(latest)!.start[0] ?? 0,
        ckpt: latest,
      });
      this.runBatch(this.offsetLog.get(latest)!, e);
      return;
    }
    if (latest < 0 && this.initialStart === null) {
      // startingOffsets=latest asks each partition's leader for its latest offset, and retries a
      // lookup a new leader cannot answer yet (OFFSET_NOT_AVAILABLE, src/engine/broker/listOffsets.ts).
      if (this.cfg.startingOffsets !== 'earliest') {
        const refused = latestOffsetsRefused(this, this.cluster, this.input, cause);
        if (refused !== null) {
          this.later(LIST_OFFSETS_RETRY_BACKOFF_MS, this.resume, refused);
          return;
        }
      }
      this.initialStart = this.input.partitions.map((p) =>
        this.cfg.startingOffsets === 'earliest' ? 0 : p.hw,
      );
    }
    const e = writeRestore(w.trace, {
      time: w.now,
      actor: this.id,
      cause,
      topic: this.input.index,
      position: this.nextStart()[0] ?? 0,
      ckpt: latest,
    });
    this.trigger(e);
  }

  /** Where the next batch starts: after the last planned batch, else `startingOffsets`. */
  private nextStart(): number[] {
    const ids = [...this.offsetLog.keys()];
    if (ids.length > 0) return [...this.offsetLog.get(Math.max(...ids))!.end];
    return [...(this.initialStart ?? [])];
  }

  /** A trigger: plan batch N if there is new data, else wait for data and the next trigger. */
  private trigger(cause: EntryId): void {
    if (this.running || !this.alive) return;
    const w = this.world;
    // Each trigger asks for the latest offsets (the source's latestOffset), and the Admin client
    // retries a lookup a new leader cannot answer yet (OFFSET_NOT_AVAILABLE,
    // src/engine/broker/listOffsets.ts): the batch is planned once it is answered.
    const refused = latestOffsetsRefused(this, this.cluster, this.input, cause);
    if (refused !== null) {
      this.later(LIST_OFFSETS_RETRY_BACKOFF_MS, this.trigger, refused);
      return;
    }
    const start = this.nextStart();
    const total = this.input.partitions.reduce((a, p, i) => a + Math.max(0, p.hw - start[i]!), 0);
    if (total === 0) return this.waitForData(cause);
    const hw = this.input.partitions.map((p) => p.hw);
    // `maxOffsetsPerTrigger` (./sparkBatch.ts).
    const end = rateLimit(this.cfg.maxOffsetsPerTrigger, start, hw);
    const ids = [...this.offsetLog.keys()];
    const id = ids.length > 0 ? Math.max(...ids) + 1 : 0;
    const d = this.cfg.dedupe;
    const watermark = d ? nextWatermark(this.dedupeState, d.delayThresholdMs) : -1;
    const batch: PlannedBatch = { id, start, end, timestamp: w.now, watermark };
    this.offsetLog.set(id, batch);
    this.runBatch(batch, cause);
  }

  private waitForData(cause: EntryId): void {
    if (this.waiting) return;
    this.waiting = true;
    const wake = call(this, this.dataArrived, this.incarnation, cause);
    for (const p of this.input.partitions) p.waiters.push(wake);
  }

  /** New data while incarnation `inc` waited for it: the next trigger, on the processingTime grid. */
  private dataArrived(inc: number, cause: EntryId): void {
    if (this.incarnation !== inc || !this.waiting) return;
    this.waiting = false;
    const t = this.cfg['trigger.processingTime'];
    const next = Math.ceil((this.world.now + 1) / t) * t;
    this.later(next - this.world.now, this.trigger, cause);
  }

  /** Run batch N: read its range, process, write through foreachBatch, then commit it. */
  private runBatch(b: PlannedBatch, cause: EntryId): void {
    const w = this.world;
    this.running = true;
    // This trigger fires now (a planned batch, or the re-run of an uncommitted one at a restart).
    this.triggeredAt = w.now;
    const count = b.end.reduce((a, e, i) => a + e - b.start[i]!, 0);
    const pe = writeBatchPlanned(
      w.trace,
      w.now,
      this.id,
      cause,
      this.input.index,
      b.start[0] ?? 0,
      count,
      b.id,
      this.cfg.dedupe ? b.watermark : -1,
    );
    const attempt = this.history.filter((h) => h.id === b.id).length + 1;
    const h = { ...b, attempt, committedAt: -1 };
    this.history.push(h);
    this.read(startBatchRun(b, h, this.dedupeState), pe);
  }

  /** Read the batch's range from where `run` stands, partition by partition, then process it. */
  private read(run: BatchRun, cause: EntryId): void {
    const b = run.batch;
    for (;;) {
      if (run.p >= b.end.length) return this.processNext(run, cause);
      if (run.from < b.end[run.p]!) break;
      run.p++;
      run.from = b.start[run.p] ?? 0;
    }
    const { p, from } = run;
    const done = call(this, this.readFetched, run);
    fetchFrom(this, this.cluster, this.input, p, from, b.end[p]! - from, false, cause, done);
  }

  /** A fetch of the batch's range is answered: its records are kept; the read goes on. */
  private readFetched(run: BatchRun, _b: undefined, _c: undefined, f: Fetch): void {
    const { partition: p, offset: from } = f;
    const r = f.result!;
    const c = f.answer;
    const end = run.batch.end[p]!;
    for (let i = 0; i < r.offsets.length; i++)
      if (r.offsets[i]! < end)
        run.recs.push({ partition: p, offset: r.offsets[i]!, event: r.events[i]! as EventId });
    if (r.next === from) {
      // The range is not readable yet (a new leader still catching up): wait for it to move.
      parkOn(this, this.input.partitions[p]!, from, false, call(this, this.read, run, c));
      return;
    }
    run.from = Math.min(end, r.next);
    this.read(run, c);
  }

  /** Process the batch's next record after `processing.perRecordMs`, or write the batch. */
  private processNext(run: BatchRun, cause: EntryId): void {
    if (run.i === run.recs.length) return this.write(run, cause);
    this.later(Math.ceil(this.cfg.processing.perRecordMs), this.process, run, cause);
  }

  /** Process record `run.i`: dropped by the dedupe, or a row for the sink (after its side effect). */
  private process(run: BatchRun, cause: EntryId): void {
    const w = this.world;
    const r = run.recs[run.i]!;
    const e = writeProcess(
      w.trace,
      w.now,
      this.id,
      cause,
      r.event,
      this.input.index,
      r.partition,
      r.offset,
      1,
      this.incarnation,
    );
    if (this.dropped(run.batch, r, run.state, e)) {
      run.i++;
      return this.processNext(run, e);
    }
    const s = this.scenario.sink;
    const key =
      s.type === 'table' ? sinkKey(w, s.key, this.input.index, r) : w.events.identity[r.event]!;
    run.rows.push({
      event: r.event,
      key,
      topic: this.input.index,
      partition: r.partition,
      offset: r.offset,
      cause: e,
    });
    const then = reply(this, this.processed, run);
    withSideEffect(this, this.service, this.cfg.sideEffect, this.input.index, r, e, then);
  }

  /** Record `run.i` is processed (its side effect answered, whatever its outcome): the next. */
  private processed(
    run: BatchRun,
    _b: undefined,
    _c: undefined,
    _e: ErrorCode,
    cause: EntryId,
  ): void {
    run.i++;
    this.processNext(run, cause);
  }

  /**
   * `processor.dedupe`: whether the dedupe drops record `r` (a copy of a key in its state, or
   * late), written as a 'stream-dedupe' entry caused by its 'process' entry.
   */
  private dropped(b: PlannedBatch, r: Rec, state: WatermarkDedupeState, cause: EntryId): boolean {
    const d = this.cfg.dedupe;
    if (!d) return false;
    const w = this.world;
    const eventTime =
      d.eventTime === 'timestamp'
        ? this.input.partitions[r.partition]!.appendedAt(r.offset)
        : w.events.at[r.event]!;
    const id = w.events.identity[r.event]!;
    const decision = sparkDedupe(state, d.operator, id, eventTime, d.delayThresholdMs, b.watermark);
    if (decision === 'pass') return false;
    writeStreamDedupe(
      w.trace,
      w.now,
      this.id,
      cause,
      r.event,
      this.input.index,
      r.partition,
      r.offset,
      decision === 'late' ? 1 : 0,
      b.watermark,
    );
    return true;
  }

  /** foreachBatch(df, batchId) → sink (./sparkWrite.ts); then {@link batchWritten}. */
  private write(run: BatchRun, cause: EntryId): void {
    if (this.world.faults.crashPoint(this, 'spark', 'before-sink-write', cause)) return;
    this.out.write(run, this.txnAppId, cause);
  }

  /** The batch's rows are written: commits/N, then the next trigger. */
  batchWritten(run: BatchRun, cause: EntryId): void {
    const w = this.world;
    const b = run.batch;
    if (w.faults.crashPoint(this, 'spark', 'after-sink-write', cause)) return;
    this.commitLog.add(b.id);
    // The state store's new version is committed with the batch.
    this.dedupeState = run.state;
    run.attempt.committedAt = w.now;
    const e = writeBatchCommitted(
      w.trace,
      w.now,
      this.id,
      cause,
      this.input.index,
      b.end[0] ?? 0,
      run.rows.length,
      b.id,
    );
    if (w.faults.processedRecords(this, 'spark', run.rows.length, e)) return;
    this.running = false;
    // nextBatchTime(triggerTimeMs), taken when this batch's trigger fired: a batch that ran past
    // it is followed at once ("it will not wait for the next interval boundary").
    const t = this.cfg['trigger.processingTime'];
    const next = Math.floor(this.triggeredAt / t) * t + t;
    this.later(Math.max(0, next - w.now), this.trigger, e);
  }
}

/** Assemble the Spark query of a scenario. */
export function buildSpark(
  w: World,
  s: Scenario,
  p: SparkProcessorConfig,
  cluster: Cluster,
  input: Topic,
  sink: SinkActor | null,
  service: ServiceActor | null,
  output: Topic | null = null,
): SparkQuery {
  const q = new SparkQuery(w, p, cluster, input, sink, service, s, output);
  q.start();
  return q;
}
