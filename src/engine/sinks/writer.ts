/**
 * The client side of a sink: sends a statement (or a service call), waits up to its timeout, and
 * retries a statement whose answer never came — without knowing whether it was applied (the
 * outcome is unknown to the writer, SEMANTICS A5). That unknown is where a plain INSERT doubles.
 */
import type { Actor, Carry } from '../world';
import type { SinkActor, Statement } from './table';
import type { EffectCall, ServiceActor } from './effects';
import { errorIndex } from '../broker/cluster';
import type { ErrorCode, MessageType } from '../trace';
import { K } from '../trace';

/** Timeout (ms) and retry count of a writer. */
export interface WriterPolicy {
  timeoutMs: number;
  retries: number;
  /** Delay before a retry (ms). */
  retryDelayMs: number;
}

/**
 * One request/response exchange with a server actor, retried on timeout: `serve(attempt, entry)`
 * runs at the server and returns its answer; `done` gets that answer, or `timeoutError` after the
 * last retry. An answer to an attempt that already timed out is ignored (the connection is gone).
 */
function exchange(
  owner: Actor,
  server: Actor,
  types: { request: MessageType; response: MessageType },
  carry: Carry & { event: number; topic: number; partition: number; offset: number; count: number },
  policy: WriterPolicy,
  timeoutError: ErrorCode,
  cause: number,
  serve: (attempt: number, entry: number) => ErrorCode,
  done: (error: ErrorCode, cause: number) => void,
): void {
  const w = owner.world;
  let attempt = 0;
  let settled = false;
  const inc = owner.incarnation;
  const tryOnce = (c: number) => {
    const mine = ++attempt;
    w.send(owner, server, types.request, c, carry, (e) => {
      const answer = serve(mine, e);
      w.send(
        server,
        owner,
        types.response,
        e,
        carry,
        (e2) => {
          if (settled || mine !== attempt) return;
          settled = true;
          done(answer, e2);
        },
        { toInc: inc },
      );
    });
    owner.after(policy.timeoutMs, () => {
      if (settled || mine !== attempt) return;
      const t = w.trace.add(
        w.now,
        K['reject'],
        owner.id,
        c,
        carry.event,
        carry.topic,
        carry.partition,
        carry.offset,
        carry.count,
        errorIndex(timeoutError),
      );
      if (attempt <= policy.retries) {
        owner.after(policy.retryDelayMs, () => {
          if (!settled) tryOnce(t);
        });
        return;
      }
      settled = true;
      done(timeoutError, t);
    });
  };
  tryOnce(cause);
}

/** Send `stmt` to the sink; `done` gets NONE, the statement's error, or STATEMENT_TIMEOUT after the last retry. */
export function writeStatement(
  owner: Actor,
  sink: SinkActor,
  stmt: Statement,
  policy: WriterPolicy,
  cause: number,
  done: (error: ErrorCode, cause: number) => void,
): void {
  const first = stmt.rows[0];
  const carry = {
    event: first?.event ?? -1,
    topic: first?.topic ?? -1,
    partition: first?.partition ?? -1,
    offset: first?.offset ?? -1,
    count: stmt.rows.length,
    events: stmt.rows.map((r) => r.event),
  };
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
  cause: number,
  done: (error: ErrorCode, cause: number) => void,
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
