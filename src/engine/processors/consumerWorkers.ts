/**
 * A consumer loop's records processed one on their own: a hand-off worker thread's queue
 * (poll() returns at once) and a parallel pool's tasks (records finish out of order; only the
 * contiguous prefix is committed). One layer of the loop's class (see consumerMembership.ts),
 * split for size.
 */
import { ConsumerBatches } from './consumerBatch';
import type { PartState } from './consumerCommits';
import { call } from '../core/call';
import { answer, reply, type Reply } from '../reply';
import type { ErrorCode } from '../trace';
import type { EntryId } from '../ids';
import type { Rec } from './consumer';

/** A consumer loop's hand-off worker and parallel tasks. */
export abstract class ConsumerWorkers extends ConsumerBatches {
  protected workerBusy = false;
  /** parallel mode: records in flight. */
  protected inflight = 0;

  /** At-most-once with a worker: the batch's offsets are committed; hand it over. */
  protected committedBeforeHandOff(
    batch: Rec[],
    _b: undefined,
    _c: undefined,
    ok: boolean,
    c: EntryId,
  ): void {
    this.busy = false;
    if (!ok) return this.afterCommitFailed(c);
    if (this.world.faults.crashPoint(this, this.targetName, 'after-commit', c)) return;
    this.handOff(batch, c);
  }

  /** poll() returns at once: the worker processes later; the loop polls again. */
  protected handOff(batch: Rec[], c: EntryId): void {
    this.workerQueue.push(...batch);
    this.runWorker(c);
    this.later(0, this.loop, c);
  }

  /**
   * One record on its own — a hand-off worker's or a parallel pool's task: its processing, then
   * its statement, with `onStatementError` applied as a sync batch applies it ({@link
   * runRecords}, {@link endSyncBatch}): a failed processing step (a per-record statement, a side
   * effect) is retried from the processing, a failed batch statement alone; `done` gets whether
   * the record was written (false: skipped). A revoke does not stop the task, retries included
   * (see {@link startParallel}); a crash does, with the incarnation.
   */
  private runAlone(r: Rec, cause: EntryId, done: Reply<boolean>): void {
    const processed = reply(this, this.aloneProcessed, r, done);
    this.processRecord(r, this.nextDuration(), cause, processed);
  }

  /** A record on its own is processed: its statement next (or its processing again). */
  private aloneProcessed(
    r: Rec,
    done: Reply<boolean>,
    _c: undefined,
    error: ErrorCode,
    c: EntryId,
  ): void {
    if (error !== 'NONE')
      return this.onStatementError(
        [r],
        error,
        c,
        call(this, this.runAlone, r, c, done),
        call(this, this.skipAlone, done),
      );
    this.endAlone(r, done, c);
  }

  /** A record on its own: its batch statement. */
  private endAlone(r: Rec, done: Reply<boolean>, c: EntryId): void {
    this.output.end(this.instance, [r], c, reply(this, this.aloneWritten, r, done));
  }

  private aloneWritten(
    r: Rec,
    done: Reply<boolean>,
    _c: undefined,
    error: ErrorCode,
    c: EntryId,
  ): void {
    if (error !== 'NONE')
      return this.onStatementError(
        [r],
        error,
        c,
        call(this, this.endAlone, r, done, c),
        call(this, this.skipAlone, done),
      );
    answer(done, true, c);
  }

  /** A record on its own is skipped (`onStatementError: skip`): not written. */
  private skipAlone(done: Reply<boolean>, _b: undefined, _c: undefined, e: EntryId): void {
    answer(done, false, e);
  }

  // handoff mode: a worker thread processes what poll() handed over
  private runWorker(cause: EntryId): void {
    if (this.workerBusy || this.workerQueue.length === 0) return;
    this.workerBusy = true;
    const r = this.workerQueue.shift()!;
    this.runAlone(r, cause, reply(this, this.workerDone, r));
  }

  /** The worker is done with `r` (written or skipped). */
  private workerDone(r: Rec, _b: undefined, _c: undefined, _written: boolean, c2: EntryId): void {
    this.workerBusy = false;
    if (this.world.faults.processedRecords(this, this.targetName, 1, c2)) return;
    if (this.world.faults.crashPoint(this, this.targetName, 'mid-batch', c2, 1)) return;
    // At-least-once with a worker: the worker hands each finished offset back to the poll
    // thread, which commits it (commitAsync) — only what was processed (or skipped) is ever
    // committed (the javadoc's second option, decoupling consumption and processing, where
    // committing needs the threads to co-ordinate: the same source as above).
    const s = this.parts.get(r.partition);
    if (
      s &&
      !this.cfg.autoCommit &&
      this.cfg.commit === 'after-processing' &&
      r.offset + 1 > s.requested
    ) {
      s.requested = r.offset + 1;
      this.commitAsync([{ partition: r.partition, offset: s.requested }], c2);
    }
    this.runWorker(c2);
    if (this.workerQueue.length === 0) this.loop(c2);
  }

  // parallel mode: records finish out of order; only the contiguous prefix is committed
  protected startParallel(r: Rec, cause: EntryId): void {
    const s = this.parts.get(r.partition);
    if (!s) return;
    this.inflight++;
    s.started.add(r.offset);
    // A revoke does not stop a task already running in the application's pool: it finishes and
    // writes (the KafkaConsumer javadoc leaves waiting for or cancelling it to the application's
    // onPartitionsRevoked); only its offset is no longer this member's to commit.
    this.runAlone(r, cause, reply(this, this.parallelDone, r, s));
  }

  /** A parallel task is done with `r` (written or skipped). */
  private parallelDone(r: Rec, s: PartState, _c: undefined, _written: boolean, c2: EntryId): void {
    this.inflight--;
    if (!(this.parts.get(r.partition) === s && s.started.has(r.offset))) return this.loop(c2);
    s.started.delete(r.offset);
    // Written or skipped (onStatementError=skip), the record is done with: the prefix moves on.
    s.done.add(r.offset);
    if (this.world.faults.processedRecords(this, this.targetName, 1, c2)) return;
    // Commit the contiguous prefix of finished offsets, once per new value.
    const o = this.committable(s);
    if (o > s.requested) {
      s.requested = o;
      this.commitAsync([{ partition: r.partition, offset: o }], c2);
    }
    this.loop(c2);
  }
}
