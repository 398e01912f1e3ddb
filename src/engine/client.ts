/**
 * A Kafka producer client living inside a process (the source application, a consumer loop's
 * output, a Flink KafkaSink). It owns batching, retries, idempotence and the transaction calls.
 *
 * Behaviour per the Java client's documentation (https://kafka.apache.org/documentation/#producerconfigs,
 * KafkaProducer javadoc):
 * - records gather into one batch per partition until `batch.size` bytes or `linger.ms`;
 * - at most `max.in.flight.requests.per.connection` requests wait per broker;
 * - a request unanswered after `request.timeout.ms` is retried after `retry.backoff.ms` ("this
 *   automatic retry will simply resend the same record"), up to `retries` times, and a record not
 *   acknowledged within `delivery.timeout.ms` of its send() fails;
 * - a broker process crash closes the connection to it: the requests in flight on it fail one
 *   network latency later with NETWORK_EXCEPTION and take the same retry path; batches for a
 *   broker that is down wait while the client's connection attempts are refused
 *   (`reconnect.backoff.ms`), see src/engine/connections.ts;
 * - with idempotence each batch carries (producer id, epoch, sequence) so the broker appends a
 *   retried batch once; a sequence gap on the broker (OUT_OF_ORDER_SEQUENCE_NUMBER for the next
 *   batch in line) makes an idempotent producer bump its epoch and number its batches from 0 —
 *   only once no other batch of the partition is unresolved, so a batch the broker may hold is
 *   never renumbered (KIP-360) — and a transactional one abort the transaction (the abort bumps
 *   the epoch); with `acks=0` nothing is awaited and nothing is retried;
 * - transactions: `initTransactions` fences older instances, `commitTransaction` flushes then ends
 *   the transaction, `sendOffsetsToTransaction` makes consumer offsets part of it.
 */
import type { TxnRecord } from './broker/cluster';
import { errorIndex } from './broker/cluster';
import { TXN_API, type ErrorCode } from './trace';
import { ADD_PARTITIONS_RETRY_BACKOFF_MS } from './clientConfig';
import { ClientProducerId } from './clientProducerId';
import type { Asked } from './txnRequest';
import { call, run, type Callback } from './core/call';
import { writeCommitFailed, writeTxnReject } from './traceWriters';
import type { EntryId } from './ids';

export { outputClientConfig, retryBackoff, sourceClientConfig } from './clientConfig';
export type { RecordListener } from './clientBatches';

/** The offsets of a sendOffsetsToTransaction, and who waits for its answer. */
interface OffsetsRequest {
  groupId: string;
  stillMember: Callback<void, void, boolean>;
  offsets: { topic: number; partition: number; offset: number }[];
  done: Callback<boolean, EntryId>;
}

/** A commitTransaction / abortTransaction in progress. */
interface EndRequest {
  commit: boolean;
  cause: EntryId;
  done: Callback<boolean, EntryId>;
  hooks: EndHooks;
  /** The owner's incarnation that asked. */
  inc: number;
  /** Decided once the records are flushed: commit, bump the epoch after, the transaction. */
  doCommit: boolean;
  bump: boolean;
  txn: TxnRecord | null;
  epoch: number;
}

/** `beforeEnd` runs just before the EndTxn request leaves (true: it does not); `afterSent` just after. */
export interface EndHooks {
  beforeEnd?: Callback<EntryId, void, boolean>;
  afterSent?: Callback<EntryId>;
}

/** A producer client bound to one owner process and one topic. */
export class ProducerClient extends ClientProducerId {
  /** Who waits for the coordinator to begin the current transaction ({@link whenTxnBegun}). */
  private beginWaiters: Callback<EntryId>[] = [];

  // ------------------------------------------------------------------ transactions

  /**
   * `beginTransaction()`: local only. The coordinator hears of the transaction with its first
   * partition or offsets (AddPartitionsToTxn / AddOffsetsToTxn), and its timeout clock starts then.
   */
  beginTransaction(): boolean {
    if (!this.cfg.transactionalId || this.fatalError || this.inTransaction) return false;
    this.inTransaction = true;
    this.txn = null;
    this.txnError = null;
    return true;
  }

  /**
   * The coordinator's record of the current transaction, registering it on first use: the first
   * record sent in it (AddPartitionsToTxn, `api`) or its offsets (AddOffsetsToTxn). The
   * coordinator accepting it at once, its round trip is not modelled. While the transactional
   * id's previous transaction is still completing (PrepareCommit / PrepareAbort: a marker waits
   * for a partition leader) it refuses with CONCURRENT_TRANSACTIONS — EndTxn was answered as soon
   * as the decision was logged, the markers come after (TransactionCoordinator.endTransaction:
   * "we can respond to the client immediately and continue to write the txn markers";
   * handleAddPartitionsToTransaction: PrepareCommit | PrepareAbort → CONCURRENT_TRANSACTIONS,
   * https://github.com/apache/kafka/blob/trunk/core/src/main/scala/kafka/coordinator/transaction/TransactionCoordinator.scala).
   * Then the transaction is numbered but 'Empty', its records wait in the accumulator, and the
   * request goes to the coordinator and again once that transaction has completed
   * ({@link beginAfterCompletion}).
   */
  protected override ensureTxn(
    cause: EntryId,
    api: number = TXN_API.AddPartitionsToTxn,
  ): TxnRecord | null {
    if (this.txn) return this.txn;
    const coord = this.cluster.coordinator;
    const tid = this.cfg.transactionalId!;
    if (!coord.isCurrent(tid, this.epoch)) {
      this.fatal('PRODUCER_FENCED', cause);
      return null;
    }
    if (this.cluster.markers.completing(tid)) {
      const rec = this.cluster.newTxn(tid, this.pid, this.epoch);
      rec.state = 'Empty';
      this.txn = rec;
      this.beginAfterCompletion(rec, api, cause);
      return rec;
    }
    this.txn = coord.beginTxn(tid, this.cfg.transactionTimeoutMs, cause);
    return this.txn;
  }

  /**
   * AddPartitionsToTxn / AddOffsetsToTxn (`api`) for transaction `rec`, refused with
   * CONCURRENT_TRANSACTIONS while the previous transaction completes and sent again after it has
   * ({@link TxnRequest}): after 20 ms for AddPartitionsToTxn (the Java client's
   * ADD_PARTITIONS_RETRY_BACKOFF_MS for a transaction's first one), retry.backoff.ms for
   * AddOffsetsToTxn (AddOffsetsToTxnHandler re-enqueues it as is). Accepted, the coordinator
   * begins `rec` (Ongoing; its transaction.timeout.ms runs from then) and the held batches go.
   * Refused with PRODUCER_FENCED when a newer instance has bumped the epoch since. Abandoned when
   * the application ends the transaction first (its records expired meanwhile).
   */
  private beginAfterCompletion(rec: TxnRecord, api: number, cause: EntryId): void {
    this.coordinatorTrip<ErrorCode>(
      api,
      rec.no,
      cause,
      call(this, this.askBegin, rec, this.epoch),
      call(this, this.begun),
      api === TXN_API.AddPartitionsToTxn
        ? Math.min(this.cfg.retryBackoffMs, ADD_PARTITIONS_RETRY_BACKOFF_MS)
        : this.cfg.retryBackoffMs,
      call(this, this.superseded, rec),
    );
  }

  /** AddPartitionsToTxn / AddOffsetsToTxn for `rec` at the coordinator (arrived at `e`). */
  private askBegin(rec: TxnRecord, epoch: number, _c: undefined, e: EntryId): Asked<ErrorCode> {
    const coord = this.cluster.coordinator;
    const tid = this.cfg.transactionalId!;
    if (!coord.isCurrent(tid, epoch)) {
      const code: ErrorCode = 'PRODUCER_FENCED';
      const r = writeTxnReject(
        this.world.trace,
        this.world.now,
        coord.id,
        e,
        errorIndex(code),
        rec.no,
      );
      return { result: code, cause: r };
    }
    if (this.cluster.markers.completing(tid))
      return { result: 'NONE', cause: coord.concurrent(e).entry, retry: true };
    coord.beginTxn(tid, this.cfg.transactionTimeoutMs, e, rec);
    return { result: 'NONE', cause: e };
  }

  /** The coordinator began the transaction (or fenced this producer), at `e2`. */
  private begun(_a: undefined, _b: undefined, _c: undefined, code: ErrorCode, e2: EntryId): void {
    const waiters = this.beginWaiters;
    this.beginWaiters = [];
    if (code !== 'NONE') this.fatal('PRODUCER_FENCED', e2);
    else this.drain();
    for (const f of waiters) run(f, e2);
  }

  /** Whether `rec` is no longer the current transaction (the application ended it first). */
  private superseded(rec: TxnRecord): boolean {
    return this.txn !== rec;
  }

  /**
   * Run `fn` once the coordinator has begun the current transaction (at once if it has), with
   * the entry that began it.
   */
  private whenTxnBegun(cause: EntryId, fn: Callback<EntryId>): void {
    if (this.txn?.state === 'Empty') this.beginWaiters.push(fn);
    else run(fn, cause);
  }

  /**
   * `sendOffsetsToTransaction(offsets, groupMetadata)`: the offsets "will be considered committed
   * only if the transaction is committed successfully". A round trip to the coordinator, which
   * checks the consumer's group membership (`stillMember`, KIP-447 fencing) and the producer epoch.
   * A repeated request stores the same offsets again ({@link Coordinator.addOffsets}).
   */
  sendOffsetsToTransaction(
    groupId: string,
    stillMember: Callback<void, void, boolean>,
    offsets: { topic: number; partition: number; offset: number }[],
    cause: EntryId,
    done: Callback<boolean, EntryId>,
  ): void {
    const txn = this.inTransaction ? this.ensureTxn(cause, TXN_API.AddOffsetsToTxn) : null;
    if (!txn) return run(done, false, cause);
    const req: OffsetsRequest = { groupId, stillMember, offsets, done };
    // AddOffsetsToTxn refused while the previous transaction completes: TxnOffsetCommit follows
    // once the coordinator has begun this one.
    if (txn.state === 'Empty')
      return this.whenTxnBegun(cause, call(this, this.offsetsAfterBegin, req));
    this.coordinatorTrip(
      TXN_API.TxnOffsetCommit,
      txn.no,
      cause,
      call(this, this.askOffsets, req, txn),
      done,
    );
  }

  /** The transaction `req` waited for has begun (at `c`): its offsets go now. */
  private offsetsAfterBegin(req: OffsetsRequest, _b: undefined, _c: undefined, c: EntryId): void {
    if (this.fatalError) run(req.done, false, c);
    else this.sendOffsetsToTransaction(req.groupId, req.stillMember, req.offsets, c, req.done);
  }

  /** TxnOffsetCommit at the coordinator (arrived at `e`). */
  private askOffsets(
    req: OffsetsRequest,
    txn: TxnRecord,
    _c: undefined,
    e: EntryId,
  ): Asked<boolean> {
    const w = this.world;
    const coord = this.cluster.coordinator;
    const { offsets } = req;
    const ok =
      txn.state === 'Ongoing' &&
      run(req.stillMember) &&
      coord.isCurrent(this.cfg.transactionalId!, this.epoch);
    if (ok) coord.addOffsets(txn, req.groupId, offsets);
    else
      writeCommitFailed(
        w.trace,
        w.now,
        coord.id,
        e,
        offsets[0]?.topic ?? -1,
        offsets[0]?.partition ?? -1,
        offsets[0]?.offset ?? -1,
        errorIndex('COMMIT_FAILED'),
      );
    return { result: ok, cause: e };
  }

  /**
   * `commitTransaction()` (or `abortTransaction()` with commit=false): flush, then EndTxn.
   * `beforeEnd` runs just before the EndTxn request leaves (a crash point); `afterSent` just after.
   * EndTxn is resent until answered ({@link TxnRequest}); the coordinator answers a repeated EndTxn
   * for a transaction it has already completed with the same outcome at the same epoch with
   * success, as Kafka's TransactionCoordinator does (CompleteCommit + COMMIT, CompleteAbort +
   * ABORT → NONE; PrepareCommit + COMMIT, PrepareAbort + ABORT → CONCURRENT_TRANSACTIONS, in
   * `endTransaction`):
   * https://github.com/apache/kafka/blob/trunk/core/src/main/scala/kafka/coordinator/transaction/TransactionCoordinator.scala
   */
  endTransaction(
    commit: boolean,
    cause: EntryId,
    done: Callback<boolean, EntryId>,
    hooks: EndHooks = {},
  ): void {
    if (!this.inTransaction) return run(done, false, cause);
    const end: EndRequest = {
      commit,
      cause,
      done,
      hooks,
      inc: this.owner.incarnation,
      doCommit: false,
      bump: false,
      txn: null,
      epoch: -1,
    };
    this.flush(call(this, this.endAfterFlush, end));
  }

  /** Every record of the transaction has settled: EndTxn (or a local end, or a claim). */
  private endAfterFlush(end: EndRequest): void {
    const { cause, hooks } = end;
    if (this.owner.incarnation !== end.inc || !this.owner.alive) return;
    end.doCommit = end.commit && this.txnError === null && this.fatalError === null;
    if (hooks.beforeEnd && run(hooks.beforeEnd, cause)) return;
    // A send was refused for the epoch the timeout bumped: no EndTxn, the epoch is claimed.
    if (this.txnError === 'INVALID_PRODUCER_EPOCH' && this.epochTimedOut())
      return this.claimEpoch(cause, end.done);
    // A batch of this transaction failed (an abortable error): Kafka's TransactionManager sets
    // epochBumpRequired, and abortTransaction() follows the EndTxn with an InitProducerId that
    // bumps the epoch, so the next transaction numbers its batches from 0 again — the failed
    // batch's sequences are never written (KIP-360; maybeTransitionToErrorState,
    // beginCompletingTransaction in
    // https://github.com/apache/kafka/blob/trunk/clients/src/main/java/org/apache/kafka/clients/producer/internals/TransactionManager.java).
    end.bump = this.txnError !== null && this.fatalError === null;
    const txn = this.txn;
    if (!txn || txn.state === 'Empty') {
      // Nothing was sent in it, or the coordinator never began it (its records expired while
      // AddPartitionsToTxn was refused): the coordinator never heard of it; ending it is local,
      // and its pending AddPartitionsToTxn is not sent again.
      this.txn = null;
      this.beginWaiters = [];
      this.inTransaction = false;
      this.ended(end, cause);
      return;
    }
    end.txn = txn;
    end.epoch = this.epoch;
    this.coordinatorTrip<ErrorCode>(
      TXN_API.EndTxn,
      txn.no,
      cause,
      call(this, this.askEnd, end),
      call(this, this.endAnswered, end),
    );
    if (hooks.afterSent) run(hooks.afterSent, cause);
  }

  /** The transaction ended (at `c`): the epoch bumped first if a batch of it failed. */
  private ended(end: EndRequest, c: EntryId): void {
    if (end.bump) this.bumpEpoch(c, end.done);
    else run(end.done, end.doCommit, c);
  }

  /** EndTxn at the coordinator (arrived at `e`). */
  private askEnd(end: EndRequest, _b: undefined, _c: undefined, e: EntryId): Asked<ErrorCode> {
    const coord = this.cluster.coordinator;
    const tid = this.cfg.transactionalId!;
    const { txn, epoch, doCommit } = end;
    const current = coord.isCurrent(tid, epoch);
    if (current && txn!.state === 'Ongoing') {
      coord.endTxn(txn!, doCommit, e);
      return { result: 'NONE', cause: e };
    }
    // A repeated EndTxn (the answer to the first was lost): the outcome stands — or, its
    // markers not all written yet, will stand: CONCURRENT_TRANSACTIONS, ask again.
    if (current && txn!.state === (doCommit ? 'CompleteCommit' : 'CompleteAbort'))
      return { result: 'NONE', cause: e };
    if (current && txn!.state === (doCommit ? 'PrepareCommit' : 'PrepareAbort'))
      return { result: 'NONE', cause: coord.concurrent(e).entry, retry: true };
    // The coordinator aborted it on timeout: INVALID_PRODUCER_EPOCH, abortable (KIP-588).
    const timedOut = coord.timedOutAt(tid, epoch);
    const code: ErrorCode = timedOut ? 'INVALID_PRODUCER_EPOCH' : 'PRODUCER_FENCED';
    const w = this.world;
    const r = writeTxnReject(w.trace, w.now, coord.id, e, errorIndex(code), txn!.no);
    return { result: code, cause: r };
  }

  /** EndTxn's answer `code`, at `e2`. */
  private endAnswered(
    end: EndRequest,
    _b: undefined,
    _c: undefined,
    code: ErrorCode,
    e2: EntryId,
  ): void {
    if (code === 'INVALID_PRODUCER_EPOCH') return this.claimEpoch(e2, end.done);
    if (code !== 'NONE') {
      this.fatal('PRODUCER_FENCED', e2);
      return run(end.done, false, e2);
    }
    if (this.txn === end.txn) {
      this.txn = null;
      this.inTransaction = false;
    }
    this.ended(end, e2);
  }
}
