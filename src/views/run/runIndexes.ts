/**
 * The run view's indexes: entries per identity, messages, log records per identity, the
 * producer's sends, lives of actors, faults fired, and the processors' tracks.
 */
import type { TraceColumns } from '../../engine';
import { TXN_REASON_TIMEOUT } from '../../engine';
import { roleOf } from './actors';
import { CK, K, TX } from './kinds';
import { IntList, buildCsr, type Csr } from './steps';
import {
  MSG_BLOCK,
  type BatchView,
  type CheckpointView,
  type EventsView,
  type PartitionLogView,
  type RunView,
} from './runView';

export function identityIndex(cols: TraceColumns, ev: EventsView): Csr {
  const n = cols.time.length;
  let m = 0;
  for (let i = 0; i < n; i++) if (cols.event[i]! >= 0) m++;
  const rowOfItem = new Int32Array(m);
  const items = new Int32Array(m);
  let q = 0;
  for (let i = 0; i < n; i++) {
    const e = cols.event[i]!;
    if (e < 0) continue;
    rowOfItem[q] = ev.identity[e]!;
    items[q++] = i;
  }
  return buildCsr(ev.identities, rowOfItem, items);
}

export function messageIndex(cols: TraceColumns): { msgs: Int32Array; msgBlockUntil: Int32Array } {
  const list = new IntList();
  const n = cols.time.length;
  for (let i = 0; i < n; i++) {
    const k = cols.kind[i]!;
    if (k === K.msg || k === K['msg-lost']) list.push(i);
  }
  const msgs = list.toArray();
  const blocks = new Int32Array(Math.ceil(msgs.length / MSG_BLOCK));
  for (let b = 0; b < blocks.length; b++) {
    let m = -1;
    const end = Math.min(msgs.length, (b + 1) * MSG_BLOCK);
    for (let q = b * MSG_BLOCK; q < end; q++) m = Math.max(m, cols.until[msgs[q]!]!);
    blocks[b] = m;
  }
  return { msgs, msgBlockUntil: blocks };
}

export function logIdentityIndex(
  logs: PartitionLogView[],
  ev: EventsView,
): { logBase: Int32Array; logVersionsByIdentity: Csr } {
  const logBase = new Int32Array(logs.length);
  const rowsList = new IntList();
  const items = new IntList();
  let base = 0;
  logs.forEach((l, li) => {
    logBase[li] = base;
    for (let ver = 0; ver < l.event.length; ver++) {
      const e = l.event[ver]!;
      if (e < 0) continue;
      rowsList.push(ev.identity[e]!);
      items.push(base + ver);
    }
    base += l.event.length;
  });
  return {
    logBase,
    logVersionsByIdentity: buildCsr(ev.identities, rowsList.toArray(), items.toArray()),
  };
}

export function producerIndex(cols: TraceColumns, actors: string[]): RunView['producer'] {
  const producer = actors.indexOf('producer');
  const sends = new IntList();
  const resends = new IntList();
  /** Entries of a batch kind, with the running total of the records they carry. */
  const weighted = () => {
    const at = new IntList();
    const total = new IntList();
    let sum = 0;
    return {
      push(i: number, records: number) {
        sum += records;
        at.push(i);
        total.push(sum);
      },
      at,
      total,
    };
  };
  const retries = weighted();
  const acks = weighted();
  const failures = weighted();
  const dedupes = weighted();
  // A batch entry's `count` is its records; an entry without one stands for one record.
  const records = (i: number) => Math.max(1, cols.count[i]!);
  const n = cols.time.length;
  for (let i = 0; i < n; i++) {
    const k = cols.kind[i]!;
    if (k === K.dedupe) dedupes.push(i, records(i));
    if (cols.actor[i] !== producer) continue;
    if (k === K['app-send']) (cols.aux[i] === 0 ? sends : resends).push(i);
    else if (k === K.retry) retries.push(i, records(i));
    else if (k === K.ack) acks.push(i, records(i));
    else if (k === K['batch-failed']) failures.push(i, records(i));
    else if (k === K['app-send-failed']) {
      // The application seeing a record of a failed batch fail is the same failed record; only
      // its own give-up (a get() timeout, say) is one more.
      const c = cols.cause[i]!;
      failures.push(i, c >= 0 && cols.kind[c] === K['batch-failed'] ? 0 : 1);
    }
  }
  return {
    sends: sends.toArray(),
    resends: resends.toArray(),
    retries: retries.at.toArray(),
    retryRecords: retries.total.toArray(),
    acks: acks.at.toArray(),
    ackRecords: acks.total.toArray(),
    failures: failures.at.toArray(),
    failedRecords: failures.total.toArray(),
    dedupes: dedupes.at.toArray(),
    dedupeRecords: dedupes.total.toArray(),
  };
}

export function lifeIndex(cols: TraceColumns, actors: number): Csr {
  const rowsList = new IntList();
  const items = new IntList();
  const n = cols.time.length;
  for (let i = 0; i < n; i++) {
    const k = cols.kind[i]!;
    if (k !== K.crash && k !== K.restart && k !== K.stall) continue;
    rowsList.push(cols.actor[i]!);
    items.push(i);
  }
  return buildCsr(actors, rowsList.toArray(), items.toArray());
}

export function faultIndex(cols: TraceColumns, faults: number): Csr {
  const rowsList = new IntList();
  const items = new IntList();
  const n = cols.time.length;
  for (let i = 0; i < n; i++) {
    if (cols.kind[i] !== K.fault) continue;
    const f = cols.aux[i]!;
    if (f < 0 || f >= faults) continue;
    rowsList.push(f);
    items.push(i);
  }
  return buildCsr(faults, rowsList.toArray(), items.toArray());
}

/**
 * Checkpoints, micro-batches, restores, state updates, effects and per-processor entry lists, from
 * the trace columns alone (exported for tests that hand-make a trace).
 */
export function indexProcessors(
  cols: TraceColumns,
  actors: string[],
): Pick<
  RunView,
  'checkpoints' | 'restores' | 'batches' | 'stateUpdates' | 'processors' | 'effects'
> {
  const n = cols.time.length;
  const cps = new Map<number, CheckpointView>();
  const batches = new Map<number, BatchView>();
  const restores = new IntList();
  const state = new IntList();
  const effects = new IntList();
  const service = actors.indexOf('service');
  const flink = actors.indexOf('flink');
  /** Transaction → the coordinator's PrepareAbort entry, when it aborted it for its timeout. */
  const timedOut = new Map<number, number>();
  const tracks = new Map<
    number,
    {
      life: IntList;
      polls: IntList;
      processes: IntList;
      assigns: IntList;
      commits: IntList;
      leaves: IntList;
    }
  >();
  actors.forEach((name, a) => {
    if (roleOf(name) === 'processor')
      tracks.set(a, {
        life: new IntList(),
        polls: new IntList(),
        processes: new IntList(),
        assigns: new IntList(),
        commits: new IntList(),
        leaves: new IntList(),
      });
  });
  const committer = (i: number): number => {
    // 'commit' entries name their committer (peer); older traces are followed up the causes.
    if (cols.peer[i]! >= 0 && tracks.has(cols.peer[i]!)) return cols.peer[i]!;
    let c = cols.cause[i]!;
    for (let hops = 0; c >= 0 && hops < 6; hops++) {
      if (tracks.has(cols.actor[c]!)) return cols.actor[c]!;
      c = cols.cause[c]!;
    }
    return -1;
  };
  const cp = (id: number): CheckpointView => {
    let c = cps.get(id);
    if (!c) {
      c = {
        id,
        triggered: -1,
        barrier: -1,
        preCommitted: -1,
        completed: -1,
        txnEnd: -1,
        failed: -1,
        positions: [],
        txnTimeout: -1,
        idle: -1,
        firstId: id,
      };
      cps.set(id, c);
    }
    return c;
  };
  let lastId = 0;
  for (let i = 0; i < n; i++) {
    const k = cols.kind[i]!;
    const tr = tracks.get(cols.actor[i]!);
    if (tr) {
      if (k === K.crash || k === K.restart || k === K.stall) tr.life.push(i);
      else if (k === K.poll) tr.polls.push(i);
      else if (k === K.process) tr.processes.push(i);
      else if (k === K.assign || k === K.revoke) tr.assigns.push(i);
      else if (k === K['leave-group']) tr.leaves.push(i);
    }
    if (k === K.commit) {
      const a = committer(i);
      if (a >= 0) tracks.get(a)!.commits.push(i);
    }
    // A Spark query's progress is committed by its commit log, not by consumer offsets.
    if (k === K['batch-committed'] && tr) tr.commits.push(i);
    if (k === K.checkpoint) {
      const c = cp(cols.ckpt[i]!);
      const step = cols.aux[i]!;
      // Ids are handed out in order: an idle group starts after the last one triggered.
      if (step === CK.triggered) lastId = cols.ckpt[i]!;
      if (step === CK.triggered) c.triggered = i;
      else if (step === CK.barrier) c.barrier = i;
      else if (step === CK['pre-committed']) c.preCommitted = i;
      else if (step === CK.completed) c.completed = i;
      else if (step === CK['source-position']) c.positions.push(i);
      else if (step === CK.committed || step === CK.aborted) c.txnEnd = i;
      else if (step === CK.idle) {
        c.idle = i;
        c.firstId = lastId + 1;
        lastId = c.id;
      } else if (step === CK.expired) {
        // An expired sink transaction after completion; before it, the checkpoint itself failed.
        if (c.completed >= 0) c.txnEnd = i;
        else c.failed = i;
      } else c.failed = i;
    } else if (k === K.restore) restores.push(i);
    else if (k === K['batch-planned']) {
      const id = cols.ckpt[i]!;
      const b = batches.get(id);
      // A re-planned batch (after a restart) keeps its first planning entry.
      if (!b) batches.set(id, { id, planned: i, committed: -1 });
    } else if (k === K['batch-committed']) {
      const id = cols.ckpt[i]!;
      const b = batches.get(id) ?? { id, planned: -1, committed: -1 };
      b.committed = i;
      batches.set(id, b);
    } else if (k === K.process && cols.actor[i] === flink) state.push(i);
    else if (k === K.effect && cols.actor[i] === service) effects.push(i);
    else if (k === K.txn && cols.aux[i] === TX.PrepareAbort && cols.count[i] === TXN_REASON_TIMEOUT)
      timedOut.set(cols.txn[i]!, i);
  }
  const stateUpdates = state.toArray();
  // Whether the broker timed each checkpoint's sink transaction out.
  for (const c of cps.values()) {
    const txn = c.preCommitted >= 0 ? cols.txn[c.preCommitted]! : -1;
    if (txn >= 0) c.txnTimeout = timedOut.get(txn) ?? -1;
  }
  return {
    checkpoints: [...cps.values()].sort((a, b) => a.id - b.id),
    restores: restores.toArray(),
    batches: [...batches.values()].sort((a, b) => a.id - b.id),
    stateUpdates,
    effects: effects.toArray(),
    processors: [...tracks].map(([actor, tr]) => ({
      actor,
      name: actors[actor]!,
      life: tr.life.toArray(),
      polls: tr.polls.toArray(),
      processes: tr.processes.toArray(),
      assigns: tr.assigns.toArray(),
      commits: tr.commits.toArray(),
      leaves: tr.leaves.toArray(),
    })),
  };
}
