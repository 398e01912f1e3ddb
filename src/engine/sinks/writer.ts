/**
 * The client side of a sink: sends a statement (or a service call), waits up to its timeout, and
 * retries a statement whose answer never came — without knowing whether it was applied (the
 * outcome is unknown to the writer, SEMANTICS A5). That unknown is where a plain INSERT doubles.
 */
import type { Actor } from '../world';
import type { SinkActor, Statement } from './table';
import type { EffectCall, ServiceActor } from './effects';
import { errorIndex } from '../broker/cluster';
import type { ErrorCode } from '../trace';

/** Timeout (ms) and retry count of a writer. */
export interface WriterPolicy {
  timeoutMs: number;
  retries: number;
  /** Delay before a retry (ms). */
  retryDelayMs: number;
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
  const w = owner.world;
  const first = stmt.rows[0];
  const carry = {
    event: first?.event ?? -1,
    topic: first?.topic ?? -1,
    partition: first?.partition ?? -1,
    offset: first?.offset ?? -1,
    count: stmt.rows.length,
    events: stmt.rows.map((r) => r.event),
  };
  let attempt = 0;
  let settled = false;
  const inc = owner.incarnation;
  const tryOnce = (c: number) => {
    const mine = ++attempt;
    w.send(owner, sink, 'sink-write', c, carry, (e) => {
      const r = sink.apply(stmt, e);
      w.send(
        sink,
        owner,
        'sink-response',
        e,
        carry,
        (e2) => {
          if (settled || mine !== attempt) return;
          settled = true;
          done(r.error, e2);
        },
        { toInc: inc },
      );
    });
    owner.after(policy.timeoutMs, () => {
      if (settled || mine !== attempt) return;
      const t = w.trace.add(
        w.now,
        'reject',
        owner.id,
        c,
        carry.event,
        carry.topic,
        carry.partition,
        carry.offset,
        carry.count,
        errorIndex('STATEMENT_TIMEOUT'),
      );
      if (attempt <= policy.retries) {
        owner.after(policy.retryDelayMs, () => {
          if (!settled) tryOnce(t);
        });
        return;
      }
      settled = true;
      done('STATEMENT_TIMEOUT', t);
    });
  };
  tryOnce(cause);
}

/**
 * Call the external service; retried like a statement. `keyMode` says where the idempotency key
 * comes from: none, the business id (stable across attempts and replays), or a fresh key per
 * attempt (the mistake: a retry is then a new request).
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
  let attempt = 0;
  let settled = false;
  const inc = owner.incarnation;
  const tryOnce = (c: number) => {
    const mine = ++attempt;
    const thisCall: EffectCall = {
      ...call,
      key: keyFor(),
      amount: mine > 1 ? call.amount + (policy.retryAmountDelta ?? 0) : call.amount,
    };
    w.send(owner, service, 'effect-call', c, carry, (e) => {
      const err = service.call(thisCall, e);
      w.send(
        service,
        owner,
        'effect-response',
        e,
        carry,
        (e2) => {
          if (settled || mine !== attempt) return;
          settled = true;
          done(err, e2);
        },
        { toInc: inc },
      );
    });
    owner.after(policy.timeoutMs, () => {
      if (settled || mine !== attempt) return;
      const t = w.trace.add(
        w.now,
        'reject',
        owner.id,
        c,
        call.event,
        call.topic,
        call.partition,
        call.offset,
        1,
        errorIndex('REQUEST_TIMED_OUT'),
      );
      if (attempt <= policy.retries) {
        owner.after(policy.retryDelayMs, () => {
          if (!settled) tryOnce(t);
        });
        return;
      }
      settled = true;
      done('REQUEST_TIMED_OUT', t);
    });
  };
  tryOnce(cause);
}
