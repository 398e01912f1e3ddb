/**
 * The Flink task's KafkaSink two-phase commit (EXACTLY_ONCE): a transactional producer per epoch,
 * pre-committed on the barrier, committed on the checkpoint-complete notification, and the
 * recovery that re-commits the restored committables and aborts lingering transactions
 * (https://nightlies.apache.org/flink/flink-docs-stable/docs/connectors/datastream/kafka/,
 * docs/semantics/flink.md#two-phase-commit). Every continuation is a held call.
 */
import { NO_ENTRY, type EntryId, type EventId } from '../ids';
import type { Actor } from '../world';
import type { TxnRecord } from '../broker/cluster';
import { ProducerClient, outputClientConfig, type RecordListener } from '../client';
import { outputTransactionTimeoutMs } from '../scenario/transactionTimeouts';
import { TXN_API, TXN_REASON_REQUESTED, type ErrorCode } from '../trace';
import { call, invoke, type Call } from '../core/call';
import { writeDataLoss } from '../traceWriters';
import { traceCheckpoint, type PendingCommit } from './flinkJobManager';
import { FlinkXa } from './flinkXa';
import type { BarrierInHand } from './flinkTaskState';

/** The task with its KafkaSink's transactions. */
export abstract class FlinkTwoPhase extends FlinkXa {
  protected tid(epoch: number): string {
    return `${this.kafka!.transactionalIdPrefix}-0-${epoch}`;
  }

  /**
   * KafkaSink's recovery, one request to the transaction coordinator: commit what the restored
   * checkpoint pre-committed (the Committer re-commits the restored committables; idempotent if
   * they were committed already), abort this job's lingering transactions of later epochs (the
   * writer's TransactionAborter, by prefix), then `done`. It goes through a recovery producer
   * (KafkaCommitter's getRecoveryProducer) whose client resends it until it is answered: a request
   * unanswered after `request.timeout.ms` is sent again (`TxnRequest`, src/engine/txnRequest.ts), and the blocked
   * commitTransaction() throws TimeoutException after `max.block.ms`, a RetriableException the
   * KafkaCommitter retries (`request.retryLater()`) — so a lost request or answer delays the job's
   * start, it does not stop it (https://kafka.apache.org/documentation/#producerconfigs_request.timeout.ms,
   * https://kafka.apache.org/documentation/#producerconfigs_max.block.ms,
   * https://github.com/apache/flink-connector-kafka/blob/main/flink-connector-kafka/src/main/java/org/apache/flink/connector/kafka/sink/KafkaCommitter.java).
   */
  protected recoverTransactions(cause: EntryId): void {
    const k = this.kafka!;
    const recovery = new ProducerClient(
      this,
      this.cluster,
      this.output!,
      outputClientConfig(null, outputTransactionTimeoutMs(this.scenario), k['linger.ms']),
    );
    recovery.coordinatorRequest(
      TXN_API.EndTxn,
      cause,
      call(this, this.recoverAtCoordinator),
      call(this, this.transactionsRecovered, cause),
    );
  }

  /**
   * At the coordinator, the recovery request of {@link recoverTransactions}: its answer is the
   * entry of a failed commit (the job fails), or NO_ENTRY.
   */
  protected recoverAtCoordinator(
    _a: undefined,
    _b: undefined,
    _c: undefined,
    m: EntryId,
  ): { result: EntryId; cause: EntryId } {
    const coord = this.cluster.coordinator;
    const k = this.kafka!;
    // Commit what the restored checkpoint pre-committed (idempotent if it already committed).
    for (const p of this.pendingCommit) {
      const rec = this.cluster.txn(p.txn);
      if (!rec) continue;
      if (rec.state === 'Ongoing') coord.endTxn(rec, true, m, TXN_REASON_REQUESTED);
      else if (rec.state === 'CompleteAbort' || rec.state === 'PrepareAbort')
        this.expired(rec, m, k.ignoreFailuresAfterTransactionTimeout);
    }
    if (
      !k.ignoreFailuresAfterTransactionTimeout &&
      this.pendingCommit.some((p) => this.cluster.txn(p.txn)?.state === 'CompleteAbort')
    )
      // The job fails on recovery and restarts, again and again (docs/semantics/flink.md#expired-transaction): the failure
      // is the commit's, at the coordinator (`failedAt`).
      return { result: m, cause: m };
    this.pendingCommit = [];
    // Abort lingering transactions of this job's later epochs (the KafkaSink aborts by prefix).
    for (const [tid, st] of coord.producers) {
      if (!tid.startsWith(`${k.transactionalIdPrefix}-0-`)) continue;
      if (st.current && st.current.state === 'Ongoing')
        coord.initProducerId(tid, outputTransactionTimeoutMs(this.scenario), m);
    }
    return { result: NO_ENTRY, cause: m };
  }

  /**
   * The recovery's answer (`failedAt`: a failed commit's entry, or NO_ENTRY): the new epoch's
   * transaction opens and the job runs, or the task fails — the TaskManager does not: the
   * restart strategy's delay is the only wait (applied by the task's restart, as after a crash).
   */
  protected transactionsRecovered(
    restore: EntryId,
    _b: undefined,
    _c: undefined,
    failedAt: EntryId,
  ): void {
    if (failedAt < 0) this.openEpoch(this.epoch, restore, call(this, this.beginRunning, restore));
    else this.crash(failedAt, -1, 0);
  }

  protected expired(rec: TxnRecord, cause: EntryId, ignore: boolean): void {
    const w = this.world;
    if (!ignore) return;
    // KafkaSink's KafkaCommitter logs "Unable to commit transaction … Most likely the transaction
    // has been aborted" and drops the committable (the legacy sink with
    // ignoreFailuresAfterTransactionTimeout() logs a data-loss warning): the records are gone for good.
    writeDataLoss(w.trace, w.now, this.id, cause, -1, -1, -1, -1, -1, rec.no);
  }

  /**
   * A record the sink's producer could not write fails the task, whatever the delivery guarantee:
   * KafkaWriter keeps the send callback's exception and throws it from the mailbox ("One or more
   * Kafka Producer send requests have encountered exception"), so no checkpoint completes over a
   * record that was never written; the job restores the last completed one. A fenced producer
   * (its transaction aborted by the coordinator after transaction.timeout.ms) fails the same way.
   * https://github.com/apache/flink-connector-kafka/blob/main/flink-connector-kafka/src/main/java/org/apache/flink/connector/kafka/sink/KafkaWriter.java
   */
  protected watchSends(c: ProducerClient): void {
    c.onRecord = new SendWatch(this, this.incarnation);
  }

  /** Open the transaction of `epoch` (EXACTLY_ONCE): a producer with transactional.id prefix-0-epoch. */
  protected openEpoch(epoch: number, cause: EntryId, done: Call): void {
    const k = this.kafka!;
    const c = new ProducerClient(
      this,
      this.cluster,
      this.output!,
      outputClientConfig(
        this.tid(epoch),
        outputTransactionTimeoutMs(this.scenario),
        k['linger.ms'],
      ),
    );
    this.producers.set(epoch, c);
    this.watchSends(c);
    c.init(cause, call(this, this.epochOpened, c, done), call(this, this.initFailed));
  }

  /** The producer `c` of a new epoch is ready: its transaction begins, then `done`. */
  protected epochOpened(c: ProducerClient, done: Call): void {
    c.beginTransaction();
    invoke(done, undefined);
  }

  /**
   * The sink writer's initTransactions throws: the task fails, and the restart strategy restarts
   * the job — which fails the same way, again and again.
   */
  protected initFailed(
    _a: undefined,
    _b: undefined,
    _c: undefined,
    _err: ErrorCode,
    c2: EntryId,
  ): void {
    this.crash(c2, -1, 0);
  }

  /** Barrier `bar`'s epoch, on `client`, is flushed: pre-committed; the next epoch opens, then the ack. */
  protected preCommitted(bar: BarrierInHand, client: ProducerClient): void {
    const { snapshot, epoch } = bar;
    const txn = client.txn;
    const pe = traceCheckpoint(this, bar.entry, 'pre-committed', snapshot.id, {
      txn: txn?.no ?? -1,
    });
    // The producer's own transactional.id (one carried over idle checkpoints keeps its name).
    const tid = client.cfg.transactionalId ?? this.tid(epoch);
    if (txn) this.pendingCommit.push({ epoch, transactionalId: tid, txn: txn.no });
    const pending = this.pendingForSnapshot();
    this.epoch = snapshot.id + 1;
    this.openEpoch(this.epoch, pe, call(this, this.ackBarrier, snapshot, pending, pe));
  }

  /**
   * Whether the crash point 'during-commit' fired when the EndTxn request of the commit in hand
   * left ({@link commitSent}): the commits after it are not sent.
   */
  protected crashedDuringCommit = false;

  /** The EndTxn request of an epoch's commit left (request entry `c`): the crash point 'during-commit'. */
  protected commitSent(_a: undefined, _b: undefined, _c: undefined, c: EntryId): void {
    this.crashedDuringCommit = this.world.faults.crashPoint(this, 'flink', 'during-commit', c);
  }

  /** The commit of `p` (checkpoint `id`) is answered: committed, or expired. */
  protected epochCommitted(
    p: PendingCommit,
    id: number,
    _c: undefined,
    committed: boolean,
    c: EntryId,
  ): void {
    this.committed(p);
    this.producers.delete(p.epoch);
    traceCheckpoint(this, c, committed ? 'committed' : 'expired', id, { txn: p.txn });
  }
}

/** Fails the task of incarnation `inc` on a record its sink's producer could not write (data). */
class SendWatch implements RecordListener {
  constructor(
    private readonly task: Actor,
    private readonly inc: number,
  ) {}

  recordSettled(_event: EventId, _send: EntryId, ok: boolean, _e: ErrorCode, cause: EntryId): void {
    const t = this.task;
    if (!ok && t.alive && t.incarnation === this.inc) t.crash(cause, -1, 0);
  }
}
