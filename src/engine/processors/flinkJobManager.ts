/**
 * The Flink job's JobManager (actor `jobmanager`): its checkpoint coordinator, which triggers
 * checkpoints, stores the completed ones and keeps their history; and the 'checkpoint' entries
 * both it and the task write. The task and the semantics modelled are in flink.ts.
 */
import { NO_ENTRY, NO_EVENT, type EntryId } from '../ids';
import { Actor, type Timer, type World } from '../world';
import type { FlinkProcessorConfig } from '../scenario/schema';
import { CHECKPOINT_STEPS, STATE_BYTES_PER_KEY, type CheckpointStep } from '../trace';
import type { FlinkTask } from './flink';
import { writeCheckpoint } from '../traceWriters';
import { call } from '../core/call';

/** A pre-committed sink transaction awaiting its commit (KafkaSink's committable, an XA xid). */
export interface PendingCommit {
  /** The checkpoint (epoch) it belongs to. */
  epoch: number;
  transactionalId: string;
  txn: number;
  /** JDBC XA: commits of it that got no answer so far (Flink's CheckpointAndXid.attempts). */
  attempts?: number;
}

/** A completed checkpoint as the JobManager stores it (durable). */
export interface CompletedCheckpoint {
  id: number;
  /** Next offset to read, per input partition. */
  positions: number[];
  /** Keyed state snapshot: count and sum per key (plain arrays: flinkState.ts, stateCopy). */
  count: number[];
  sum: number[];
  /** Keys the snapshot holds (keys seen so far: a key enters the state with its first record). */
  stateKeys: number;
  /** `processor.dedupe`: the dedupe's state, event identity → when it was written (with its TTL timestamp). */
  dedupe?: Map<number, number>;
  /** EXACTLY_ONCE: the pre-committed transaction of each epoch ≤ id not yet known committed. */
  pending: PendingCommit[];
  triggeredAt: number;
  completedAt: number;
}

/**
 * Checkpoint `id` completed with a task's snapshot, written field by field, as the task's
 * acknowledgement is (an object spread of the snapshot cost more): one shape wherever it is made.
 */
function completedOf(
  id: number,
  snap: Omit<CompletedCheckpoint, 'id' | 'triggeredAt' | 'completedAt'>,
  triggeredAt: number,
  completedAt: number,
): CompletedCheckpoint {
  return {
    id,
    positions: snap.positions,
    count: snap.count,
    sum: snap.sum,
    stateKeys: snap.stateKeys,
    dedupe: snap.dedupe,
    pending: snap.pending,
    triggeredAt,
    completedAt,
  };
}

/** One row of the checkpoint history (for the views). */
export interface CheckpointRecord {
  id: number;
  /**
   * 'declined': the task failed while it was in progress; 'expired': not complete within
   * `execution.checkpointing.timeout` ("Checkpoint expired before completing").
   */
  status: 'in progress' | 'completed' | 'declined' | 'expired';
  triggeredAt: number;
  completedAt: number;
  positions: number[];
  /**
   * Bytes of state: {@link STATE_BYTES_PER_KEY} per key held (the model's count and sum; a real
   * backend adds the serialized key and its own overhead).
   */
  stateBytes: number;
  /** The sink transaction of this checkpoint's epoch (EXACTLY_ONCE), and its fate. */
  txn: number;
  /**
   * Checkpoints completed while the job was idle, accounted together in this one row: ids
   * `firstId`..`id`, triggered every `execution.checkpointing.interval` from `firstTriggeredAt` to
   * `triggeredAt` (see {@link JobManager}). Absent on a checkpoint simulated step by step.
   */
  idle?: { firstId: number; count: number; firstTriggeredAt: number };
}

const step = (s: CheckpointStep) => CHECKPOINT_STEPS.indexOf(s);

/**
 * Write a 'checkpoint' trace entry of `actor`: step `s` of checkpoint `ckpt`, with the source
 * position (topic/partition/offset), the sink transaction, the trigger time or the keys in the
 * state snapshot (`count`, on 'barrier' and 'completed') where one belongs.
 */
export function traceCheckpoint(
  actor: Actor,
  cause: EntryId,
  s: CheckpointStep,
  ckpt: number,
  at: {
    topic?: number;
    partition?: number;
    offset?: number;
    txn?: number;
    until?: number;
    count?: number;
  } = {},
): EntryId {
  const w = actor.world;
  const e = writeCheckpoint(
    w.trace,
    w.now,
    actor.id,
    cause,
    at.topic ?? -1,
    at.partition ?? -1,
    at.offset ?? -1,
    at.count ?? -1,
    step(s),
    ckpt,
    at.txn ?? -1,
    at.until ?? -1,
  );
  return e;
}

/**
 * Periodic checkpoint requests the coordinator keeps while a checkpoint is in progress: Flink's
 * CheckpointRequestDecider queues them (DEFAULT_MAX_QUEUED_REQUESTS = 1000, the newest periodic
 * one dropped beyond it) and triggers the oldest as soon as the pending checkpoint ends
 * (https://github.com/apache/flink/blob/master/flink-runtime/src/main/java/org/apache/flink/runtime/checkpoint/CheckpointRequestDecider.java).
 */
const MAX_QUEUED_REQUESTS = 1000;

/** What an idle job's checkpoints would all hold: the task's state when it went idle. */
type Snapshot = Omit<CompletedCheckpoint, 'id' | 'triggeredAt' | 'completedAt'>;

/** A checkpoint as the task acknowledges it: its snapshot and pending transactions. */
export type Acknowledged = Omit<CompletedCheckpoint, 'completedAt' | 'triggeredAt'>;

/**
 * The JobManager's checkpoint coordinator: triggers checkpoints, stores completed ones, restarts
 * the job.
 *
 * Triggering, as Flink's CheckpointCoordinator does it
 * (https://nightlies.apache.org/flink/flink-docs-stable/docs/dev/datastream/fault-tolerance/checkpointing/,
 * https://github.com/apache/flink/blob/master/flink-runtime/src/main/java/org/apache/flink/runtime/checkpoint/CheckpointCoordinator.java):
 * - a periodic trigger every `execution.checkpointing.interval` on a fixed schedule, whatever the
 *   traffic. The scheduler starts with the job (`startAtMs`); Flink's first delay is drawn from
 *   [`execution.checkpointing.min-pause`, interval] (getRandomInitDelay), the model takes the
 *   upper end, so the triggers fall at startAtMs + k · interval, k ≥ 1;
 * - each trigger gets the next checkpoint id, assigned once the plan is made — a trigger while the
 *   task is not running fails before that ("Not all required tasks are currently running"): no id,
 *   the schedule goes on (with one pipelined region, a task failure restarts the region and the
 *   job stays RUNNING; after a global failover Flink restarts the scheduler with a new random
 *   first delay, of which the kept schedule is one draw);
 * - with `execution.checkpointing.max-concurrent-checkpoints` 1 (the default), a trigger while a
 *   checkpoint is in progress is queued and runs as soon as that one completes or fails
 *   ({@link MAX_QUEUED_REQUESTS}; `min-pause` 0, the default, adds no wait). A task failure aborts
 *   the in-progress checkpoint and the queued requests.
 *
 * An idle job's checkpoints: a checkpoint triggered while the job has processed nothing since its
 * last completed one (no record, no transaction pending) completes with the same positions and
 * state. Simulating each would keep every run busy until `stopAtMs`, so the coordinator goes
 * to sleep instead and accounts for them when something happens — the task takes its next record,
 * it fails, a fault that could hit a checkpoint comes near, or the run ends: the triggers that
 * fell in between become completed checkpoints with the next ids, recorded as one 'idle' trace
 * entry (ckpt = the last id, until = the first one's trigger time) and one history row; the last
 * of them is the one a restore uses. What they skip is what would change nothing: the KafkaSource
 * committing the same offsets again, an empty sink transaction (KafkaSink opens a producer per
 * checkpoint, the JDBC XA sink an xid; the model keeps the open one). A trigger whose barrier
 * would reach the task after its next record (less than one network latency before it) is a real
 * checkpoint of that record, triggered when the record is taken. One-shot faults that act on a
 * checkpoint's messages or crash points (`Faults.checkpointFaultAt`) get real checkpoints from one
 * interval before they are armed; repeating ones (`every`, random) act only on the checkpoints
 * simulated step by step.
 */
export class JobManager extends Actor {
  completed: CompletedCheckpoint | null = null;
  readonly history: CheckpointRecord[] = [];
  private nextId = 1;
  private inProgress: { id: number; triggeredAt: number; entry: EntryId; timeout: Timer } | null =
    null;
  /** Time of the next periodic trigger (ms); -1 until the scheduler starts. */
  private nextAt = -1;
  /** The timer of the trigger at {@link nextAt}, when one is armed. */
  private timer: Timer | null = null;
  /** Periodic requests queued while a checkpoint was in progress (at most {@link MAX_QUEUED_REQUESTS}). */
  private queued = 0;
  /** Failed checkpoints since the last completed one (Flink's CheckpointFailureManager counter). */
  private consecutiveFailures = 0;
  /** Asleep (the job is idle): the triggers from {@link nextAt} on are accounted at {@link wake}. */
  private idle: { snapshot: Snapshot; wake: Timer | null } | null = null;
  /** The last 'completed' (or 'idle') entry: the cause of the next 'idle' one. */
  private lastCompletedEntry = NO_ENTRY;
  job!: FlinkTask;

  constructor(
    world: World,
    readonly cfg: FlinkProcessorConfig,
  ) {
    super(world, 'jobmanager');
    // The triggers that fell while the run's last steps happened, up to its end.
    world.beforeEnd.push(call(this, this.wake, false, false));
  }

  protected override onRestart(): void {}

  /** Whether the coordinator is asleep: the task must {@link wake} it before taking a record. */
  get sleeping(): boolean {
    return this.idle !== null;
  }

  /**
   * The task is running (started, or restored after a failure): start the periodic scheduler the
   * first time; afterwards the schedule goes on from where it was (the triggers while the task was
   * down failed without an id).
   */
  onRunning(): void {
    const interval = this.cfg['execution.checkpointing.interval'];
    if (interval === null) return;
    const now = this.world.now;
    if (this.nextAt < 0) this.nextAt = this.cfg.startAtMs + interval;
    if (this.nextAt <= now)
      this.nextAt += (Math.floor((now - this.nextAt) / interval) + 1) * interval;
    this.arm();
  }

  /**
   * Whether the checkpoint at the next trigger would be idle and may be accounted later: the task
   * is running with nothing new, nothing is in progress or queued, and no one-shot fault that
   * could hit it is armed by one interval after it.
   */
  private quiet(): boolean {
    const interval = this.cfg['execution.checkpointing.interval']!;
    return (
      !this.inProgress &&
      this.queued === 0 &&
      this.job.idleForCheckpoint() &&
      this.nextAt + interval <= this.world.faults.checkpointFaultAt('flink')
    );
  }

  /** Arm the timer of the next trigger, or go to sleep if the job is idle. */
  private arm(): void {
    if (this.timer || this.inProgress || this.idle) return;
    const job = this.job;
    if (!job.alive || !job.running) return; // onRunning resumes the schedule
    if (this.quiet()) return this.sleep();
    this.timer = this.later(this.nextAt - this.world.now, this.tick);
  }

  /** A periodic trigger. */
  private tick(): void {
    this.timer = null;
    const job = this.job;
    // Not all tasks running: the trigger fails before it gets an id; onRunning resumes.
    if (!job.alive || !job.running) return;
    // Idle since the last arm(): this trigger is the first of the idle ones.
    if (this.quiet()) return this.sleep();
    this.nextAt += this.cfg['execution.checkpointing.interval']!;
    this.trigger();
  }

  /**
   * Go to sleep: the job is idle from the trigger at {@link nextAt} on. Wake up one interval
   * before the next one-shot fault that could hit a checkpoint is armed (its checkpoints are
   * simulated step by step).
   */
  private sleep(): void {
    const interval = this.cfg['execution.checkpointing.interval']!;
    const faultAt = this.world.faults.checkpointFaultAt('flink');
    const wakeAt = faultAt - interval;
    this.idle = {
      snapshot: this.job.snapshotForIdle(),
      wake: Number.isFinite(wakeAt)
        ? this.later(Math.max(0, wakeAt - this.world.now), this.wake, false)
        : null,
    };
  }

  /**
   * Wake up: the triggers that fell while the job was idle become completed checkpoints (one
   * 'idle' entry), then the schedule goes on. `forRecord`: the task is about to take a record; a
   * trigger less than one network latency before it would have sent a barrier that reaches the
   * task after the record — that checkpoint is a real one, triggered now. `resume` false (at the
   * end of the run): account for the idle triggers only.
   */
  wake(forRecord: boolean, resume = true): void {
    const idle = this.idle;
    if (!idle) return;
    this.idle = null;
    if (idle.wake) this.world.cancel(idle.wake);
    const interval = this.cfg['execution.checkpointing.interval']!;
    const now = this.world.now;
    const limit = forRecord ? now - this.world.scenario.network.latencyMs : now;
    const n = this.nextAt <= limit ? Math.floor((limit - this.nextAt) / interval) + 1 : 0;
    if (n > 0) this.completeIdle(n, idle.snapshot);
    this.nextAt += n * interval;
    if (!resume) return;
    if (forRecord && this.nextAt <= now && this.job.alive && this.job.running) {
      this.nextAt += interval;
      this.trigger();
      return;
    }
    this.arm();
  }

  /** The `n` idle checkpoints from the trigger at {@link nextAt} on: completed, as one entry. */
  private completeIdle(n: number, snap: Snapshot): void {
    const interval = this.cfg['execution.checkpointing.interval']!;
    const first = this.nextId;
    const id = first + n - 1;
    this.nextId = id + 1;
    const firstAt = this.nextAt;
    const lastAt = firstAt + (n - 1) * interval;
    this.consecutiveFailures = 0;
    this.completed = completedOf(id, snap, lastAt, lastAt);
    this.history.push({
      id,
      status: 'completed',
      triggeredAt: lastAt,
      completedAt: lastAt,
      positions: snap.positions,
      stateBytes: snap.stateKeys * STATE_BYTES_PER_KEY,
      txn: -1,
      idle: { firstId: first, count: n, firstTriggeredAt: firstAt },
    });
    const topic = this.job.inputTopic;
    const e = traceCheckpoint(this, this.lastCompletedEntry, 'idle', id, {
      topic,
      partition: 0,
      offset: snap.positions[0] ?? -1,
      count: snap.stateKeys,
      until: firstAt,
    });
    for (let p = 0; p < snap.positions.length; p++)
      traceCheckpoint(this, e, 'source-position', id, {
        topic,
        partition: p,
        offset: snap.positions[p]!,
      });
    this.lastCompletedEntry = e;
    this.job.idleCheckpoints(id);
  }

  private trigger(): void {
    const w = this.world;
    const job = this.job;
    const id = this.nextId++;
    const e = traceCheckpoint(this, NO_ENTRY, 'triggered', id);
    // Expiry after execution.checkpointing.timeout; cancelled when the checkpoint ends first.
    const timeout = this.later(this.cfg['execution.checkpointing.timeout'], this.expire, id);
    this.inProgress = { id, triggeredAt: w.now, entry: e, timeout };
    this.history.push({
      id,
      status: 'in progress',
      triggeredAt: w.now,
      completedAt: -1,
      positions: [],
      stateBytes: 0,
      txn: -1,
    });
    const inc = job.incarnation;
    const k = call(job, job.barrierArrives, id);
    w.sendMessage(this, job, inc, 'barrier', e, w.carry(NO_EVENT, -1, -1, -1), k, undefined);
  }

  /**
   * The checkpoint in progress ended (completed or expired): the periodic triggers that came
   * meanwhile were queued; the oldest runs now, else the schedule goes on.
   */
  private afterCheckpoint(): void {
    const interval = this.cfg['execution.checkpointing.interval']!;
    const now = this.world.now;
    if (this.nextAt <= now) {
      const k = Math.floor((now - this.nextAt) / interval) + 1;
      this.queued = Math.min(MAX_QUEUED_REQUESTS, this.queued + k);
      this.nextAt += k * interval;
    }
    const job = this.job;
    if (this.queued > 0 && job.alive && job.running) {
      this.queued--;
      this.trigger();
      return;
    }
    this.arm();
  }

  /**
   * `execution.checkpointing.timeout` after checkpoint `id`'s trigger: if it is still in progress
   * (a lost barrier or acknowledgement, a task too slow), it expires — Flink's "Checkpoint expired
   * before completing" — and a late acknowledgement is ignored. Expiry counts as a failed
   * checkpoint; more consecutive failures than `execution.checkpointing.tolerable-failed-checkpoints`
   * fail the job over ("Exceeded checkpoint tolerable failure threshold"): the task restarts, after
   * the restart strategy's delay, from the last completed checkpoint. Otherwise the next checkpoint
   * is triggered as usual (a trigger queued meanwhile at once). Source: CheckpointFailureManager,
   * which counts CHECKPOINT_EXPIRED
   * (https://github.com/apache/flink/blob/master/flink-runtime/src/main/java/org/apache/flink/runtime/checkpoint/CheckpointFailureManager.java),
   * and https://nightlies.apache.org/flink/flink-docs-stable/docs/deployment/config/#execution-checkpointing-tolerable-failed-checkpoints.
   */
  private expire(id: number): void {
    const p = this.inProgress;
    if (!p || p.id !== id) return;
    this.inProgress = null;
    this.consecutiveFailures++;
    // count = consecutive failed checkpoints so far; until = trigger time (as on 'completed').
    const e = traceCheckpoint(this, p.entry, 'expired', id, {
      until: p.triggeredAt,
      count: this.consecutiveFailures,
    });
    const h = this.history.find((x) => x.id === id);
    if (h) h.status = 'expired';
    const job = this.job;
    if (
      this.consecutiveFailures > this.cfg['execution.checkpointing.tolerable-failed-checkpoints']
    ) {
      this.consecutiveFailures = 0;
      // A global failover: the task is cancelled and restored (the restart delay is applied by
      // the task's own restart, as after a crash); the queued requests are aborted with it.
      this.queued = 0;
      job.crash(e, -1, 0);
      return;
    }
    this.afterCheckpoint();
  }

  /** The task's acknowledgement arrives (message entry `m`): see {@link onAck}. */
  ackArrives(snap: Acknowledged, _b: undefined, _c: undefined, m: EntryId): void {
    this.onAck(snap, m);
  }

  /** The task acknowledged checkpoint `id` with its snapshot: the checkpoint is complete and durable. */
  onAck(snap: Acknowledged, cause: EntryId): void {
    const w = this.world;
    const p = this.inProgress;
    if (!p || p.id !== snap.id) return;
    w.cancel(p.timeout);
    this.inProgress = null;
    this.consecutiveFailures = 0;
    this.completed = completedOf(snap.id, snap, p.triggeredAt, w.now);
    const h = this.history.find((x) => x.id === snap.id)!;
    h.status = 'completed';
    h.completedAt = w.now;
    h.positions = snap.positions;
    h.stateBytes = snap.stateKeys * STATE_BYTES_PER_KEY;
    h.txn = snap.pending.find((x) => x.epoch === snap.id)?.txn ?? -1;
    const e = traceCheckpoint(this, cause, 'completed', snap.id, {
      offset: snap.positions[0] ?? -1,
      until: p.triggeredAt,
      count: snap.stateKeys,
    });
    this.lastCompletedEntry = e;
    this.job.stateTracker?.checkpointCompleted(snap.id);
    const job = this.job;
    const inc = job.incarnation;
    const notify = call(job, job.notifyArrives, snap.id);
    const carry = w.carry(NO_EVENT, -1, -1, -1);
    w.sendMessage(this, job, inc, 'checkpoint-notify', e, carry, notify, undefined);
    this.afterCheckpoint();
  }

  /**
   * The task died: the idle triggers before it completed; an in-progress checkpoint is declined
   * and the queued requests fail with it; the schedule resumes when the task runs again.
   */
  onTaskFailed(cause: EntryId): void {
    this.wake(false);
    if (this.timer) {
      this.world.cancel(this.timer);
      this.timer = null;
    }
    this.queued = 0;
    if (this.inProgress) {
      this.world.cancel(this.inProgress.timeout);
      traceCheckpoint(this, cause, 'declined', this.inProgress.id);
      const h = this.history.find((x) => x.id === this.inProgress!.id);
      if (h) h.status = 'declined';
      this.inProgress = null;
    }
  }
}
