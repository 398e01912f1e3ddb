/**
 * The client side of a sink: sends a statement (or a service call), waits up to its timeout, and
 * retries a statement whose answer never came — without knowing whether it was applied (the
 * outcome is unknown to the writer, docs/semantics/sinks.md#statement-timeout). That unknown is where a plain INSERT doubles.
 */
import { NO_EVENT, type EntryId, type EventId } from '../ids';
import type { Actor, Carry, Timer, World } from '../world';
import type { SinkActor, Statement } from './table';
import type { EffectCall, ServiceActor } from './effects';
import { errorIndex } from '../broker/cluster';
import type { ErrorCode, MessageType } from '../trace';
import type { SqlAttempt } from '../sql/recorder';
import { writeReject } from '../traceWriters';

/** Told of each attempt of an exchange: sent (with its request entry), and answered. */
interface ExchangeWatch {
  sent(attempt: number, request: number): void;
  answered(attempt: number): void;
}

/** Timeout (ms) and retry count of a writer. */
export interface WriterPolicy {
  timeoutMs: number;
  retries: number;
  /** Delay before a retry (ms). */
  retryDelayMs: number;
}

/** What an exchange's timers read (see {@link exchange}). */
interface ExchangeState {
  attempt: number;
  settled: boolean;
  /** Send the request again (null once settled). */
  retry: ((cause: EntryId) => void) | null;
  /** The caller's continuation (null once settled). */
  done: ((error: ErrorCode, cause: EntryId) => void) | null;
  /** What the request carries, for a timeout's 'reject' entry (null once settled). */
  carry: ExchangeCarry | null;
  /** The pending timeout, cancelled when the exchange settles (with its owner's world). */
  timer: Timer | null;
  world: World | null;
}

type ExchangeCarry = Carry & {
  event: EventId;
  topic: number;
  partition: number;
  offset: number;
  count: number;
};

/**
 * One request/response exchange with a server actor, retried on timeout: `serve(attempt, entry)`
 * runs at the server and returns its answer; `done` gets that answer, or `timeoutError` after the
 * last retry. An answer to an attempt that already timed out is ignored (the connection is gone).
 */
function exchange(
  owner: Actor,
  server: Actor,
  types: { request: MessageType; response: MessageType },
  carry: ExchangeCarry,
  policy: WriterPolicy,
  timeoutError: ErrorCode,
  cause: EntryId,
  serve: (attempt: number, entry: EntryId) => ErrorCode,
  done: (error: ErrorCode, cause: EntryId) => void,
  watch?: ExchangeWatch,
): void {
  const w = owner.world;
  const inc = owner.incarnation;
  // The timeout timers reach the exchange only through `x`, which lets go of the statement (its
  // rows), the caller's batch and the carry once settled: a timer outlives most exchanges by
  // the whole timeout (5 s of virtual time by default), and would otherwise keep them all alive.
  const x: ExchangeState = {
    attempt: 0,
    settled: false,
    retry: null,
    done,
    carry,
    timer: null,
    world: w,
  };
  const tryOnce = (c: EntryId) => {
    const mine = ++x.attempt;
    const request = w.send(owner, server, types.request, c, carry, (e) => {
      const answer = serve(mine, e);
      w.send(
        server,
        owner,
        types.response,
        e,
        carry,
        (e2) => {
          if (x.settled || mine !== x.attempt) return;
          watch?.answered(mine);
          settle(x)(answer, e2);
        },
        { toInc: inc },
      );
    });
    watch?.sent(mine, request);
    armTimeout(owner, x, mine, c, policy, timeoutError);
  };
  x.retry = tryOnce;
  tryOnce(cause);
}

/** Mark an exchange settled, drop what its timers no longer need, and return its continuation. */
function settle(x: ExchangeState): (error: ErrorCode, cause: EntryId) => void {
  const done = x.done!;
  x.settled = true;
  x.retry = null;
  x.done = null;
  x.carry = null;
  // A settled exchange's timeout would do nothing: drop it, so it neither holds the run open nor
  // makes it look cut off at stopAtMs.
  if (x.timer) x.world!.cancel(x.timer);
  x.timer = null;
  x.world = null;
  return done;
}

/** The timeout of attempt `mine` (sent with cause `c`): retry, or give up after the last retry. */
function armTimeout(
  owner: Actor,
  x: ExchangeState,
  mine: number,
  c: EntryId,
  policy: WriterPolicy,
  timeoutError: ErrorCode,
): void {
  const w = owner.world;
  x.timer = owner.after(policy.timeoutMs, () => {
    x.timer = null;
    if (x.settled || mine !== x.attempt) return;
    const carry = x.carry!;
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
      errorIndex(timeoutError),
    );
    if (x.attempt <= policy.retries) {
      owner.after(policy.retryDelayMs, () => {
        if (!x.settled) x.retry!(t);
      });
      return;
    }
    settle(x)(timeoutError, t);
  });
}

/** Send `stmt` to the sink; `done` gets NONE, the statement's error, or STATEMENT_TIMEOUT after the last retry. */
export function writeStatement(
  owner: Actor,
  sink: SinkActor,
  stmt: Statement,
  policy: WriterPolicy,
  cause: EntryId,
  done: (error: ErrorCode, cause: EntryId) => void,
): void {
  const first = stmt.rows[0];
  const carry = {
    event: first?.event ?? NO_EVENT,
    topic: first?.topic ?? -1,
    partition: first?.partition ?? -1,
    offset: first?.offset ?? -1,
    count: stmt.rows.length,
    events: stmt.rows.map((r) => r.event),
  };
  const rec = sink.sql;
  if (rec) {
    // Recorded beside the trace (src/engine/sql/recorder.ts): each attempt, and what it did.
    const recorded = rec.statement(stmt);
    const attempts: SqlAttempt[] = [];
    const w = owner.world;
    exchange(
      owner,
      sink,
      { request: 'sink-write', response: 'sink-response' },
      carry,
      policy,
      'STATEMENT_TIMEOUT',
      cause,
      (a, e) => rec.executed(recorded, attempts[a - 1]!, w.now, () => sink.apply(stmt, e).error),
      done,
      {
        sent: (a, request) => (attempts[a - 1] = rec.sent(recorded, a, request, w.now)),
        answered: (a) => (attempts[a - 1]!.answered = true),
      },
    );
    return;
  }
  exchange(
    owner,
    sink,
    { request: 'sink-write', response: 'sink-response' },
    carry,
    policy,
    'STATEMENT_TIMEOUT',
    cause,
    (_a, e) => sink.apply(stmt, e).error,
    done,
  );
}

/**
 * One call of Flink's JDBC XA sink to the database (the recovery scan, PREPARE TRANSACTION or
 * COMMIT PREPARED of `xid`) as a request and its answer: `call` runs at the database (which acts
 * whether or not its answer comes back) and `done` gets its result, or STATEMENT_TIMEOUT when no
 * answer came within `timeoutMs` — the driver's socketTimeout. Never retried: XaFacadeImpl turns
 * the SQLException into an exception the sink function handles itself (see its callers)
 * (https://github.com/apache/flink-connector-jdbc/blob/main/flink-connector-jdbc/src/main/java/org/apache/flink/connector/jdbc/xa/XaFacadeImpl.java).
 */
export function xaStatement<T>(
  owner: Actor,
  sink: SinkActor,
  xid: number,
  timeoutMs: number,
  cause: EntryId,
  call: (entry: EntryId) => T,
  done: (error: ErrorCode, result: T | null, cause: EntryId) => void,
): void {
  let result: T | null = null;
  exchange(
    owner,
    sink,
    { request: 'sink-write', response: 'sink-response' },
    { event: NO_EVENT, topic: -1, partition: -1, offset: -1, count: -1, txn: xid },
    { timeoutMs, retries: 0, retryDelayMs: 0 },
    'STATEMENT_TIMEOUT',
    cause,
    (_a, e) => {
      result = call(e);
      return 'NONE';
    },
    (error, c) => done(error, result, c),
  );
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
  done: (error: ErrorCode, cause: EntryId) => void,
): void {
  const w = owner.world;
  const carry = {
    event: call.event,
    topic: call.topic,
    partition: call.partition,
    offset: call.offset,
    count: 1,
  };
  const keyFor = (): string | null =>
    keyMode === 'none'
      ? null
      : keyMode === 'business-id'
        ? `charge-${w.events.identityId(w.events.identity[call.event]!)}`
        : service.freshKey();
  exchange(
    owner,
    service,
    { request: 'effect-call', response: 'effect-response' },
    carry,
    policy,
    'REQUEST_TIMED_OUT',
    cause,
    (attempt, e) =>
      service.call(
        {
          ...call,
          key: keyFor(),
          amount: attempt > 1 ? call.amount + (policy.retryAmountDelta ?? 0) : call.amount,
        },
        e,
      ),
    done,
  );
}
