/**
 * The Flink task's JDBC exactly-once sink (`JdbcSink.exactlyOnceSink`, JdbcXaSinkFunction): an XA
 * transaction per checkpoint, prepared on the barrier, committed on the checkpoint-complete
 * notification, recovered on restore
 * (https://github.com/apache/flink-connector-jdbc/blob/main/flink-connector-jdbc/src/main/java/org/apache/flink/connector/jdbc/xa/JdbcXaSinkFunction.java).
 * Each call to the database is a held call answered with an {@link XaAnswer}
 * (src/engine/sinks/writer.ts), so a snapshot copies it (docs/ARCHITECTURE.md, "Pending work and forks").
 */
import { NO_ENTRY, type EntryId } from '../ids';
import { xaStatement, type XaAnswer } from '../sinks/writer';
import { call, type Call } from '../core/call';
import { traceCheckpoint, type PendingCommit } from './flinkJobManager';
import { FlinkRestore } from './flinkRestore';
import { byEpoch, type BarrierInHand, type BarrierSnapshot } from './flinkTaskState';

/**
 * JdbcExactlyOnceOptions' default maxCommitAttempts: the failed commits of one xid after which
 * XaGroupOpsImpl.commit throws and the task fails.
 * https://github.com/apache/flink-connector-jdbc/blob/main/flink-connector-jdbc/src/main/java/org/apache/flink/connector/jdbc/JdbcExactlyOnceOptions.java
 */
const XA_MAX_COMMIT_ATTEMPTS = 3;

/** The task with its JDBC XA sink. */
export abstract class FlinkXa extends FlinkRestore {
  /** Start the XA transaction of `epoch` (its first statement opens the branch at the database). */
  protected openXa(epoch: number): void {
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
  protected xaCall<T>(
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
   * JdbcXaSinkFunction's recovery (its open(): failOrRollback of the hanging xids,
   * commitUpToCheckpoint of the restored ones; source in the module comment): commit the prepared transactions of the restored checkpoint
   * (an unknown xid, XAER_NOTA, means it was committed before: ignored), then roll back every
   * other transaction of this job — the epoch open at the checkpoint and any prepared since
   * (its hanging xids), so none is left in doubt. Its scan of the database (XA RECOVER) left
   * unanswered, open() throws and the task fails ({@link sinkFailed}); the restart recovers again.
   */
  protected recoverXa(cause: EntryId): void {
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
  protected xaRecoverAtDatabase(
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
  protected xaRecovered(restore: EntryId, _b: undefined, _c: undefined, r: XaAnswer<void>): void {
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
  protected commitXa(xid: number, ckpt: number, cause: EntryId): boolean {
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
  protected xaCommitUnanswered(p: PendingCommit, cause: EntryId): void {
    const attempts = (p.attempts ?? 0) + 1;
    if (attempts >= XA_MAX_COMMIT_ATTEMPTS) return this.sinkFailed(cause);
    this.pendingCommit.push({ ...p, attempts });
    this.pendingCommit.sort(byEpoch);
  }

  /**
   * At the database: PREPARE TRANSACTION `xid` for checkpoint `ckpt`, traced there — a prepared
   * transaction exists from now on, whether or not the task lives to hear of it (restore then
   * rolls it back). Returns its 'pre-committed' entry, or -1 for an empty one (not prepared).
   */
  protected xaPrepareAtDatabase(xid: number, ckpt: number, _c: undefined, m: EntryId): EntryId {
    const rows = this.sink!.xaPrepare(xid);
    return rows > 0
      ? traceCheckpoint(this.sink!, m, 'pre-committed', ckpt, { txn: xid, count: rows })
      : NO_ENTRY;
  }

  /** The answer to PREPARE of `xid`, for barrier `bar`: keep it pending, open the next epoch, acknowledge. */
  protected xaPrepared(bar: BarrierInHand, xid: number, _c: undefined, r: XaAnswer<EntryId>): void {
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

  /** At the database: COMMIT PREPARED `xid` of checkpoint `ckpt` ({@link commitXa}). */
  protected xaCommitAtDatabase(xid: number, ckpt: number, _c: undefined, m: EntryId): boolean {
    return this.commitXa(xid, ckpt, m);
  }

  /** The answer to COMMIT PREPARED of `p`. */
  protected xaCommitAnswered(
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

  /** Acknowledge a barrier's snapshot to the JobManager (flinkCheckpoint.ts). */
  protected abstract ackBarrier(
    snapshot: BarrierSnapshot,
    pending: PendingCommit[],
    c: EntryId,
  ): void;
}
