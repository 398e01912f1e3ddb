/**
 * One request of a producer client to the transaction coordinator (InitProducerId,
 * AddPartitionsToTxn, AddOffsetsToTxn, TxnOffsetCommit, EndTxn), sent until it is answered.
 * `ask` runs at the coordinator at each arrival and gives the result and the entry its answer
 * follows from; `answer` runs at the producer, in the incarnation that asked, with the first answer
 * that arrives — unless it is a retriable refusal (`retry`: CONCURRENT_TRANSACTIONS, the
 * transactional id's last transaction still completing), which the client re-enqueues: the request
 * goes again `retry.backoff.ms` (`backoffMs`) after that transaction has completed. A request
 * unanswered after `request.timeout.ms` has its connection closed — an answer still on its way is
 * never read — and is sent again after `retry.backoff.ms`, as the client's TransactionManager
 * re-enqueues a transactional request whose connection dropped ("Disconnected from … Will retry")
 * for as long as it takes. The application's blocking call (initTransactions,
 * sendOffsetsToTransaction, commitTransaction) throws TimeoutException after `max.block.ms` (60 s)
 * meanwhile, and "It is safe to retry" it: the retried call waits for the same request's result,
 * so the model, whose applications retry, just waits. The coordinator answers a repeated request as
 * it answered the first (see the callers), so only the timing changes. (Looking the coordinator up
 * again after a disconnect is not modelled: it is always available.) KafkaProducer javadoc
 * (commitTransaction, initTransactions): https://kafka.apache.org/documentation/#producerapi;
 * TransactionManager.TxnRequestHandler:
 * https://github.com/apache/kafka/blob/trunk/clients/src/main/java/org/apache/kafka/clients/producer/internals/TransactionManager.java
 *
 * The request, each attempt and what runs at each end are held as data (records and
 * {@link Callback}s), so a snapshot of the run copies them (docs/ARCHITECTURE.md, "Pending work
 * and forks").
 */
import type { Actor, Carry, Timer } from './world';
import type { Cluster } from './broker/cluster';
import { errorIndex } from './broker/cluster';
import { call, run, type Callback } from './core/call';
import { writeTxnReject } from './traceWriters';
import { NO_EVENT, type EntryId } from './ids';

/** What the coordinator makes of a request: the result, the entry the answer follows from. */
export interface Asked<R> {
  result: R;
  cause: EntryId;
  /** A retriable refusal (CONCURRENT_TRANSACTIONS): asked again once the last transaction completed. */
  retry?: boolean;
}

/** One attempt of a {@link TxnRequest}: its message, its timer, what the coordinator answered. */
interface Attempt<R> {
  closed: boolean;
  timer: Timer | null;
  asked: Asked<R> | null;
}

/** The settings and parties of a {@link TxnRequest}. */
export interface TxnRequestSpec<R> {
  owner: Actor;
  cluster: Cluster;
  transactionalId: string | null;
  /** The API (a TXN_API code) and the transaction number the messages carry (-1: none). */
  api: number;
  txn: number;
  requestTimeoutMs: number;
  retryBackoffMs: number;
  /** The wait after a CONCURRENT_TRANSACTIONS refusal's transaction has completed. */
  backoffMs: number;
  ask: Callback<EntryId, void, Asked<R>>;
  answer: Callback<R, EntryId>;
  /** Checked before each attempt: true ends the request unanswered (no longer wanted). */
  stale: Callback<void, void, boolean> | null;
}

/** A request to the transaction coordinator, resent until answered (see the file's comment). */
export class TxnRequest<R> {
  /** Answered, or no longer wanted: nothing more is sent or read. */
  private over = false;
  /** The owner's incarnation that asked. */
  private readonly inc: number;

  constructor(private readonly spec: TxnRequestSpec<R>) {
    this.inc = spec.owner.incarnation;
  }

  /** What its messages carry: the API (in `count`) and the transaction. */
  private carry(): Carry {
    const { owner, api, txn } = this.spec;
    return owner.world.carry(NO_EVENT, -1, -1, -1, api, txn);
  }

  /** Send the request (again), following from `cause`. */
  send(cause: EntryId): void {
    const { owner, cluster, stale } = this.spec;
    // The request is no longer wanted (the application moved on): not sent again.
    if (stale && run(stale)) {
      this.over = true;
      return;
    }
    const w = owner.world;
    const at: Attempt<R> = { closed: false, timer: null, asked: null };
    const arrived = call(this, this.arrived, at);
    const m = w.send(owner, cluster.coordinator, 'txn-request', cause, this.carry(), arrived);
    at.timer = w.scheduleCall(this.spec.requestTimeoutMs, owner, this, this.timedOut, at, m);
  }

  /** The request reaches the coordinator (message entry `e`): it answers. */
  private arrived(at: Attempt<R>, _b: undefined, _c: undefined, e: EntryId): void {
    const { owner, cluster } = this.spec;
    const r = run(this.spec.ask, e);
    at.asked = r;
    const back = call(this, this.answered, at);
    const carry = this.carry();
    owner.world.sendMessage(
      cluster.coordinator,
      owner,
      this.inc,
      'txn-response',
      r.cause,
      carry,
      back,
      undefined,
    );
  }

  /** The answer reaches the client (message entry `e`). */
  private answered(at: Attempt<R>, _b: undefined, _c: undefined, e: EntryId): void {
    if (at.closed || this.over) return;
    const w = this.spec.owner.world;
    if (at.timer) w.cancel(at.timer);
    const r = at.asked!;
    if (r.retry) {
      at.closed = true;
      // The client asks again every backoff (retry.backoff.ms; 20 ms for a first
      // AddPartitionsToTxn) until the transaction has completed; the model asks once,
      // one backoff after it has — the same outcome (up to one backoff of timing),
      // without a refusal in the trace every backoff while a partition is offline.
      const tid = this.spec.transactionalId!;
      this.spec.cluster.markers.whenCompleted(tid, call(this, this.completed, e));
      return;
    }
    this.over = true;
    run(this.spec.answer, r.result, e);
  }

  /** The transaction that made the coordinator refuse (at `e`) has completed: ask again later. */
  private completed(e: EntryId): void {
    const owner = this.spec.owner;
    if (this.over || owner.incarnation !== this.inc) return;
    owner.world.scheduleCall(this.spec.backoffMs, owner, this, this.retry, e);
  }

  /** `request.timeout.ms` after attempt `at` (message `m`) left, unanswered: asked again later. */
  private timedOut(at: Attempt<R>, m: EntryId): void {
    at.timer = null;
    if (this.over) return;
    at.closed = true;
    const { owner, retryBackoffMs } = this.spec;
    const w = owner.world;
    const rej = writeTxnReject(
      w.trace,
      w.now,
      owner.id,
      m,
      errorIndex('REQUEST_TIMED_OUT'),
      this.spec.txn,
    );
    w.scheduleCall(retryBackoffMs, owner, this, this.retry, rej);
  }

  private retry(cause: EntryId): void {
    if (!this.over) this.send(cause);
  }
}
