/**
 * The producer client's producer id and epoch: InitProducerId to get them (`init`:
 * `initTransactions`, or an idempotent producer's id), to claim the epoch the coordinator bumped
 * when it aborted a transaction on timeout (KIP-588), and to bump it after an aborted transaction
 * with a failed batch (KIP-360); and the requests to the coordinator ({@link TxnRequest}) that
 * carry them. The transactions themselves are {@link ProducerClient}'s (client.ts).
 * https://kafka.apache.org/documentation/#producerapi
 */
import { TXN_API, type ErrorCode } from './trace';
import { ClientRequests } from './clientRequests';
import { TxnRequest, type Asked } from './txnRequest';
import { call, run, stateless, type Callback } from './core/call';
import type { EntryId } from './ids';

/** What `init` runs on a refusal when its caller gives nothing: nothing. */
const ignore = stateless(function ignore(): void {});

/** A producer client's producer id and epoch (see {@link ProducerClient}). */
export abstract class ClientProducerId extends ClientRequests {
  /**
   * Get a producer id (idempotent) or run `initTransactions` (transactional): one round trip to
   * the coordinator. Calls `onReady` in the owner's current incarnation — or, when the coordinator
   * refuses (INVALID_TRANSACTION_TIMEOUT: initTransactions throws — "If a client's requested
   * transaction time exceed this, then the broker will return an error in InitProducerIdRequest",
   * https://kafka.apache.org/documentation/#brokerconfigs_transaction.max.timeout.ms), sets
   * {@link fatalError} and calls `onError` instead.
   */
  init(
    cause: EntryId,
    onReady: Callback<EntryId>,
    onError: Callback<ErrorCode, EntryId> = call(undefined, ignore),
  ): void {
    if (!this.cfg.idempotent) {
      this.ready = true;
      run(onReady, cause);
      return;
    }
    this.initProducerIdTrip(
      cause,
      call(this, this.askProducerId),
      call(this, this.producerIdAnswered, onReady, onError),
    );
  }

  /** InitProducerId at the coordinator (arrived at `e`). */
  private askProducerId(_a: undefined, _b: undefined, _c: undefined, e: EntryId) {
    const coord = this.cluster.coordinator;
    const r = coord.initProducerId(this.cfg.transactionalId, this.cfg.transactionTimeoutMs, e);
    return r.error === 'CONCURRENT_TRANSACTIONS'
      ? { result: r, cause: r.entry ?? e, retry: true }
      : { result: r, cause: e };
  }

  /** InitProducerId's answer `r` (at `e2`): the client is ready, or failed for good. */
  private producerIdAnswered(
    onReady: Callback<EntryId>,
    onError: Callback<ErrorCode, EntryId>,
    _c: undefined,
    r: { pid: number; epoch: number; error: ErrorCode },
    e2: EntryId,
  ): void {
    if (r.error !== 'NONE') {
      this.fatalError = r.error;
      run(onError, r.error, e2);
      return;
    }
    this.pid = r.pid;
    this.epoch = r.epoch;
    this.seqEpoch.fill(r.epoch);
    this.ready = true;
    run(onReady, e2);
    this.drain();
  }

  /**
   * `abortTransaction()` after the coordinator aborted the transaction on timeout: InitProducerId
   * with the current id and epoch, which hands this producer the bumped epoch (KIP-588, "user
   * should abort the ongoing transaction by calling KafkaProducer#abortTransaction which would try
   * to send initPidRequest and reinitialize the producer"); the producer then begins the next
   * transaction. Fenced instead when another instance has started since.
   * https://kafka.apache.org/42/javadoc/org/apache/kafka/common/errors/InvalidProducerEpochException.html
   */
  protected claimEpoch(cause: EntryId, done: Callback<boolean, EntryId>): void {
    this.initProducerIdTrip(
      cause,
      call(this, this.askClaim, this.epoch),
      call(this, this.claimAnswered, done),
    );
  }

  /** InitProducerId after a timeout at the coordinator (arrived at `e`). */
  private askClaim(epoch: number, _b: undefined, _c: undefined, e: EntryId): Asked<number> {
    const tid = this.cfg.transactionalId!;
    const coord = this.cluster.coordinator;
    // The aborted transaction's markers are still being written: CONCURRENT_TRANSACTIONS.
    if (this.cluster.markers.completing(tid))
      return { result: -1, cause: coord.concurrent(e).entry, retry: true };
    return { result: coord.claimAfterTimeout(tid, epoch), cause: e };
  }

  /** The claimed epoch `next` (-1: fenced), at `e2`; `done` hears the transaction aborted. */
  private claimAnswered(
    done: Callback<boolean, EntryId>,
    _b: undefined,
    _c: undefined,
    next: number,
    e2: EntryId,
  ): void {
    if (next < 0) {
      this.fatal('PRODUCER_FENCED', e2);
      return run(done, false, e2);
    }
    // A new epoch numbers its batches from 0 again (the queues are empty: flushed).
    this.epoch = next;
    this.seqEpoch.fill(next);
    this.nextSeq.fill(0);
    this.lastAckedSeq.fill(-1);
    this.txn = null;
    this.inTransaction = false;
    this.txnError = null;
    run(done, false, e2);
  }

  /**
   * After aborting a transaction that had a failed batch: InitProducerId with the current id and
   * epoch, which bumps the epoch (KIP-360), and the pending batches are numbered from 0 in it. Fenced when the coordinator no
   * longer knows this epoch (another instance started). `done` hears the transaction aborted, with the answer's entry.
   */
  protected bumpEpoch(cause: EntryId, done: Callback<boolean, EntryId>): void {
    this.initProducerIdTrip(
      cause,
      call(this, this.askBump, this.epoch),
      call(this, this.bumpAnswered, done),
    );
  }

  /** InitProducerId after an aborted transaction at the coordinator (arrived at `e`). */
  private askBump(epoch: number, _b: undefined, _c: undefined, e: EntryId): Asked<number> {
    const tid = this.cfg.transactionalId!;
    const coord = this.cluster.coordinator;
    if (!coord.isCurrent(tid, epoch)) return { result: -1, cause: e };
    const r = coord.initProducerId(tid, this.cfg.transactionTimeoutMs, e);
    // The abort's markers still wait for a partition leader: asked again once they are out.
    if (r.error === 'CONCURRENT_TRANSACTIONS')
      return { result: -1, cause: r.entry ?? e, retry: true };
    return { result: r.error === 'NONE' ? r.epoch : -1, cause: e };
  }

  /** The bumped epoch `next` (-1: fenced), at `e2`. */
  private bumpAnswered(
    done: Callback<boolean, EntryId>,
    _b: undefined,
    _c: undefined,
    next: number,
    e2: EntryId,
  ): void {
    if (next < 0) this.fatal('PRODUCER_FENCED', e2);
    else this.resequence(next);
    run(done, false, e2);
  }

  /**
   * One InitProducerId round trip ({@link TxnRequest}): a retried initTransactions bumps the epoch
   * again, and the epoch the producer gets is the newest; a retried claim after a timeout is
   * answered with the epoch already claimed ({@link Coordinator.claimAfterTimeout}).
   */
  private initProducerIdTrip<R>(
    cause: EntryId,
    ask: Callback<EntryId, void, Asked<R>>,
    answer: Callback<R, EntryId>,
  ): void {
    this.coordinatorTrip(TXN_API.InitProducerId, -1, cause, ask, answer);
  }

  /**
   * One request to the transaction coordinator (`api`: a {@link TXN_API}, about transaction
   * `txn`, -1: none), sent until it is answered ({@link TxnRequest}).
   */
  protected coordinatorTrip<R>(
    api: number,
    txn: number,
    cause: EntryId,
    ask: Callback<EntryId, void, Asked<R>>,
    answer: Callback<R, EntryId>,
    backoffMs: number = this.cfg.retryBackoffMs,
    stale: Callback<void, void, boolean> | null = null,
  ): void {
    new TxnRequest<R>({
      owner: this.owner,
      cluster: this.cluster,
      transactionalId: this.cfg.transactionalId,
      api,
      txn,
      requestTimeoutMs: this.cfg.requestTimeoutMs,
      retryBackoffMs: this.cfg.retryBackoffMs,
      backoffMs,
      ask,
      answer,
      stale,
    }).send(cause);
  }

  /**
   * A request to the transaction coordinator on the owner's behalf, outside any transaction of
   * this client (KafkaSink's recovery: re-commit the restored transactions, abort the lingering
   * ones), resent until it is answered like the client's own ({@link TxnRequest}).
   */
  coordinatorRequest<R>(
    api: number,
    cause: EntryId,
    ask: Callback<EntryId, void, Asked<R>>,
    answer: Callback<R, EntryId>,
  ): void {
    this.coordinatorTrip(api, -1, cause, ask, answer);
  }
}
