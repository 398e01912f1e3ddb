/**
 * What a writer hands the sink database: rows proposed with their key column's value, grouped
 * in one statement (or one micro-batch write), and the statement's outcome.
 */
import type { EntryId, EventId } from '../ids';
import type { ErrorCode } from '../trace';

/** One row proposed by a writer. `key` is the value of the key column. */
export interface SinkRow {
  event: EventId;
  key: number | string;
  topic: number;
  partition: number;
  offset: number;
  /** The 'process' (or 'poll') entry that produced the row (provenance). */
  cause: EntryId;
}

/** One statement (or one micro-batch write). */
export interface Statement {
  rows: SinkRow[];
  /** Spark batch id (Delta txnVersion, file sink log); -1 otherwise. */
  batchId: number;
  /** The XA transaction the statement runs in (Flink's JDBC exactly-once sink), if any. */
  xid?: number;
  /** Delta: the writer's `txnAppId` when it is not the sink's (a query restarted with a new one). */
  txnAppId?: string;
}

/**
 * An XA transaction branch of the sink database (PostgreSQL: a transaction that PREPARE
 * TRANSACTION turned into a prepared one). Its statements take effect, and become visible, only
 * at COMMIT PREPARED; a rollback discards them.
 */
export interface XaTransaction {
  state: 'active' | 'prepared';
  statements: Statement[];
  /** When it was prepared (ms), or -1. */
  preparedAt: number;
}

/** Outcome of a statement. */
export interface StatementResult {
  error: ErrorCode;
}
