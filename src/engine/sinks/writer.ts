/**
 * The client side of a sink: sends a statement (or a service call), waits up to its timeout, and
 * retries a statement whose answer never came — without knowing whether it was applied (the
 * outcome is unknown to the writer, docs/semantics/sinks.md#statement-timeout). That unknown is where a plain INSERT doubles.
 */
import { NO_EVENT, type EntryId, type EventId } from '../ids';
import type { Actor, Carry, Timer, World } from '../world';
import { call as held, invoke, type Call } from '../core/call';
import { answer, type Reply } from '../reply';
import type { SinkActor, Statement } from './table';
import type { EffectCall, ServiceActor } from './effects';
import { errorIndex } from '../broker/cluster';
import type { ErrorCode, MessageType } from '../trace';
import type { SqlAttempt, SqlRecorder, SqlStatement } from '../sql/recorder';
import { writeReject } from '../traceWriters';

/** Timeout (ms) and retry count of a writer. */
export interface WriterPolicy {
  timeoutMs: number;
  retries: number;
  /** Delay before a retry (ms). */
  retryDelayMs: number;
}

/** What an exchange's messages carry (see {@link Carry}). */
interface ExchangeCarry {
  event: EventId;
  topic: number;
  partition: number;
  offset: number;
  count: number;
  txn: number;
  events: EventId[] | undefined;
}

/** The world's {@link Carry}, set to an exchange's. */
function carried(w: World, c: ExchangeCarry): Carry {
  return w.carry(c.event, c.topic, c.partition, c.offset, c.count, c.txn, c.events);
}

const STATEMENT = { request: 'sink-write', response: 'sink-response' } as const;
const EFFECT = { request: 'effect-call', response: 'effect-response' } as const;

/**
 * One request/response exchange with a server actor, retried on timeout, held as data — its
 * timers and messages name it (docs/ARCHITECTURE.md, "Pending work and forks"): {@link serve}
 * runs at the server and returns its answer; {@link finished} gets that answer, or
 * `timeoutError` after the last retry. An answer to an attempt that already timed out is ignored
 * (the connection is gone).
 */
abstract class Exchange {
  attempt = 0;
  settled = false;
  /** The pending timeout, cancelled when the exchange settles. */
  private timer: Timer | null = null;
  private readonly inc: number;

  constructor(
    readonly owner: Actor,
    private readonly server: Actor,
    private readonly types: { request: MessageType; response: MessageType },
    private readonly carry: ExchangeCarry,
    private readonly policy: WriterPolicy,
    private readonly timeoutError: ErrorCode,
  ) {
    this.inc = owner.incarnation;
  }

  /** At the server: handle attempt `attempt` (its request entry `entry`); return the answer. */
  protected abstract serve(attempt: number, entry: EntryId): ErrorCode;
  /** The exchange is over: answered, or timed out after its last retry. */
  protected abstract finished(error: ErrorCode, cause: EntryId): void;
  /** Attempt `attempt` was sent, as `request`. */
  protected sent(_attempt: number, _request: EntryId): void {}
  /** Attempt `attempt` was answered (before the exchange settles). */
  protected answered(_attempt: number): void {}

  /** Send the request (again). */
  send(c: EntryId): void {
    const { owner } = this;
    const w = owner.world;
    const mine = ++this.attempt;
    const k = held(this, this.arrive, mine);
    const request = w.send(owner, this.server, this.types.request, c, carried(w, this.carry), k);
    this.sent(mine, request);
    this.timer = w.scheduleCall(this.policy.timeoutMs, owner, this, this.timedOut, mine, c);
  }

  /** Attempt `mine` reaches the server, which acts and answers. */
  private arrive(mine: number, _b: undefined, _c: undefined, e: EntryId): void {
    const code = this.serve(mine, e);
    const k = held(this, this.answerArrives, mine, code);
    const w = this.owner.world;
    const carry = carried(w, this.carry);
    w.sendMessage(this.server, this.owner, this.inc, this.types.response, e, carry, k, undefined);
  }

  /** The server's answer to attempt `mine` is back. */
  private answerArrives(mine: number, code: ErrorCode, _c: undefined, e: EntryId): void {
    if (this.settled || mine !== this.attempt) return;
    this.answered(mine);
    this.settle(code, e);
  }

  /** The timeout of attempt `mine` (sent with cause `c`): retry, or give up after the last retry. */
  private timedOut(mine: number, c: EntryId): void {
    const { owner, carry } = this;
    const w = owner.world;
    this.timer = null;
    if (this.settled || mine !== this.attempt) return;
    const t = writeReject(
      w.trace,
      w.now,
      owner.id,
      c,
      carry.event,
      carry.topic,
      carry.partition,
      carry.offset,
      carry.count,
      errorIndex(this.timeoutError),
    );
    if (this.attempt <= this.policy.retries) {
      w.scheduleCall(this.policy.retryDelayMs, owner, this, this.retry, t);
      return;
    }
    this.settle(this.timeoutError, t);
  }

  private retry(cause: EntryId): void {
    if (!this.settled) this.send(cause);
  }

  /** Settled: its timeout dropped, the caller answered. */
  private settle(code: ErrorCode, cause: EntryId): void {
    this.settled = true;
    // A settled exchange's timeout would do nothing: drop it, so it neither holds the run open nor
    // makes it look cut off at stopAtMs.
    if (this.timer) this.owner.world.cancel(this.timer);
    this.timer = null;
    this.finished(code, cause);
  }
}

/** An exchange whose caller waits with a held continuation. */
abstract class Request extends Exchange {
  /** The caller's continuation (null once answered: what it names is let go). */
  done: Reply | null = null;

  protected finished(error: ErrorCode, cause: EntryId): void {
    const done = this.done!;
    this.done = null;
    answer(done, error, cause);
  }
}

/** A statement to a SQL sink. */
class StatementWrite extends Request {
  constructor(
    owner: Actor,
    private readonly sink: SinkActor,
    private readonly stmt: Statement,
    carry: ExchangeCarry,
    policy: WriterPolicy,
  ) {
    super(owner, sink, STATEMENT, carry, policy, 'STATEMENT_TIMEOUT');
  }

  protected serve(_attempt: number, e: EntryId): ErrorCode {
    return this.sink.apply(this.stmt, e).error;
  }
}

/** A statement recorded beside the trace (src/engine/sql/recorder.ts): each attempt, and what it did. */
class RecordedStatementWrite extends StatementWrite {
  private readonly attempts: SqlAttempt[] = [];
  private readonly recorded: SqlStatement;

  constructor(
    owner: Actor,
    sink: SinkActor,
    stmt: Statement,
    carry: ExchangeCarry,
    policy: WriterPolicy,
    private readonly rec: SqlRecorder,
  ) {
    super(owner, sink, stmt, carry, policy);
    this.recorded = rec.statement(stmt);
  }

  protected override serve(a: number, e: EntryId): ErrorCode {
    const now = this.owner.world.now;
    return this.rec.executed(this.recorded, this.attempts[a - 1]!, now, () => super.serve(a, e));
  }

  protected override sent(a: number, request: EntryId): void {
    this.attempts[a - 1] = this.rec.sent(this.recorded, a, request, this.owner.world.now);
  }

  protected override answered(a: number): void {
    this.attempts[a - 1]!.answered = true;
  }
}

/** Send `stmt` to the sink; `done` gets NONE, the statement's error, or STATEMENT_TIMEOUT after the last retry. */
export function writeStatement(
  owner: Actor,
  sink: SinkActor,
  stmt: Statement,
  policy: WriterPolicy,
  cause: EntryId,
  done: Reply,
): void {
  const first = stmt.rows[0];
  const carry = {
    event: first?.event ?? NO_EVENT,
    topic: first?.topic ?? -1,
    partition: first?.partition ?? -1,
    offset: first?.offset ?? -1,
    count: stmt.rows.length,
    txn: -1,
    // One row's event is `event` itself (a carry without `events` carries just that one): no
    // array for the statement of a record.
    events: stmt.rows.length === 1 ? undefined : stmt.rows.map((r) => r.event),
  };
  const rec = sink.sql;
  const x = rec
    ? new RecordedStatementWrite(owner, sink, stmt, carry, policy, rec)
    : new StatementWrite(owner, sink, stmt, carry, policy);
  x.done = done;
  x.send(cause);
}

/**
 * What one of Flink's XA calls got back ({@link xaStatement}): NONE and the database's result, or
 * STATEMENT_TIMEOUT and null; `cause`, the entry the answer (or the timeout) is.
 */
export interface XaAnswer<T> {
  error: ErrorCode;
  result: T | null;
  cause: EntryId;
}

/** One of Flink's XA calls (see {@link xaStatement}): `atDatabase` runs at the database. */
class XaCall<T> extends Exchange {
  private result: T | null = null;

  constructor(
    owner: Actor,
    sink: SinkActor,
    xid: number,
    timeoutMs: number,
    private readonly atDatabase: Call<EntryId, void, T>,
    private readonly done: Call<XaAnswer<T>>,
  ) {
    super(
      owner,
      sink,
      STATEMENT,
      {
        event: NO_EVENT,
        topic: -1,
        partition: -1,
        offset: -1,
        count: -1,
        txn: xid,
        events: undefined,
      },
      { timeoutMs, retries: 0, retryDelayMs: 0 },
      'STATEMENT_TIMEOUT',
    );
  }

  protected serve(_attempt: number, e: EntryId): ErrorCode {
    this.result = invoke(this.atDatabase, e);
    return 'NONE';
  }

  protected finished(error: ErrorCode, cause: EntryId): void {
    invoke(this.done, { error, result: this.result, cause });
  }
}

/**
 * One call of Flink's JDBC XA sink to the database (the recovery scan, PREPARE TRANSACTION or
 * COMMIT PREPARED of `xid`) as a request and its answer: `atDatabase` runs at the database (which
 * acts whether or not its answer comes back) and `done` gets its {@link XaAnswer}: the result, or
 * STATEMENT_TIMEOUT when no answer came within `timeoutMs` — the driver's socketTimeout. Never
 * retried: XaFacadeImpl turns the SQLException into an exception the sink function handles itself
 * (see its callers)
 * (https://github.com/apache/flink-connector-jdbc/blob/main/flink-connector-jdbc/src/main/java/org/apache/flink/connector/jdbc/xa/XaFacadeImpl.java).
 * Both are held calls, so a snapshot copies the exchange with the run.
 */
export function xaStatement<T>(
  owner: Actor,
  sink: SinkActor,
  xid: number,
  timeoutMs: number,
  cause: EntryId,
  atDatabase: Call<EntryId, void, T>,
  done: Call<XaAnswer<T>>,
): void {
  new XaCall(owner, sink, xid, timeoutMs, atDatabase, done).send(cause);
}

/** A call of an external service (see {@link callService}). */
class ServiceCall extends Request {
  constructor(
    owner: Actor,
    private readonly service: ServiceActor,
    private readonly call: Omit<EffectCall, 'key'>,
    private readonly keyMode: 'none' | 'business-id' | 'per-attempt',
    private readonly retryAmountDelta: number,
    policy: WriterPolicy,
  ) {
    const { event, topic, partition, offset } = call;
    super(
      owner,
      service,
      EFFECT,
      { event, topic, partition, offset, count: 1, txn: -1, events: undefined },
      policy,
      'REQUEST_TIMED_OUT',
    );
  }

  private keyFor(): string | null {
    const w = this.owner.world;
    const call = this.call;
    return this.keyMode === 'none'
      ? null
      : this.keyMode === 'business-id'
        ? `charge-${w.events.identityId(w.events.identity[call.event]!)}`
        : this.service.freshKey();
  }

  protected serve(attempt: number, e: EntryId): ErrorCode {
    const call = this.call;
    const amount = attempt > 1 ? call.amount + this.retryAmountDelta : call.amount;
    // Written field by field: a spread of `call` was a side-effect atlas's dearest line (profile).
    return this.service.call(
      {
        event: call.event,
        key: this.keyFor(),
        amount,
        topic: call.topic,
        partition: call.partition,
        offset: call.offset,
      },
      e,
    );
  }
}

/**
 * Call the external service; retried like a statement. `keyMode` says where the idempotency key
 * comes from: none, the business id (stable across attempts and replays), or a fresh key per
 * attempt (the mistake: a retry is then a new request). `retryAmountDelta` changes the amount of
 * a retry (a client bug the idempotency layer refuses).
 */
export function callService(
  owner: Actor,
  service: ServiceActor,
  call: Omit<EffectCall, 'key'>,
  keyMode: 'none' | 'business-id' | 'per-attempt',
  policy: WriterPolicy & { retryAmountDelta?: number },
  cause: EntryId,
  done: Reply,
): void {
  const x = new ServiceCall(owner, service, call, keyMode, policy.retryAmountDelta ?? 0, policy);
  x.done = done;
  x.send(cause);
}
