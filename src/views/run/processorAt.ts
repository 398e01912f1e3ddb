/**
 * What the processors show at a cursor: each consumer instance's or job's status, Flink's
 * checkpoint history, Spark's micro-batches and the keyed state's updates (the cursor as in at.ts).
 */
import { STATE_BYTES_PER_KEY } from '../../engine';
import { targetNameOf } from './actors';
import { CK, K } from './kinds';
import { type CheckpointView, type ProcessorTrack, type RunView } from './runView';
import { lastBefore, lowerBound, rowOf } from './steps';
import { lifeAt, type Life } from './at';

/** What a consumer instance / job is doing at a cursor. */
export interface ProcessorStatus {
  actor: number;
  name: string;
  life: Life;
  /** Incarnation (0 at start, +1 per crash). */
  incarnation: number;
  /** Last poll: first offset and record count, or null. */
  lastPoll: { entry: number; partition: number; offset: number; count: number } | null;
  /** Records processed in the current poll batch so far. */
  processedInBatch: number;
  /** Last processed record: partition, offset and event, or null. */
  lastProcess: { entry: number; partition: number; offset: number; event: number } | null;
  /** Total records processed by this actor (attempts). */
  processed: number;
  /**
   * Records this incarnation processed since its last offset commit that the committed offsets do
   * not cover (what a crash now would replay). A consumer that commits before processing has
   * committed past what it then processes: those records are not counted — a crash skips them.
   */
  sinceCommit: number;
  /** Its last commit entry, or -1. */
  lastCommit: number;
  /** Offset (next to read) of the last processed record, per partition it read. */
  positions: Map<number, number>;
  /**
   * The consumer left its group at its poll timeout during the current batch (it has not polled
   * since): when (ms), and when the coordinator removes it unless it polls first (ms); else null.
   */
  leftGroup: { at: number; removeAt: number } | null;
}

/**
 * Records processed from entry `from` to `idx` whose offsets the processor's Kafka offset commits
 * before `idx` do not cover (offset ≥ the partition's committed offset, the next one to read).
 * Other commit kinds (a Spark commit-log entry, a checkpoint) cover everything before them.
 */
function uncoveredSince(
  v: RunView,
  processes: Int32Array,
  commits: Int32Array,
  from: number,
  idx: number,
): number {
  const c = v.cols;
  const first = lowerBound(processes, from);
  const end = lowerBound(processes, idx);
  // Committed offsets per partition: the latest Kafka commit of each, scanning back (bounded:
  // a member commits for the few partitions it owns).
  const committed = new Map<number, number>();
  for (let k = lowerBound(commits, idx) - 1, seen = 0; k >= 0 && seen < 64; k--, seen++) {
    const e = commits[k]!;
    if (c.kind[e] !== K.commit) continue;
    if (!committed.has(c.partition[e]!)) committed.set(c.partition[e]!, c.offset[e]!);
  }
  if (committed.size === 0) return end - first;
  let n = 0;
  for (let k = first; k < end; k++) {
    const e = processes[k]!;
    if (c.offset[e]! >= (committed.get(c.partition[e]!) ?? 0)) n++;
  }
  return n;
}

/**
 * What processor `p` processed at `idx` that a crash now would replay: since the later of its
 * last commit and its last restart — what the previous incarnation processed is being replayed
 * already, not at risk again.
 */
function sinceCommitAt(v: RunView, p: RunView['processors'][number], idx: number): number {
  let from = lastBefore(p.commits, idx);
  const lifeList = rowOf(v.life, p.actor);
  for (let k = lifeList.length - 1; k >= 0; k--) {
    const e = lifeList[k]!;
    if (e < idx && v.cols.kind[e] === K.restart) {
      from = Math.max(from, e);
      break;
    }
  }
  return uncoveredSince(v, p.processes, p.commits, from < 0 ? 0 : from, idx);
}

/**
 * Status of every processor actor at `idx`. A replacement instance (`<name>-replacement`, started
 * when the group removed a paused member) is left out until its first entry: before that it does
 * not exist — the group only starts it after `session.timeout.ms`.
 */
export function processorsAt(v: RunView, idx: number, t: number): ProcessorStatus[] {
  const c = v.cols;
  return v.processors
    .filter((p) => targetNameOf(p.name) === p.name || firstEntry(p) < idx)
    .map((p) => {
      const life = lifeAt(v, p.actor, idx, t);
      let incarnation = 0;
      const lifeList = rowOf(v.life, p.actor);
      for (let k = 0; k < lifeList.length && lifeList[k]! < idx; k++)
        if (c.kind[lifeList[k]!] === K.crash) incarnation++;
      const pe = lastBefore(p.polls, idx);
      const procCount = lowerBound(p.processes, idx);
      const lastProc = procCount > 0 ? p.processes[procCount - 1]! : -1;
      const inBatch = pe < 0 ? 0 : procCount - lowerBound(p.processes, pe);
      const lastCommit = lastBefore(p.commits, idx);
      const sinceCommit = sinceCommitAt(v, p, idx);
      const left = lastBefore(p.leaves, idx);
      const positions = new Map<number, number>();
      // Positions: scan back over the last processes (bounded) — enough for the partitions a
      // member owns at a time.
      for (let k = procCount - 1, seen = 0; k >= 0 && seen < 256; k--, seen++) {
        const e = p.processes[k]!;
        const part = c.partition[e]!;
        if (!positions.has(part)) positions.set(part, c.offset[e]! + 1);
      }
      return {
        actor: p.actor,
        name: p.name,
        life: life.life,
        incarnation,
        lastPoll:
          pe < 0
            ? null
            : {
                entry: pe,
                partition: c.partition[pe]!,
                offset: c.offset[pe]!,
                count: c.count[pe]!,
              },
        processedInBatch: inBatch,
        lastProcess:
          lastProc < 0
            ? null
            : {
                entry: lastProc,
                partition: c.partition[lastProc]!,
                offset: c.offset[lastProc]!,
                event: c.event[lastProc]!,
              },
        processed: procCount,
        sinceCommit,
        lastCommit,
        positions,
        leftGroup: left >= 0 && left > pe ? { at: c.time[left]!, removeAt: c.until[left]! } : null,
      };
    });
}

/**
 * The last time processor `actor` left its group over the whole run (when, and when it is
 * removed unless it polls first), or null if it never does: the room the embed's card keeps for
 * that line from the first frame (src/ui/hooks/useReserveRoom.ts).
 */
export function lastLeftGroup(v: RunView, actor: number): ProcessorStatus['leftGroup'] {
  const leaves = v.processors.find((p) => p.actor === actor)?.leaves;
  const last = leaves && leaves.length > 0 ? leaves[leaves.length - 1]! : -1;
  return last < 0 ? null : { at: v.cols.time[last]!, removeAt: v.cols.until[last]! };
}

/**
 * The largest figures processor `actor`'s card shows over the run: a poll's record count and
 * first offset, and the most records processed since a commit (the count grows only as a
 * record is processed, so its largest value is right after one). The room the embed's card
 * keeps for its lines from the first frame (src/ui/hooks/useReserveRoom.ts).
 */
export function processorMaxima(
  v: RunView,
  actor: number,
): { pollCount: number; pollOffset: number; sinceCommit: number } {
  const p = v.processors.find((x) => x.actor === actor);
  let pollCount = 0;
  let pollOffset = 0;
  let sinceCommit = 0;
  if (!p) return { pollCount, pollOffset, sinceCommit };
  for (const e of p.polls) {
    pollCount = Math.max(pollCount, v.cols.count[e]!);
    pollOffset = Math.max(pollOffset, v.cols.offset[e]!);
  }
  for (const e of p.processes) sinceCommit = Math.max(sinceCommit, sinceCommitAt(v, p, e + 1));
  return { pollCount, pollOffset, sinceCommit };
}

/** Status of a checkpoint at a cursor. */
type CheckpointStatus = 'in progress' | 'completed' | 'failed' | 'not yet';

/** One row of the checkpoint history table (Flink's web UI "Checkpoints → History"). */
export interface CheckpointRow {
  /** The checkpoint id; for checkpoints completed while the job was idle, the last of them. */
  id: number;
  /**
   * Checkpoints completed while the job was idle share one row: `firstId`..`id` (see
   * {@link idle}); `firstId` = `id` otherwise.
   */
  firstId: number;
  /**
   * True for the checkpoints triggered while the job had processed nothing since the last one:
   * Flink triggers them all the same, every `execution.checkpointing.interval`, and each completes
   * at once with the same positions and state. `triggeredAt` is the last one's; their duration is
   * not simulated (-1).
   */
  idle: boolean;
  status: CheckpointStatus;
  /**
   * Why a failed checkpoint failed: 'declined' (the task failed while it was in progress) or
   * 'expired' (not acknowledged within `execution.checkpointing.timeout`); null otherwise.
   */
  failure: 'declined' | 'expired' | null;
  /** Trigger time (ms). */
  triggeredAt: number;
  /** Completed − triggered (ms), or so far while in progress; -1 if unknown. */
  durationMs: number;
  /** Source position (next offset) the checkpoint holds, or -1 (the first input partition's). */
  offset: number;
  /** The position of every input partition in its snapshot (next offset), once taken. */
  offsets: { partition: number; offset: number }[];
  /**
   * Records of its epoch processed so far (the records it covers; with KafkaSink EXACTLY_ONCE,
   * those written in its sink transaction).
   */
  epochRecords: number;
  /** Keys in its state snapshot (once the task has taken it), or -1. */
  stateKeys: number;
  /** Size of that snapshot in bytes (the engine's STATE_BYTES_PER_KEY per key), or -1. */
  stateBytes: number;
  /** Sink transaction number linked to this checkpoint (EXACTLY_ONCE), or -1. */
  txn: number;
  /**
   * The sink transaction's state (KafkaSink EXACTLY_ONCE; 'none' for other sinks): 'open' while
   * its epoch's records go into it (before the pre-commit), 'pre-committed' until decided, then
   * 'committed'; 'timed out' when the broker aborted it after `transaction.timeout.ms` (or the
   * commit found it expired); 'aborted' otherwise (a failed checkpoint's transaction, aborted on
   * recovery).
   */
  txnStatus: 'none' | 'open' | 'pre-committed' | 'committed' | 'timed out' | 'aborted';
  /** Entry ids the row rests on (to highlight them). */
  entries: number[];
}

/**
 * Records of checkpoint `cp`'s epoch processed before `idx`: those the job processed after the
 * previous barrier (or the last restore, which discards what came before it: the job replays
 * those records) and before this checkpoint's barrier (or its failure, or the cursor).
 */
function epochRecordsAt(v: RunView, cp: CheckpointView, idx: number): number {
  const seen = (e: number) => e >= 0 && e < idx;
  const end = seen(cp.barrier) ? cp.barrier : seen(cp.failed) ? cp.failed : idx;
  let start = -1;
  for (const c of v.checkpoints)
    if (c.barrier >= 0 && c.barrier < end && c.barrier > start) start = c.barrier;
  const r = lowerBound(v.restores, end);
  if (r > 0) start = Math.max(start, v.restores[r - 1]!);
  return Math.max(0, lowerBound(v.stateUpdates, end) - lowerBound(v.stateUpdates, start + 1));
}

/**
 * The row of checkpoints completed while the job was idle, as far as the cursor has come: those
 * triggered by time `t` (one every `execution.checkpointing.interval` from the first), all of them
 * once their 'idle' entry is behind the cursor; null before the first. The engine accounts for
 * them when the job wakes up, but each was triggered and completed (with nothing new, at once) at
 * its own time, which is when Flink's history lists it.
 */
function idleRowAt(v: RunView, cp: CheckpointView, idx: number, t: number): CheckpointRow | null {
  const c = v.cols;
  const e = cp.idle;
  const p = v.scenario.processor;
  const interval = p.type === 'flink' ? (p['execution.checkpointing.interval'] ?? 0) : 0;
  const from = c.until[e]!;
  const n = cp.id - cp.firstId + 1;
  const k =
    e < idx
      ? n
      : t < from || interval <= 0
        ? 0
        : Math.min(n, Math.floor((t - from) / interval) + 1);
  if (k === 0) return null;
  const stateKeys = c.count[e]!;
  return {
    id: cp.firstId + k - 1,
    firstId: cp.firstId,
    idle: true,
    status: 'completed',
    failure: null,
    triggeredAt: from + (k - 1) * interval,
    durationMs: -1,
    offset: c.offset[e]!,
    offsets: cp.positions.map((x) => ({ partition: c.partition[x]!, offset: c.offset[x]! })),
    epochRecords: 0,
    stateKeys,
    stateBytes: stateKeys * STATE_BYTES_PER_KEY,
    txn: -1,
    txnStatus: 'none',
    entries: e < idx ? [e, ...cp.positions] : [],
  };
}

/** The checkpoint history at `idx` (checkpoints triggered by then), newest first. */
export function checkpointRowsAt(v: RunView, idx: number, t: number): CheckpointRow[] {
  const c = v.cols;
  const rows: CheckpointRow[] = [];
  const seen = (e: number) => e >= 0 && e < idx;
  const s = v.scenario;
  // A sink transaction per epoch: KafkaSink EXACTLY_ONCE, or the JDBC exactly-once (XA) sink.
  const xa = s.sink.type === 'table' && s.sink.xa === true;
  const twoPhase =
    s.processor.type === 'flink' &&
    ((s.sink.type === 'kafka' && s.sink.deliveryGuarantee === 'EXACTLY_ONCE') || xa);
  for (const cp of v.checkpoints as CheckpointView[]) {
    if (cp.idle >= 0) {
      const row = idleRowAt(v, cp, idx, t);
      if (row) rows.push(row);
      continue;
    }
    const first = cp.triggered >= 0 ? cp.triggered : cp.barrier;
    if (!seen(first)) continue;
    const triggeredAt = c.time[first]!;
    let status: CheckpointStatus = 'in progress';
    if (seen(cp.completed)) status = 'completed';
    else if (seen(cp.failed)) status = 'failed';
    const end = seen(cp.completed) ? cp.completed : seen(cp.failed) ? cp.failed : -1;
    const txn = seen(cp.preCommitted)
      ? c.txn[cp.preCommitted]!
      : seen(cp.txnEnd)
        ? c.txn[cp.txnEnd]!
        : -1;
    let txnStatus: CheckpointRow['txnStatus'] =
      txn >= 0 ? 'pre-committed' : twoPhase && status === 'in progress' ? 'open' : 'none';
    if (seen(cp.txnEnd))
      txnStatus =
        c.aux[cp.txnEnd] === CK.committed
          ? 'committed'
          : c.aux[cp.txnEnd] === CK.aborted
            ? 'aborted'
            : 'timed out';
    else if (seen(cp.txnTimeout)) txnStatus = 'timed out';
    // Kafka transactions end in the output log (XA ones only by the steps above).
    else if (txn >= 0 && !xa)
      for (const log of v.logs) {
        const end = log.txnEnd.get(txn);
        if (end && end.entry < idx) {
          txnStatus = end.commit ? 'committed' : 'aborted';
          break;
        }
      }
    const offsetEntry = seen(cp.completed) ? cp.completed : seen(cp.barrier) ? cp.barrier : -1;
    const stateKeys = offsetEntry >= 0 ? c.count[offsetEntry]! : -1;
    rows.push({
      id: cp.id,
      firstId: cp.id,
      idle: false,
      status,
      failure:
        status !== 'failed' ? null : c.aux[cp.failed] === CK.expired ? 'expired' : 'declined',
      triggeredAt,
      durationMs: end >= 0 ? c.time[end]! - triggeredAt : t - triggeredAt,
      offset: offsetEntry >= 0 ? c.offset[offsetEntry]! : -1,
      offsets: cp.positions
        .filter(seen)
        .map((e) => ({ partition: c.partition[e]!, offset: c.offset[e]! })),
      epochRecords: epochRecordsAt(v, cp, idx),
      stateKeys,
      stateBytes: stateKeys >= 0 ? stateKeys * STATE_BYTES_PER_KEY : -1,
      txn,
      txnStatus,
      entries: [
        cp.triggered,
        cp.barrier,
        cp.preCommitted,
        cp.completed,
        cp.txnEnd,
        cp.failed,
        cp.txnTimeout,
        ...cp.positions,
      ].filter(seen),
    });
  }
  return rows.reverse();
}

/** One row of the micro-batch list (Spark's offset log and commit log). */
export interface BatchRow {
  id: number;
  plannedAt: number;
  /** First offset and record count of the batch. */
  offset: number;
  records: number;
  status: 'planned' | 'committed';
  committedAt: number;
}

/** Micro-batches planned by `idx`, newest first. */
export function batchRowsAt(v: RunView, idx: number): BatchRow[] {
  const c = v.cols;
  const out: BatchRow[] = [];
  for (const b of v.batches) {
    if (b.planned < 0 || b.planned >= idx) continue;
    const done = b.committed >= 0 && b.committed < idx;
    out.push({
      id: b.id,
      plannedAt: c.time[b.planned]!,
      offset: c.offset[b.planned]!,
      records: c.count[b.planned]!,
      status: done ? 'committed' : 'planned',
      committedAt: done ? c.time[b.committed]! : -1,
    });
  }
  return out.reverse();
}

/** The last `max` operator state updates by `idx`: key index and the key's new count. */
export function stateUpdatesAt(
  v: RunView,
  idx: number,
  max = 8,
): { entry: number; key: number; count: number; event: number }[] {
  const c = v.cols;
  const k = lowerBound(v.stateUpdates, idx);
  const out = [];
  for (let q = k - 1; q >= 0 && out.length < max; q--) {
    const e = v.stateUpdates[q]!;
    out.push({ entry: e, key: c.aux[e]!, count: c.count[e]!, event: c.event[e]! });
  }
  return out;
}

/** The first trace entry a processor track holds (assignment, poll, process, life), or +∞. */
function firstEntry(p: ProcessorTrack): number {
  let first = Infinity;
  for (const list of [p.assigns, p.polls, p.processes, p.life, p.commits, p.leaves])
    if (list.length > 0 && list[0]! < first) first = list[0]!;
  return first;
}
