/**
 * A consumer loop's processing: a record's processing time and 'process' entry, and the sync
 * loop's batch — commit before (at-most-once), process and write each record, the batch's
 * statement, commit after (at-least-once) or with the output's transaction — with
 * `onStatementError` applied to a failed write. One layer of the loop's class (see
 * consumerMembership.ts), split for size.
 */
import { errorIndex } from '../broker/cluster';
import { ConsumerPolling } from './consumerPoll';
import { call, invoke, stateless, type Call } from '../core/call';
import { reply, type Reply } from '../reply';
import type { ErrorCode } from '../trace';
import { writeProcess, writeReject } from '../traceWriters';
import { NO_ENTRY, NO_EVENT, type EntryId } from '../ids';
import type { Rec } from './consumer';

/** What a buffered record's write answers (nothing waits for it: the batch's statement does). */
const ignored = reply(
  undefined,
  stateless(function ignore(): void {}),
);

/** Runs a held call as a task (a statement retried after its delay). */
const runHeld = stateless(function runHeld(this: undefined, k: Call<void>): void {
  invoke(k, undefined);
});

/** A consumer loop's record processing and sync batches. */
export abstract class ConsumerBatches extends ConsumerPolling {
  protected halted = false;
  /**
   * Halted because its producer could not begin a transaction (fenced, failed): the application
   * stopped while still a member of the group, so the partitions it holds are processed by nobody.
   */
  protected haltedHolding = false;
  private durationIndex = 0;

  /** Records take no virtual time: a batch is processed in one step. */
  private get instant(): boolean {
    return this.cfg.perRecordMs === 0 && !this.cfg.durationsMs?.length;
  }

  /** How long the next record takes: the next of `durationsMs` (cycling), else `perRecordMs`. */
  protected nextDuration(): number {
    const ds = this.cfg.durationsMs;
    return ds && ds.length > 0
      ? ds[this.durationIndex++ % ds.length]!
      : Math.ceil(this.cfg.perRecordMs);
  }

  /** The 'process' entry of a record (its processing attempt is this incarnation). */
  private traceProcess(r: Rec, cause: EntryId): EntryId {
    if (!this.cfg.traceProcessing) return cause;
    const w = this.world;
    return writeProcess(
      w.trace,
      w.now,
      this.id,
      cause,
      r.event,
      this.topic.index,
      r.partition,
      r.offset,
      1,
      this.incarnation,
    );
  }

  /** Process one record: its processing time, then its output. */
  protected processRecord(r: Rec, durationMs: number, cause: EntryId, done: Reply): void {
    this.later(durationMs, this.processNow, r, { cause, done });
  }

  /** A record's processing time is over: its 'process' entry, then its output. */
  private processNow(r: Rec, step: { cause: EntryId; done: Reply }): void {
    const e = this.traceProcess(r, step.cause);
    this.output.record(this.instance, r, e, step.done);
  }

  protected runSyncBatch(batch: Rec[], cause: EntryId): void {
    this.busy = true;
    if (!this.cfg.autoCommit && this.cfg.commit === 'before-processing') {
      const positions = this.positionsAfter(batch);
      this.commitSync(positions, cause, reply(this, this.committedBeforeBatch, batch));
    } else this.beginBatch(batch, cause);
  }

  /** At-most-once: the batch's offsets are committed before it is processed. */
  private committedBeforeBatch(
    batch: Rec[],
    _b: undefined,
    _c: undefined,
    ok: boolean,
    c: EntryId,
  ): void {
    if (!ok) return this.afterCommitFailed(c);
    if (this.world.faults.crashPoint(this, this.targetName, 'after-commit', c)) return;
    this.beginBatch(batch, c);
  }

  /** The batch's processing starts (in a transaction, for `with-transaction`). */
  private beginBatch(batch: Rec[], c: EntryId): void {
    if (
      this.cfg.commit === 'with-transaction' &&
      this.output.begin &&
      !this.output.begin(this.instance, c)
    ) {
      if (this.exitIfFenced()) return;
      this.halt();
      this.haltedHolding = true;
      return;
    }
    this.runRecords(batch, 0, c);
  }

  /** The cause the next record of a synchronous output follows from (see {@link runRecords}). */
  private followCause: EntryId = NO_ENTRY;
  private readonly follow = reply(this, this.followed);
  private followed(
    _a: undefined,
    _b: undefined,
    _c: undefined,
    _e: ErrorCode,
    next: EntryId,
  ): void {
    this.followCause = next;
  }

  private runRecords(batch: Rec[], i: number, cause: EntryId): void {
    // Records that take no virtual time and whose output is buffered (one statement per batch)
    // are processed in one step: the same trace, without a queue round trip per record.
    // Whether the records take no time and how the output writes: fixed for the loop's life.
    const instant = this.instant;
    const buffers = instant && this.output.buffersRecords === true;
    while (i < batch.length && buffers) {
      const r = batch[i]!;
      this.output.record(this.instance, r, this.traceProcess(r, cause), ignored);
      if (this.world.faults.crashPoint(this, this.targetName, 'mid-batch', cause, i + 1)) return;
      if (this.world.faults.processedRecords(this, this.targetName, 1, cause)) return;
      i++;
    }
    // The same for an output that writes at once (a reader's table): each record follows from the
    // previous one's write, as it would through the queue, without a task per record.
    const synchronous = instant && this.output.synchronous === true;
    while (i < batch.length && synchronous) {
      const r = batch[i]!;
      this.output.record(this.instance, r, this.traceProcess(r, cause), this.follow);
      cause = this.followCause;
      if (this.world.faults.crashPoint(this, this.targetName, 'mid-batch', cause, i + 1)) return;
      if (this.world.faults.processedRecords(this, this.targetName, 1, cause)) return;
      i++;
    }
    if (i === batch.length) return this.endSyncBatch(batch, cause);
    const done = reply(this, this.recordWritten, batch, i);
    this.processRecord(batch[i]!, this.nextDuration(), cause, done);
  }

  /** Record `i` of a sync batch is written (or failed). */
  private recordWritten(
    batch: Rec[],
    i: number,
    _c: undefined,
    error: ErrorCode,
    c: EntryId,
  ): void {
    if (error !== 'NONE')
      return this.onStatementError(
        batch,
        error,
        c,
        call(this, this.runRecords, batch, i, c),
        call(this, this.skipTo, batch, i + 1),
      );
    if (this.world.faults.crashPoint(this, this.targetName, 'mid-batch', c, i + 1)) return;
    if (this.world.faults.processedRecords(this, this.targetName, 1, c)) return;
    this.runRecords(batch, i + 1, c);
  }

  /** Go on with record `i`, skipping a failed one (`onStatementError: skip`). */
  private skipTo(batch: Rec[], i: number, _c: undefined, e: EntryId): void {
    this.runRecords(batch, i, e);
  }

  private endSyncBatch(batch: Rec[], cause: EntryId): void {
    this.output.end(this.instance, batch, cause, reply(this, this.batchWritten, batch));
  }

  /** The batch's output is written (or failed). */
  private batchWritten(
    batch: Rec[],
    _b: undefined,
    _c: undefined,
    error: ErrorCode,
    c: EntryId,
  ): void {
    if (error !== 'NONE')
      return this.onStatementError(
        batch,
        error,
        c,
        call(this, this.endSyncBatch, batch, c),
        call(this, this.finishSkipped, batch),
      );
    this.finishSyncBatch(batch, c);
  }

  /** Go on past a failed batch statement (`onStatementError: skip`). */
  private finishSkipped(batch: Rec[], _b: undefined, _c: undefined, e: EntryId): void {
    this.finishSyncBatch(batch, e);
  }

  /** After the batch's output: the crash point before the commit, then the commit per mode. */
  private finishSyncBatch(batch: Rec[], c: EntryId): void {
    if (this.world.faults.crashPoint(this, this.targetName, 'before-commit', c)) return;
    if (this.cfg.autoCommit || this.cfg.commit === 'before-processing') return this.nextBatch(c);
    const positions = this.positionsAfter(batch);
    if (this.cfg.commit === 'with-transaction')
      this.output.commit!(this.instance, positions, c, this.committedBatch);
    else this.commitSync(positions, c, this.committedBatch);
  }

  /** What a batch's commit answers: one for every batch, as it captures nothing. */
  private readonly committedBatch = reply(this, this.batchCommitted);

  /**
   * The batch's offsets are committed (or the commit failed). Right after a commit that
   * succeeded, before the next poll(), is the `after-commit` crash point, as it is after
   * commit-before-processing's commit — the page's "Crash after the commit" offers it for every
   * consumer loop; it never fired here. The restart resumes at the offset just committed, with
   * the batch written: nothing is replayed or skipped (docs/semantics/consumer.md), so the fault
   * atlas places no crash here (it would add a held placement per commit).
   */
  private batchCommitted(
    _a: undefined,
    _b: undefined,
    _c: undefined,
    ok: boolean,
    c: EntryId,
  ): void {
    if (!ok) return this.afterCommitFailed(c);
    if (this.world.faults.crashPoint(this, this.targetName, 'after-commit', c, 0, false)) return;
    this.nextBatch(c);
  }

  /** The sync batch is over: poll() again. */
  private nextBatch(c: EntryId): void {
    this.busy = false;
    this.disarmPollTimer();
    this.loop(c);
  }

  /**
   * A statement failed (an SQL error, or a timeout after the writer's retries): apply
   * `onStatementError` — stop, retry it after a second, or skip it and go on (its rows are lost,
   * unless the statement had in fact been applied).
   */
  protected onStatementError(
    batch: Rec[],
    error: ErrorCode,
    cause: EntryId,
    retry: Call<void>,
    skip: Call<EntryId>,
  ): void {
    const w = this.world;
    const e = writeReject(
      w.trace,
      w.now,
      this.id,
      cause,
      batch[0]?.event ?? NO_EVENT,
      this.topic.index,
      batch[0]?.partition ?? -1,
      batch[0]?.offset ?? -1,
      batch.length,
      errorIndex(error),
    );
    switch (this.cfg.onStatementError) {
      case 'halt':
        this.halt();
        return;
      case 'retry':
        w.scheduleCall(1000, this, undefined, runHeld, retry);
        return;
      case 'skip':
        invoke(skip, e);
        return;
    }
  }

  /** The application stops processing (a failed transaction start, a statement error with 'halt'). */
  private halt(): void {
    this.halted = true;
    this.disarmPollTimer();
  }

  protected positionsAfter(batch: Rec[]): { partition: number; offset: number }[] {
    // Per partition, in order of first appearance: the offset after its last record. A batch
    // holds runs of one partition's records, so the lookup is rarely needed.
    const out: { partition: number; offset: number }[] = [];
    // Indexed loops, no iterator or closure: this runs twice per batch, once per record.
    let cur: { partition: number; offset: number } | undefined;
    for (let i = 0; i < batch.length; i++) {
      const r = batch[i]!;
      if (cur?.partition !== r.partition) {
        cur = undefined;
        for (let k = 0; k < out.length; k++) if (out[k]!.partition === r.partition) cur = out[k];
        if (!cur) out.push((cur = { partition: r.partition, offset: 0 }));
      }
      if (r.offset + 1 > cur.offset) cur.offset = r.offset + 1;
    }
    return out;
  }
}
