/**
 * What a table sink's database session saw, recorded beside the trace (the trace is unchanged, so
 * every trace hash stays the same): each statement a writer sent, attempt by attempt, whether the
 * request reached the database, the trace entries its execution added there (its outcome), and
 * whether the writer heard the answer; and the XA calls of Flink's JDBC exactly-once sink
 * (PREPARE TRANSACTION, COMMIT PREPARED, ROLLBACK PREPARED). src/engine/sql/script.ts turns it
 * into a PostgreSQL script. Enabled by `simulate(s, { sql: true })`.
 */
import type { ErrorCode } from '../trace';
import type { Trace } from '../trace';
import type { SinkRow, Statement } from '../sinks/table';

/** One attempt of a statement: a request the writer sent. */
export interface SqlAttempt {
  /** 1 for the first send, 2 for the first retry… */
  attempt: number;
  /** The request's 'msg' (or 'msg-lost') entry. */
  request: number;
  /** Virtual time it was sent (ms). */
  sentAt: number;
  /** Whether it reached the database (which then executed it). */
  delivered: boolean;
  /** The trace entries its execution added ([from, to)): row-insert, row-update, row-skip, stmt-error. */
  from: number;
  to: number;
  /** The database's answer. */
  error: ErrorCode;
  /** Whether the writer heard that answer (false: its outcome stayed unknown to the writer). */
  answered: boolean;
}

/** One statement a writer sent (one exchange, retried on timeout). */
export interface SqlStatement {
  rows: readonly SinkRow[];
  /** The XA transaction it runs in, or -1 (autocommit). */
  xid: number;
  attempts: SqlAttempt[];
}

/** One step of the session, in the order the database (or, for an undelivered one, the writer) saw it. */
export type SqlStep =
  /** An attempt sent: shown as not delivered unless it was (then its 'execute' step shows it). */
  | { kind: 'send'; statement: SqlStatement; attempt: SqlAttempt }
  /** An attempt executed at the database (for an XA statement: recorded in its transaction). */
  | { kind: 'execute'; statement: SqlStatement; attempt: SqlAttempt; at: number }
  /** PREPARE TRANSACTION of `xid`, holding `statements` (executed earlier, in its transaction). */
  | { kind: 'prepare'; xid: number; statements: SqlStatement[]; at: number }
  /** COMMIT PREPARED: the engine applies the statements now; their outcome entries are [from, to). */
  | { kind: 'commit'; xid: number; at: number; from: number; to: number }
  /** ROLLBACK PREPARED, or the rollback of a branch never prepared (its statements discarded). */
  | { kind: 'rollback'; xid: number; prepared: boolean; statements: SqlStatement[]; at: number }
  /** The database crashed: its open, unprepared branches ended with their sessions. */
  | { kind: 'crash'; xids: { xid: number; statements: SqlStatement[] }[]; at: number };

/** Records a table sink's session (see the module comment). */
export class SqlRecorder {
  readonly steps: SqlStep[] = [];
  /** Statements executed in each open XA branch, by xid. */
  private readonly open = new Map<number, SqlStatement[]>();

  constructor(private readonly trace: Trace) {}

  /** A writer starts an exchange for `stmt`. */
  statement(stmt: Statement): SqlStatement {
    return { rows: stmt.rows, xid: stmt.xid ?? -1, attempts: [] };
  }

  /** Attempt `n` of `s` left the writer as request entry `request`. */
  sent(s: SqlStatement, n: number, request: number, now: number): SqlAttempt {
    const a: SqlAttempt = {
      attempt: n,
      request,
      sentAt: now,
      delivered: false,
      from: -1,
      to: -1,
      error: 'NONE',
      answered: false,
    };
    s.attempts.push(a);
    this.steps.push({ kind: 'send', statement: s, attempt: a });
    return a;
  }

  /** Run `apply` (the database executing attempt `a` of `s`) and record what it added to the trace. */
  executed(s: SqlStatement, a: SqlAttempt, now: number, apply: () => ErrorCode): ErrorCode {
    a.delivered = true;
    a.from = this.trace.length;
    a.error = apply();
    a.to = this.trace.length;
    this.steps.push({ kind: 'execute', statement: s, attempt: a, at: now });
    if (s.xid >= 0) {
      const list = this.open.get(s.xid) ?? [];
      list.push(s);
      this.open.set(s.xid, list);
    }
    return a.error;
  }

  /** PREPARE TRANSACTION of `xid` (nothing when it held no statement: Flink skips an empty one). */
  prepared(xid: number, now: number): void {
    const statements = this.open.get(xid);
    this.open.delete(xid);
    if (statements?.length) this.steps.push({ kind: 'prepare', xid, statements, at: now });
  }

  /** COMMIT PREPARED of `xid`, whose statements the engine applies inside `apply`. */
  committed(xid: number, now: number, apply: () => void): void {
    const from = this.trace.length;
    apply();
    this.steps.push({ kind: 'commit', xid, at: now, from, to: this.trace.length });
  }

  /** The rollback of `xid`: prepared (ROLLBACK PREPARED) or still open (ROLLBACK). */
  rolledBack(xid: number, prepared: boolean, now: number): void {
    const statements = this.open.get(xid) ?? [];
    this.open.delete(xid);
    if (prepared || statements.length)
      this.steps.push({ kind: 'rollback', xid, prepared, statements, at: now });
  }

  /** The database crashed: its open branches are gone. */
  crashed(now: number): void {
    if (this.open.size === 0) return;
    const xids = [...this.open].map(([xid, statements]) => ({ xid, statements }));
    this.open.clear();
    this.steps.push({ kind: 'crash', xids, at: now });
  }
}
