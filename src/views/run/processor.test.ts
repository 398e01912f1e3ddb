import { describe, expect, it } from 'vitest';
import { Trace } from '../../engine';
import { NO_ENTRY, type ActorId, type EventId } from '../../engine/ids';
import {
  writeBatchCommitted,
  writeBatchPlanned,
  writeCheckpoint,
  writeCrash,
  writeProcess,
  writeTxn,
} from '../../engine/traceWriters';
import { batchRowsAt, checkpointRowsAt } from './at';
import { CK } from './kinds';
import { indexProcessors } from './runIndexes';
import { traceColumns, type RunView } from './runView';

/** A view with only what the processor panel reads, from a hand-made trace. */
function viewOf(t: Trace): RunView {
  const cols = traceColumns(t);
  return {
    cols,
    n: t.length,
    logs: [],
    ...indexProcessors(cols, [...t.actors]),
  } as unknown as RunView;
}

describe('Spark micro-batches (hand-made trace)', () => {
  // Batch 0 plans offsets 0..4 at 1,000 ms and commits at 1,010 ms; batch 1 plans 5..7 at
  // 2,000 ms and the query crashes before its commit log entry; after the restart batch 1 is
  // planned again (same id) at 3,500 ms and committed at 3,510 ms.
  const t = new Trace();
  t.actors.push('lab', 'spark');
  const spark = 1 as ActorId;
  const planned = (time: number, id: number, offset: number, count: number) =>
    writeBatchPlanned(t, time, spark, NO_ENTRY, 0, offset, count, id, -1);
  const committed = (time: number, id: number, end: number, rows: number) =>
    writeBatchCommitted(t, time, spark, NO_ENTRY, 0, end, rows, id);
  planned(1000, 0, 0, 5);
  committed(1010, 0, 5, 5);
  planned(2000, 1, 5, 3);
  writeCrash(t, 2005, spark, NO_ENTRY, -1);
  planned(3500, 1, 5, 3);
  committed(3510, 1, 8, 3);
  const v = viewOf(t);

  it('lists batches newest first, with offsets, records and status at the cursor', () => {
    // Cursor after the crash (5 entries applied): batch 1 planned, not committed.
    expect(batchRowsAt(v, 5)).toEqual([
      { id: 1, plannedAt: 2000, offset: 5, records: 3, status: 'planned', committedAt: -1 },
      { id: 0, plannedAt: 1000, offset: 0, records: 5, status: 'committed', committedAt: 1010 },
    ]);
    // At the end batch 1 is committed; its first planning is kept (the re-run has the same id).
    expect(batchRowsAt(v, v.n)[0]).toMatchObject({
      id: 1,
      plannedAt: 2000,
      status: 'committed',
      committedAt: 3510,
    });
    expect(batchRowsAt(v, 0)).toEqual([]);
  });
});

describe('Flink checkpoint history (hand-made trace)', () => {
  // A KafkaSink EXACTLY_ONCE job reading two partitions. Checkpoint 1: triggered 1,000; barrier
  // with the source at in-0 offset 4 and in-1 offset 2 and 3 keys in the state snapshot; its epoch
  // processed 2 records; pre-committed with transaction 7; completed 1,008; committed 1,012.
  // Checkpoint 2: triggered 2,000, declined at 2,003 (the task crashed). Checkpoint 3: triggered
  // 3,000, pre-committed with transaction 9, completed 3,008; the job was down and the broker
  // aborted transaction 9 for its timeout at 70,000 (a PrepareAbort with reason 1 = timeout).
  const t = new Trace();
  t.actors.push('lab', 'jobmanager', 'flink', 'coordinator');
  t.topics.push('in');
  const step = (
    time: number,
    actor: number,
    id: number,
    s: keyof typeof CK,
    f: { partition?: number; offset?: number; txn?: number; keys?: number } = {},
  ) =>
    writeCheckpoint(
      t,
      time,
      actor as ActorId,
      NO_ENTRY,
      f.partition === undefined ? -1 : 0,
      f.partition ?? -1,
      f.offset ?? -1,
      f.keys ?? -1,
      CK[s],
      id,
      f.txn ?? -1,
      -1,
    );
  // Two records of epoch 1 (before its barrier), key 0 each.
  const process = (time: number, offset: number) =>
    writeProcess(t, time, 2 as ActorId, NO_ENTRY, 0 as EventId, 0, 0, offset, 1, 0);
  process(500, 0);
  process(600, 1);
  step(1000, 1, 1, 'triggered');
  step(1003, 2, 1, 'barrier', { partition: 0, offset: 4, keys: 3 });
  step(1003, 2, 1, 'source-position', { partition: 0, offset: 4 });
  step(1003, 2, 1, 'source-position', { partition: 1, offset: 2 });
  step(1005, 2, 1, 'pre-committed', { txn: 7 });
  step(1008, 1, 1, 'completed', { partition: 0, offset: 4, keys: 3 });
  step(1012, 2, 1, 'committed', { txn: 7 });
  step(2000, 1, 2, 'triggered');
  step(2003, 1, 2, 'declined');
  step(3000, 1, 3, 'triggered');
  step(3005, 2, 3, 'pre-committed', { txn: 9 });
  step(3008, 1, 3, 'completed', { partition: 0, offset: 4, keys: 3 });
  // PrepareAbort (state 2), reason 1 (timeout).
  writeTxn(t, 70_000, 3 as ActorId, NO_ENTRY, 1, 2, 9);
  const v = {
    ...viewOf(t),
    scenario: {
      workload: { topic: 'in' },
      processor: { type: 'flink' },
      sink: { type: 'kafka', deliveryGuarantee: 'EXACTLY_ONCE' },
    },
  } as unknown as RunView;

  it('rows carry status, times, offsets per partition, state size, epoch records and the sink transaction', () => {
    expect(checkpointRowsAt(v, v.n, 80_000).map(({ entries: _e, ...r }) => r)).toEqual([
      {
        id: 3,
        firstId: 3,
        idle: false,
        status: 'completed',
        failure: null,
        triggeredAt: 3000,
        durationMs: 8,
        offset: 4,
        offsets: [],
        epochRecords: 0,
        stateKeys: 3,
        stateBytes: 48,
        txn: 9,
        txnStatus: 'timed out',
      },
      {
        id: 2,
        firstId: 2,
        idle: false,
        status: 'failed',
        failure: 'declined',
        triggeredAt: 2000,
        durationMs: 3,
        offset: -1,
        offsets: [],
        epochRecords: 0,
        stateKeys: -1,
        stateBytes: -1,
        txn: -1,
        txnStatus: 'none',
      },
      {
        id: 1,
        firstId: 1,
        idle: false,
        status: 'completed',
        failure: null,
        triggeredAt: 1000,
        durationMs: 8,
        offset: 4,
        offsets: [
          { partition: 0, offset: 4 },
          { partition: 1, offset: 2 },
        ],
        epochRecords: 2,
        stateKeys: 3,
        stateBytes: 48,
        txn: 7,
        txnStatus: 'committed',
      },
    ]);
  });

  it('the sink transaction is open until the pre-commit, then pre-committed until decided', () => {
    // Two records, the trigger and the barrier's three entries applied (6) at 1,004; then the
    // pre-commit (7) at 1,006.
    expect(checkpointRowsAt(v, 6, 1004)).toEqual([
      expect.objectContaining({ id: 1, status: 'in progress', durationMs: 4, txnStatus: 'open' }),
    ]);
    expect(checkpointRowsAt(v, 7, 1006)).toEqual([
      expect.objectContaining({
        id: 1,
        status: 'in progress',
        durationMs: 6,
        offset: 4,
        stateKeys: 3,
        txn: 7,
        txnStatus: 'pre-committed',
      }),
    ]);
    // Before the broker's abort, checkpoint 3's transaction is still pre-committed.
    expect(checkpointRowsAt(v, v.n - 1, 69_999)[0]).toMatchObject({
      id: 3,
      txnStatus: 'pre-committed',
    });
  });
});

describe('Flink checkpoints completed while the job was idle (hand-made trace)', () => {
  // Checkpoint 1 triggered at 1,000, completed at 1,008 at offset 4 (3 keys). Then nothing new:
  // Flink triggers checkpoints 2..5 at 2,000..5,000 all the same; the engine accounts for them in
  // one 'idle' entry when the job wakes up at 5,300 (ckpt 5, until 2,000, offset 4, 3 keys, and
  // one source-position entry). Checkpoint 6 is triggered at 6,000.
  const t = new Trace();
  t.actors.push('lab', 'jobmanager', 'flink');
  t.topics.push('in');
  const step = (time: number, actor: number, id: number, s: keyof typeof CK, offset = -1) =>
    writeCheckpoint(
      t,
      time,
      actor as ActorId,
      NO_ENTRY,
      0,
      0,
      offset,
      offset < 0 ? -1 : 3,
      CK[s],
      id,
      -1,
      s === 'idle' ? 2000 : -1,
    );
  step(1000, 1, 1, 'triggered');
  step(1003, 2, 1, 'barrier', 4);
  step(1008, 1, 1, 'completed', 4);
  step(5300, 1, 5, 'idle', 4);
  step(5300, 1, 5, 'source-position', 4);
  step(6000, 1, 6, 'triggered');
  const v = {
    ...viewOf(t),
    scenario: {
      workload: { topic: 'in' },
      processor: { type: 'flink', 'execution.checkpointing.interval': 1000 },
      sink: { type: 'table' },
    },
  } as unknown as RunView;
  const ids = (idx: number, time: number) =>
    checkpointRowsAt(v, idx, time).map((r) => [r.firstId, r.id, r.idle, r.triggeredAt]);

  it('the view groups them under their last id, from the one after the checkpoint before', () => {
    const cp = v.checkpoints.find((c) => c.id === 5)!;
    expect([cp.firstId, cp.idle]).toEqual([2, 3]);
  });

  it('one row, growing with the cursor as each was triggered, before the entry that accounts for them', () => {
    // At 1,999 ms: none yet; at 3,500 ms (entry 3, the idle entry not reached): 2 and 3.
    expect(ids(3, 1999)).toEqual([[1, 1, false, 1000]]);
    expect(ids(3, 3500)).toEqual([
      [2, 3, true, 3000],
      [1, 1, false, 1000],
    ]);
    // Past the entry: all four, then checkpoint 6 in progress.
    expect(ids(t.length, 6001)).toEqual([
      [6, 6, false, 6000],
      [2, 5, true, 5000],
      [1, 1, false, 1000],
    ]);
    const [, idle] = checkpointRowsAt(v, t.length, 6001);
    expect(idle).toMatchObject({
      status: 'completed',
      durationMs: -1,
      offset: 4,
      offsets: [{ partition: 0, offset: 4 }],
      stateBytes: 48,
      epochRecords: 0,
      txnStatus: 'none',
    });
  });
});
