/**
 * The trace's code tables: every entry kind and the codes its fields hold (message types, error
 * codes, send causes, skip reasons, transaction states, checkpoint steps, how a run ended). The
 * trace stores indexes into these tables, so new codes are only appended.
 */

/**
 * Every kind of trace entry. The comment says what `event`, `partition`/`offset`/`count`, `txn`,
 * `ckpt`, `aux` and `until` mean for it.
 */
export const ENTRY_KINDS = [
  /** The application calls send(): event; aux = {@link SendCause}. */
  'app-send',
  /** The application's send() completed with an error or its wait timed out: event; aux = {@link ErrorCode}. */
  'app-send-failed',
  /**
   * A message leaves `actor` for `peer`: aux = {@link MessageType}; until = arrival time; event =
   * first event carried; partition/offset/count = records carried; txn = the transaction. For
   * 'txn-request' / 'txn-response', count = the {@link TXN_API} the message belongs to.
   */
  'msg',
  /**
   * A message is lost: like 'msg' (aux = message type). Dropped by a fault: written by the sender
   * at sending time, cause = the 'fault' entry. Reaching a dead process (or one restarted since):
   * written at arrival time with actor = the receiver, peer = the sender, cause = the 'msg'.
   */
  'msg-lost',
  /** The producer gathered records into a batch: partition, count, event = first event; aux = first sequence number (or -1). */
  'batch',
  /** The producer re-sends a batch after an error or a timeout: partition, event; aux = attempt number. */
  'retry',
  /** The producer's batch succeeded: partition, offset (-1 with acks=0), count. */
  'ack',
  /** The producer gives up on a batch: partition, count; aux = {@link ErrorCode}. */
  'batch-failed',
  /** A partition leader appends records: topic, partition, offset, count, event = first event; txn. */
  'append',
  /** The broker recognised an already-written batch (same producer id, epoch, sequence) and did not append it again. */
  'dedupe',
  /**
   * A request failed: aux = {@link ErrorCode}. Written by the broker that refused it, or by the
   * client whose request timed out (REQUEST_TIMED_OUT, STATEMENT_TIMEOUT), whose connection the
   * broker's crash closed (NETWORK_EXCEPTION: peer = the broker, cause = the request's 'msg'), or
   * whose connection attempt to a broker that is down was refused (CONNECTION_REFUSED: peer = the
   * broker, cause = the crash it has not come back from). A producer's carries its batch
   * (event, partition, count), a fetch's its position (partition, offset; count -1).
   */
  'reject',
  /** The high watermark moves: topic, partition, offset = new high watermark. */
  'hw',
  /** Records above a new leader's log end are cut: topic, partition, offset = first removed, count. */
  'truncate',
  /** A new partition leader: topic, partition, aux = broker number, txn = leader epoch. */
  'leader',
  /** A replica drops out of / rejoins the ISR: topic, partition, aux = broker number, count = 1 joined / 0 left. */
  'isr',
  /** A component process dies; aux = fault index or -1. */
  'crash',
  /** A component process starts again (new incarnation): aux = incarnation. */
  'restart',
  /** A component stops making progress (a long pause); until = end of the pause. */
  'stall',
  /** A fault fires: aux = fault index. */
  'fault',
  /** A consumer receives records from poll(): topic, partition, offset, count. */
  'poll',
  /**
   * A record is processed: event, topic, partition, offset; aux = processing attempt
   * (incarnation), count = 1. Flink (keyed running count): aux = the key index, count = the key's
   * count after this record, ckpt = the checkpoint epoch the record belongs to (it stays in the
   * state unless a restore to an earlier checkpoint discards it).
   */
  'process',
  /** A sink row is inserted: event, partition/offset of the source record; aux = row id; count = 1. */
  'row-insert',
  /** A sink row is updated in place: event; aux = row id; count = 1 if the value changed. */
  'row-update',
  /** A sink write is a no-op (conflict, already seen, version already written): event; aux = {@link SkipReason}. */
  'row-skip',
  /** A sink statement fails and rolls back: aux = {@link ErrorCode}; count = rows in the statement. */
  'stmt-error',
  /**
   * Consumer offset committed (written by the coordinator): topic, partition, offset = next
   * offset to read; aux = generation; peer = the consumer (or job) that committed it.
   */
  'commit',
  /** An offset commit is refused: topic, partition, offset; aux = {@link ErrorCode}. */
  'commit-failed',
  /** A consumer (re)starts reading a partition: topic, partition, offset = position. */
  'assign',
  /** A consumer stops owning a partition: topic, partition. */
  'revoke',
  /** Transaction state changes: txn = transaction number; aux = {@link TxnState}. */
  'txn',
  /** A transaction marker is written: topic, partition, offset, txn; aux = 1 commit / 0 abort. */
  'marker',
  /** A producer is fenced (an older epoch): txn; aux = epoch. */
  'fenced',
  /**
   * Checkpoint step: ckpt = checkpoint id; aux = {@link CheckpointStep}; offset = source position
   * (next offset) when relevant; count = keys in the state snapshot ('barrier', 'completed',
   * 'idle'). 'idle': ckpt = the last of the checkpoints completed while the job was idle, the first
   * triggered at `until`.
   */
  'checkpoint',
  /** A job restores its state: ckpt = checkpoint restored (-1: none); offset = source position. */
  'restore',
  /** Spark: offset log entry written: ckpt = batch id; offset = start; count = records; until = the batch's watermark when the query dedupes (-1: none yet). */
  'batch-planned',
  /** Spark: commit log entry written: ckpt = batch id. */
  'batch-committed',
  /** An external side effect happens (an email sent, a card charged): event; aux = effect number. */
  'effect',
  /** A side-effect call is answered from the idempotency store, no new effect: event; aux = {@link SkipReason}. */
  'effect-replayed',
  /** Records are lost for good: txn; count; aux = {@link ErrorCode}. */
  'data-loss',
  /** The run ends: aux = 1 if it stopped at stopAtMs, 0 if nothing was left to happen. */
  'end',
  /**
   * A consumer gives up its group membership by itself: topic; aux = 0, its poll timeout
   * (`max.poll.interval.ms` passed since its last poll()); until = when the coordinator removes it
   * if it has not rejoined (`session.timeout.ms` later: a static member sends no LeaveGroup).
   * (Listed after 'end' so that the older kinds keep their codes.)
   */
  'leave-group',
  /**
   * A stream processor's dedupe drops a record (docs/semantics/stream-dedupe.md): event, topic,
   * partition, offset; aux = 0 a copy whose key is in the dedupe state, 1 late (event time at or
   * before the watermark); until = the batch's watermark (Spark) or when the key's state expires
   * (Flink).
   */
  'stream-dedupe',
] as const;
export type EntryKind = (typeof ENTRY_KINDS)[number];
/** Entry kind → its code in the `kind` column. */
export const KIND_CODE = Object.fromEntries(ENTRY_KINDS.map((k, i) => [k, i])) as Record<
  EntryKind,
  number
>;
/** An entry kind's code, as {@link Trace.add} stores it (only from {@link K}). */
export type KindCode = number & { readonly __kindCode: true };
/**
 * Entry kind → code, for the engine's own calls to {@link Trace.add}: `t.add(now, K['app-send'], …)`.
 * Why not the kind's name: looking a name up inside `add` is a megamorphic property load, which
 * cost more than the rest of `add` together (a third of a million-event run's trace time); at
 * the call site the name is a constant and the load folds away.
 */
export const K = KIND_CODE as Readonly<Record<EntryKind, KindCode>>;

/** Message types carried by 'msg' entries. */
export const MESSAGE_TYPES = [
  'produce',
  'produce-response',
  'fetch',
  'fetch-response',
  'commit',
  'commit-response',
  'sink-write',
  'sink-response',
  'effect-call',
  'effect-response',
  'txn-request',
  'txn-response',
  'replicate',
  'barrier',
  'checkpoint-ack',
  'checkpoint-notify',
] as const;
export type MessageType = (typeof MESSAGE_TYPES)[number];

/**
 * The transaction-coordinator API a 'txn-request' / 'txn-response' message is about (its
 * `count` field): InitProducerId (also initTransactions), TxnOffsetCommit (sendOffsetsToTransaction)
 * and EndTxn (commitTransaction / abortTransaction, and Flink's recovery commits); and
 * AddPartitionsToTxn / AddOffsetsToTxn, which appear only while the transactional id's previous
 * transaction is still completing (refused with CONCURRENT_TRANSACTIONS, asked again) — when the
 * coordinator accepts them at once their round trip is not modelled.
 */
export const TXN_API = {
  InitProducerId: 0,
  TxnOffsetCommit: 1,
  EndTxn: 2,
  AddPartitionsToTxn: 3,
  AddOffsetsToTxn: 4,
} as const;

/**
 * Error codes. Most are the systems' own names: Kafka protocol errors (REQUEST_TIMED_OUT,
 * NOT_LEADER_OR_FOLLOWER, NOT_ENOUGH_REPLICAS, NOT_ENOUGH_REPLICAS_AFTER_APPEND,
 * OUT_OF_ORDER_SEQUENCE_NUMBER, OFFSET_NOT_AVAILABLE (a ListOffsets for the latest offset while a
 * new leader's high watermark lags behind its epoch's start offset: src/engine/broker/listOffsets.ts),
 * INVALID_PRODUCER_EPOCH, PRODUCER_FENCED, CONCURRENT_TRANSACTIONS), the consumer's CommitFailedException (COMMIT_FAILED),
 * Postgres's cardinality_violation and unique_violation. Some are this simulator's names for a
 * situation the real system reports otherwise: DELIVERY_TIMEOUT (the producer's TimeoutException
 * "Expiring N record(s)…"), STATEMENT_TIMEOUT (the client giving up waiting, e.g. JDBC
 * socketTimeout — not Postgres's statement_timeout, SQLSTATE 57014), APP_GET_TIMEOUT (the
 * application's send().get(timeout)), TRANSACTION_TIMED_OUT (a transaction the coordinator
 * aborted: the producer then sees INVALID_PRODUCER_EPOCH / PRODUCER_FENCED), OFFLINE_PARTITION
 * (no leader: clients see NOT_LEADER_OR_FOLLOWER / LEADER_NOT_AVAILABLE),
 * IDEMPOTENCY_KEY_MISMATCH (Stripe's error for a key reused with other parameters) and
 * COMMIT_TIMEOUT (the consumer's TimeoutException "Timeout of 60000ms expired before successfully
 * committing offsets": commitSync gave up after `default.api.timeout.ms`) and CONNECTION_REFUSED
 * (a client's connection attempt to a broker whose process is down: the Java client's "Connection
 * to node N could not be established. Node may not be available." — its batches wait, nothing
 * fails). NETWORK_EXCEPTION is what a client's request gets when its connection closes under it
 * (the broker process crashed: "Disconnected from node N").
 * New codes are only appended (traces store the index).
 * @see https://kafka.apache.org/protocol#protocol_error_codes
 */
export const ERROR_CODES = [
  'NONE',
  'REQUEST_TIMED_OUT',
  'DELIVERY_TIMEOUT',
  'NETWORK_EXCEPTION',
  'NOT_LEADER_OR_FOLLOWER',
  'NOT_ENOUGH_REPLICAS',
  'OUT_OF_ORDER_SEQUENCE_NUMBER',
  'INVALID_PRODUCER_EPOCH',
  'PRODUCER_FENCED',
  'COMMIT_FAILED',
  'CARDINALITY_VIOLATION',
  'UNIQUE_VIOLATION',
  'STATEMENT_TIMEOUT',
  'APP_GET_TIMEOUT',
  'TRANSACTION_TIMED_OUT',
  'IDEMPOTENCY_KEY_MISMATCH',
  'OFFLINE_PARTITION',
  'INVALID_TRANSACTION_TIMEOUT',
  'NOT_ENOUGH_REPLICAS_AFTER_APPEND',
  'COMMIT_TIMEOUT',
  'CONCURRENT_TRANSACTIONS',
  'CONNECTION_REFUSED',
  'OFFSET_NOT_AVAILABLE',
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];

/** Why the application called send(). */
export const SEND_CAUSES = ['first', 'app-resend', 'source-duplicate', 'txn-resend'] as const;
export type SendCause = (typeof SEND_CAUSES)[number];

/** Why a sink write or a side effect did not take effect. */
export const SKIP_REASONS = [
  'on-conflict',
  'merge-matched',
  'dedupe-table',
  'txn-version',
  'idempotency-key',
  'file-sink-log',
  'same-value',
] as const;
export type SkipReason = (typeof SKIP_REASONS)[number];

/** Transaction states as the coordinator knows them (KIP-98 / Kafka's TransactionState). */
export const TXN_STATES = [
  'Ongoing',
  'PrepareCommit',
  'PrepareAbort',
  'CompleteCommit',
  'CompleteAbort',
  'PrepareEpochFence',
] as const;
export type TxnState = (typeof TXN_STATES)[number];

/**
 * Steps of a checkpoint (Flink): trigger, barrier at the sink, pre-commit, completed, commit,
 * aborted/expired, declined; `source-position`: one input partition's offset in the snapshot (one
 * entry per partition, right after the barrier's); `idle`: checkpoints that completed while the job
 * was idle, accounted together when it woke up (ckpt = the last id, the first being the one after
 * the previous checkpoint's — {@link firstIdleCheckpoint}; until = the first one's trigger time,
 * the others following every `execution.checkpointing.interval`; offset = the source position they
 * hold, with a `source-position` entry per partition after it; count = keys in their state).
 * New steps are only appended (traces store the index).
 */
export const CHECKPOINT_STEPS = [
  'triggered',
  'barrier',
  'pre-committed',
  'completed',
  'committed',
  'aborted',
  'expired',
  'declined',
  'source-position',
  'idle',
] as const;
export type CheckpointStep = (typeof CHECKPOINT_STEPS)[number];

/** How a run ended ('end' entry's aux): nothing was left to happen. */
export const END_SETTLED = 0;
/** … it reached `stopAtMs` (or its default) with work pending. */
export const END_STOP = 1;
/** … its trace reached {@link LIMITS}.traceEntries with work pending. */
export const END_TRACE_LIMIT = 2;

/** Why a transaction ended ('txn' entries' `count`): asked by its producer. */
export const TXN_REASON_REQUESTED = 0;
/** … aborted by the coordinator after `transaction.timeout.ms`. */
export const TXN_REASON_TIMEOUT = 1;
/** … aborted because a new instance with the same transactional.id called initTransactions. */
export const TXN_REASON_FENCED = 2;

/** Bytes of keyed state per key in this model: a running count and a running sum, 8 bytes each. */
export const STATE_BYTES_PER_KEY = 16;
