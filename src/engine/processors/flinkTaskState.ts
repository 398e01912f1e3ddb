/**
 * The Flink TaskManager's state (see src/engine/processors/flink.ts for the job and the semantics
 * it models): the source's positions and buffers, the keyed state, the epoch and its sink
 * transactions, and what the task says about itself between its tasks — whether a checkpoint now
 * would change nothing (the JobManager's idle accounting), and what it still waits for. The
 * behaviour is layered on it: restore and restarts (flinkRestore.ts), the JDBC XA sink
 * (flinkXa.ts), KafkaSink's two-phase commit (flinkTwoPhase.ts), checkpoints
 * (flinkCheckpoint.ts), processing (flink.ts).
 */
import { NO_ENTRY, type EntryId } from '../ids';
import { Actor, type PendingWork, type World } from '../world';
import { recordRange } from '../stuck';
import type { Cluster, Topic } from '../broker/cluster';
import type { ProducerClient } from '../client';
import type { FlinkProcessorConfig, KafkaSinkConfig, Scenario } from '../scenario/schema';
import type { SinkActor } from '../sinks/table';
import type { ServiceActor } from '../sinks/effects';
import type { CompletedCheckpoint, JobManager, PendingCommit } from './flinkJobManager';
import { keysHeld, stateCopy, StateTracker } from './flinkState';

/** What a barrier snapshots of the task: a checkpoint's content but its pending transactions. */
export type BarrierSnapshot = Omit<CompletedCheckpoint, 'pending' | 'triggeredAt' | 'completedAt'>;

/**
 * A barrier whose snapshot waits for the sink (a flush, a PREPARE) before it is acknowledged,
 * held as data: the snapshot, the epoch the barrier closes, and the barrier's entry.
 */
export interface BarrierInHand {
  snapshot: BarrierSnapshot;
  epoch: number;
  entry: EntryId;
}

/** Pending transactions in the order of their epochs. */
export const byEpoch = (a: PendingCommit, b: PendingCommit) => a.epoch - b.epoch;

/** The state of the TaskManager running the whole chain; its behaviour is layered on it. */
export abstract class FlinkTaskState extends Actor {
  running = false;

  protected positions: number[] = [];

  /** Next offset to fetch per partition (ahead of `positions` by what is buffered). */
  protected fetchPos: number[] = [];

  /**
   * Per partition, the records fetched and not yet processed: the fetch response's own columns
   * (offsets, events), read from `bufferPos` on. No object per record: at a million records
   * those were a fifth of a run's garbage.
   */
  protected bufferOffsets: Int32Array[] = [];

  protected bufferEvents: Int32Array[] = [];

  /** Per partition: the next unread index of its buffer. */
  protected bufferPos: number[] = [];

  protected fetching: boolean[] = [];

  protected count: Float64Array;

  protected sum: Float64Array;

  /**
   * `processor.dedupe`: the keep-first dedupe's keyed state, identity → when it was written
   * (processing time; its TTL runs from there). Plain data, snapshotted with the checkpoint.
   */
  protected dedupeWritten = new Map<number, number>();

  /** Whether the dedupe dropped the record {@link apply} last took. */
  protected dropped = false;

  /** Current epoch: records after barrier epoch-1. */
  protected epoch = 1;

  protected busy = false;

  protected pendingBarrier: { id: number; cause: EntryId } | null = null;

  protected sinceBarrier = 0;

  /** EXACTLY_ONCE: producer of each open/pre-committed epoch. */
  protected producers = new Map<number, ProducerClient>();

  protected pendingCommit: PendingCommit[] = [];

  /**
   * Pending transactions whose commit request is out and not answered yet: still pending in the
   * checkpoints taken meanwhile, as Flink keeps a committable (KafkaSink's CommittableCollector,
   * the XA sink's preparedXids) in its state until its commit has succeeded.
   */
  protected committing: PendingCommit[] = [];

  /** AT_LEAST_ONCE / NONE producer. */
  protected plain: ProducerClient | null = null;

  /** JDBC exactly-once sink: the XA transaction (xid) of the open epoch, or -1. */
  protected xid = -1;

  /**
   * The plain JDBC sink's background flush failed (`sinkFlushDelayMs`): the entry that reported
   * it, thrown by the next write or checkpoint; -1 when none.
   */
  protected flushError = NO_ENTRY;

  /** Xids handed out so far: never reused, across restarts too (Flink derives them from the job attempt). */
  protected xidSeq = 0;

  protected lastAutoCommit = 0;

  stateTracker: StateTracker | null;

  constructor(
    world: World,
    readonly cfg: FlinkProcessorConfig,
    protected readonly jm: JobManager,
    protected readonly cluster: Cluster,
    protected readonly input: Topic,
    protected readonly output: Topic | null,
    protected readonly sink: SinkActor | null,
    protected readonly service: ServiceActor | null,
    protected readonly scenario: Scenario,
  ) {
    super(world, 'flink');
    const keys = world.events.keys.length;
    this.count = new Float64Array(keys);
    this.sum = new Float64Array(keys);
    this.stateTracker = new StateTracker(world.events.identities);
  }

  protected get kafka(): KafkaSinkConfig | null {
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
      count: stateCopy(this.count),
      sum: stateCopy(this.sum),
      stateKeys,
      dedupe: this.dedupeSnapshot(),
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

  /** When the latest restore (start or restart) began (ms), or -1 before the first. */
  protected restoredAt = -1;

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
  protected startUpWords(): string {
    if (this.xa) return 'the answer to its XA recovery statements at the database';
    const k = this.kafka;
    if (!k) return 'its restore';
    if (k.deliveryGuarantee !== 'EXACTLY_ONCE') return "its Kafka producer's InitProducerId answer";
    return 'the answer to its EndTxn request, which commits the restored transactions and aborts lingering ones';
  }

  /** Whether the sink is Flink's JDBC exactly-once sink (XA transactions per checkpoint). */
  protected get xa(): boolean {
    return this.scenario.sink.type === 'table' && this.scenario.sink.xa;
  }

  /** The epoch an xid was opened for (kept across restarts in {@link xidEpochs}), or -1. */
  protected epochOfXid(xid: number): number {
    return this.xidEpochs.get(xid) ?? -1;
  }

  /** xid → epoch (checkpoint id) it was opened for, for the history of a rolled-back one. */
  protected readonly xidEpochs = new Map<number, number>();

  /** The dedupe's state for a checkpoint: a copy (nothing without `processor.dedupe`). */
  protected dedupeSnapshot(): Map<number, number> | undefined {
    return this.cfg.dedupe ? new Map(this.dedupeWritten) : undefined;
  }

  /** The first partition with unread records (the order shift() on each buffer gave), or -1. */
  protected nextPartition(): number {
    const pos = this.bufferPos;
    const offs = this.bufferOffsets;
    for (let p = 0; p < pos.length; p++) if (pos[p]! < offs[p]!.length) return p;
    return -1;
  }

  /** The pending transactions a checkpoint taken now holds: those waiting for or in their commit. */
  protected pendingForSnapshot(): PendingCommit[] {
    if (this.committing.length === 0) return [...this.pendingCommit];
    return [...this.pendingCommit, ...this.committing].sort(byEpoch);
  }

  /** The commit of `p` was answered (or given up): no longer in flight. */
  protected committed(p: PendingCommit): void {
    this.committing = this.committing.filter((x) => x !== p);
  }

  /** On with the next records (flink.ts). */
  protected abstract loop(cause: EntryId): void;
}
