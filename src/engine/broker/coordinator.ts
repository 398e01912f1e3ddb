/**
 * The group and transaction coordinator (one always-available actor): committed offsets, and
 * transactions from their first partition to their markers. The cluster is in cluster.ts.
 */
import type { EntryId } from '../ids';
import { Actor, type PendingWork, type World } from '../world';
import type { ErrorCode } from '../trace';
import { TXN_REASON_FENCED, TXN_REASON_REQUESTED, TXN_REASON_TIMEOUT } from '../trace';
import { writeFenced, writeTxn, writeTxnReject } from '../traceWriters';
import { call } from '../core/call';
import { errorIndex, type Cluster, type GroupState, type TxnRecord } from './cluster';

/**
 * Group coordinator and transaction coordinator (one always-available actor).
 * Offsets: https://kafka.apache.org/documentation/#consumerapi (commitSync, CommitFailedException).
 * Transactions: KafkaProducer javadoc (initTransactions, sendOffsetsToTransaction,
 * commitTransaction) and KIP-98.
 */
export class Coordinator extends Actor {
  readonly groups = new Map<string, GroupState>();
  /** transactional.id → producer id, epoch and the current transaction. */
  /**
   * transactional.id → its producer id, epoch and open transaction; `timedOut` is the epoch whose
   * transaction the coordinator aborted on timeout (KIP-588: that producer may claim the bumped
   * epoch and go on), or -1.
   */
  readonly producers = new Map<
    string,
    {
      pid: number;
      epoch: number;
      current: TxnRecord | null;
      timedOut: number;
      /** The epoch whose producer claimed the current one after a timeout, or -1. */
      claimedFrom: number;
    }
  >();

  constructor(
    world: World,
    readonly cluster: Cluster,
  ) {
    super(world, 'coordinator');
  }

  /**
   * The transactions still open when the run ends (src/engine/stuck.ts): begun and neither
   * committed nor aborted — their records hold back every read_committed reader of their
   * partitions (the last stable offset) until transaction.timeout.ms aborts them.
   */
  override pendingWork(): PendingWork[] {
    const out: PendingWork[] = [];
    for (const [tid, st] of this.producers) {
      const t = st.current;
      if (
        !t ||
        (t.state !== 'Ongoing' && t.state !== 'PrepareCommit' && t.state !== 'PrepareAbort')
      )
        continue;
      out.push({
        what: `the end of transaction ${t.no} of ${tid} (${t.state})`,
        since: t.startedAt,
      });
    }
    return out;
  }

  protected override onRestart(): void {}

  group(id: string): GroupState {
    let g = this.groups.get(id);
    if (!g) {
      g = { committed: new Map() };
      this.groups.set(id, g);
    }
    return g;
  }

  committed(group: string, topic: number, partition: number): number | undefined {
    return this.group(group).committed.get(topic)?.get(partition);
  }

  /** Store a committed offset (no checks; callers check generation and ownership). */
  storeOffset(group: string, topic: number, partition: number, offset: number): void {
    const g = this.group(group);
    let t = g.committed.get(topic);
    if (!t) g.committed.set(topic, (t = new Map()));
    t.set(partition, offset);
  }

  /**
   * `InitProducerId` for a transactional id: complete or abort the previous instance's
   * transaction, then bump the epoch, fencing any older instance ("Ensures any transactions
   * initiated by previous instances of the producer with the same transactional.id are completed.
   * If the previous instance had failed with a transaction in progress, it will be aborted. If the
   * last transaction had begun completion, but not yet finished, this method awaits its
   * completion." — KafkaProducer#initTransactions).
   *
   * A transactional request whose `transaction.timeout.ms` (`timeoutMs`) exceeds the broker's
   * `transaction.max.timeout.ms` is refused first, with nothing fenced: INVALID_TRANSACTION_TIMEOUT
   * (https://kafka.apache.org/documentation/#brokerconfigs_transaction.max.timeout.ms). Then
   * `pid` and `epoch` are -1 and `error` says why; otherwise `error` is 'NONE'. While the id's
   * last transaction is still completing (a marker waits for a leader), the answer is
   * CONCURRENT_TRANSACTIONS, with `entry` its 'reject' entry: the client asks again.
   */
  initProducerId(
    transactionalId: string | null,
    timeoutMs: number,
    cause: EntryId,
  ): { pid: number; epoch: number; error: ErrorCode; entry?: EntryId } {
    const c = this.cluster;
    if (transactionalId === null) return { pid: c.allocatePid(), epoch: 0, error: 'NONE' };
    if (timeoutMs > this.world.scenario.broker['transaction.max.timeout.ms']) {
      const w = this.world;
      const code: ErrorCode = 'INVALID_TRANSACTION_TIMEOUT';
      writeTxnReject(w.trace, w.now, this.id, cause, errorIndex(code));
      return { pid: -1, epoch: -1, error: code };
    }
    let st = this.producers.get(transactionalId);
    if (!st) {
      st = { pid: c.allocatePid(), epoch: 0, current: null, timedOut: -1, claimedFrom: -1 };
      this.producers.set(transactionalId, st);
      return { pid: st.pid, epoch: st.epoch, error: 'NONE' };
    }
    // The last transaction has begun completion but not finished (a marker waits for a
    // partition leader): "this method awaits its completion" — the coordinator answers
    // CONCURRENT_TRANSACTIONS and the client asks again (TransactionCoordinator,
    // handleInitProducerId: PrepareCommit | PrepareAbort → CONCURRENT_TRANSACTIONS).
    if (c.markers.completing(transactionalId)) return this.concurrent(cause);
    const cur = st.current;
    if (cur && cur.state === 'Ongoing') this.endTxn(cur, false, cause, TXN_REASON_FENCED);
    st.epoch++;
    st.timedOut = -1;
    st.claimedFrom = -1;
    st.current = null;
    c.fence(st.pid, st.epoch);
    const w = this.world;
    writeFenced(w.trace, w.now, this.id, cause, st.epoch);
    return { pid: st.pid, epoch: st.epoch, error: 'NONE' };
  }

  /**
   * Whether the producer of `transactionalId` at `epoch` lost its transaction to the timeout and
   * no newer instance has started since: it may claim the bumped epoch (KIP-588).
   */
  timedOutAt(transactionalId: string, epoch: number): boolean {
    return this.producers.get(transactionalId)?.timedOut === epoch;
  }

  /**
   * `InitProducerId` with the producer's current id and epoch, after its transaction was aborted
   * on timeout (KIP-588, Kafka ≥ 2.7): the coordinator remembers the timeout and hands that
   * producer the bumped epoch, so it goes on instead of being fenced. Returns the epoch, or -1
   * (PRODUCER_FENCED) when another instance has started since.
   * https://cwiki.apache.org/confluence/display/KAFKA/KIP-588:+Allow+producers+to+recover+gracefully+from+transaction+timeouts
   */
  claimAfterTimeout(transactionalId: string, epoch: number): number {
    const st = this.producers.get(transactionalId);
    if (!st) return -1;
    // A retry of a claim already granted (its answer was lost): "If the expected epoch matches
    // the previous epoch, it is a retry of a successful call, so just return the current epoch
    // without incrementing" (TransactionCoordinator, prepareInitProducerIdTransit).
    if (st.timedOut === -1 && st.claimedFrom === epoch) return st.epoch;
    if (st.timedOut !== epoch) return -1;
    st.timedOut = -1;
    st.claimedFrom = epoch;
    return st.epoch;
  }

  /** Is (pid, epoch) the current instance of its transactional id? */
  isCurrent(transactionalId: string, epoch: number): boolean {
    const st = this.producers.get(transactionalId);
    return st !== undefined && st.epoch === epoch;
  }

  /**
   * Begin a transaction for the current instance (its first AddPartitionsToTxn / AddOffsetsToTxn
   * accepted): Ongoing from now; arms the `transaction.timeout.ms` abort. `numbered` is a
   * transaction its producer numbered while the coordinator refused to begin it ('Empty'); by
   * default a new one.
   */
  beginTxn(
    transactionalId: string,
    timeoutMs: number,
    cause: EntryId,
    numbered?: TxnRecord,
  ): TxnRecord {
    const st = this.producers.get(transactionalId)!;
    const rec = numbered ?? this.cluster.newTxn(transactionalId, st.pid, st.epoch);
    rec.state = 'Ongoing';
    rec.startedAt = this.world.now;
    st.current = rec;
    const w = this.world;
    const e = writeTxn(w.trace, w.now, this.id, cause, -1, 0, rec.no);
    // "The maximum amount of time … that a transaction will remain open before the coordinator
    // proactively aborts it" (transaction.timeout.ms). The abort bumps the epoch, fencing the
    // producer that let it expire.
    w.scheduleCall(timeoutMs, null, this, this.txnTimedOut, rec, e);
    return rec;
  }

  /** `transaction.timeout.ms` after `rec` began (at `began`): aborted if still open. */
  private txnTimedOut(rec: TxnRecord, began: EntryId): void {
    if (rec.state !== 'Ongoing') return;
    const st = this.producers.get(rec.transactionalId)!;
    this.endTxn(rec, false, began, TXN_REASON_TIMEOUT);
    st.timedOut = st.epoch;
    st.claimedFrom = -1;
    st.epoch++;
    this.cluster.fence(st.pid, st.epoch);
    if (st.current === rec) st.current = null;
  }

  /**
   * Record offsets to be committed with transaction `rec` (sendOffsetsToTransaction). A partition
   * already listed takes the new offset: a repeated TxnOffsetCommit changes nothing.
   */
  addOffsets(
    rec: TxnRecord,
    group: string,
    offsets: { topic: number; partition: number; offset: number }[],
  ): void {
    for (const o of offsets) {
      const same = rec.offsets.find(
        (x) => x.group === group && x.topic === o.topic && x.partition === o.partition,
      );
      if (same) same.offset = o.offset;
      else rec.offsets.push({ group, ...o });
    }
  }

  /**
   * `EndTxn`: log the decision (PrepareCommit / PrepareAbort) — from here the outcome is durable —
   * then write the markers and complete. The marker write takes a network hop to the leaders.
   */
  endTxn(
    rec: TxnRecord,
    commit: boolean,
    cause: EntryId,
    reason: number = TXN_REASON_REQUESTED,
  ): void {
    if (rec.state !== 'Ongoing') return;
    const w = this.world;
    rec.state = commit ? 'PrepareCommit' : 'PrepareAbort';
    const e = writeTxn(w.trace, w.now, this.id, cause, reason, commit ? 1 : 2, rec.no);
    this.completeTxn(rec, commit, e);
  }

  /**
   * Write the transaction's markers; once every one is written (a partition without a live leader
   * keeps its marker waiting, see {@link Cluster.writeMarkers}), store its offsets if it commits
   * and mark it CompleteCommit / CompleteAbort.
   */
  private completeTxn(rec: TxnRecord, commit: boolean, cause: EntryId): void {
    this.cluster.markers.writeMarkers(
      rec,
      commit,
      cause,
      call(this, this.txnCompleted, rec, commit),
    );
  }

  /** Every marker of `rec` is written (the last at `cause`): its offsets stored if it commits. */
  private txnCompleted(rec: TxnRecord, commit: boolean, _c: undefined, cause: EntryId): void {
    const w = this.world;
    if (commit)
      for (const o of rec.offsets) this.storeOffset(o.group, o.topic, o.partition, o.offset);
    rec.state = commit ? 'CompleteCommit' : 'CompleteAbort';
    writeTxn(w.trace, w.now, this.id, cause, -1, commit ? 3 : 4, rec.no);
  }

  /**
   * CONCURRENT_TRANSACTIONS: a request that must wait until the transactional id's last
   * transaction has completed (its markers written); retriable, the client sends it again after
   * retry.backoff.ms. Returns the 'reject' entry.
   */
  concurrent(cause: EntryId): { pid: number; epoch: number; error: ErrorCode; entry: EntryId } {
    const w = this.world;
    const code: ErrorCode = 'CONCURRENT_TRANSACTIONS';
    const entry = writeTxnReject(w.trace, w.now, this.id, cause, errorIndex(code));
    return { pid: -1, epoch: -1, error: code, entry };
  }
}
