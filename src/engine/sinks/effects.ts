/**
 * An external service with side effects (actor `service`): sending an email, charging a card.
 *
 * Without an idempotency key every call is a new effect. With one, the service behaves as Stripe
 * documents (https://docs.stripe.com/api/idempotent_requests): it saves the result of the first
 * request for a key and returns it for later requests with that key; a reused key with different
 * parameters is an error; keys may be pruned once they are at least 24 hours old, after which the
 * key makes a new request (the simulator prunes exactly at `retentionMs`, docs/semantics/sinks.md#side-effects-and-idempotency-keys).
 */
import type { EntryId, EventId } from '../ids';
import { Actor, type World } from '../world';
import { errorIndex } from '../broker/cluster';
import { SKIP_REASONS } from '../trace';
import type { ErrorCode } from '../trace';
import { alloc } from '../core/pool';
import { settledFields } from '../core/settled';
import { writeEffect, writeEffectReplayed, writeReject } from '../traceWriters';

/** One call to the service. `key` is null without an idempotency key. */
export interface EffectCall {
  event: EventId;
  key: string | null;
  /** The parameters (the amount) — compared with the saved request for the key. */
  amount: number;
  topic: number;
  partition: number;
  offset: number;
}

const SETTLED_EFFECTS: readonly string[] = ['effectsOf', 'effects', 'sum'];

/** Per-identity effect counters and the idempotency store. */
export class ServiceActor extends Actor {
  /** Effects per business identity. */
  readonly effectsOf: Int32Array;
  effects = 0;
  /** Sum of the amounts of all effects (money charged). */
  sum = 0;
  private readonly keys = new Map<string, { at: number; amount: number }>();

  constructor(
    world: World,
    readonly service: 'email' | 'card-charge',
    private readonly retentionMs: number,
  ) {
    super(world, 'service');
    this.effectsOf = alloc(Int32Array, world.events.identities);
  }

  protected override onRestart(): void {}

  /**
   * Settled history (src/engine/core/settled.ts): the effect counts and their sum. A call reads
   * only its key's saved request (`keys`, live); `effects` goes only into the effect's trace
   * entry; the checker counts them at the end.
   */
  [settledFields](): readonly string[] {
    return SETTLED_EFFECTS;
  }

  private keyCounter = 0;

  /** A new idempotency key, as a client generating one per attempt would (uuid4). */
  freshKey(): string {
    return `uuid-${++this.keyCounter}`;
  }

  /** Handle a call; returns the error (NONE when the effect happened or was replayed from the store). */
  call(c: EffectCall, cause: EntryId): ErrorCode {
    const w = this.world;
    if (c.key !== null) {
      const saved = this.keys.get(c.key);
      if (saved && w.now - saved.at < this.retentionMs) {
        if (saved.amount !== c.amount) {
          writeReject(
            w.trace,
            w.now,
            this.id,
            cause,
            c.event,
            c.topic,
            c.partition,
            c.offset,
            1,
            errorIndex('IDEMPOTENCY_KEY_MISMATCH'),
          );
          return 'IDEMPOTENCY_KEY_MISMATCH';
        }
        writeEffectReplayed(
          w.trace,
          w.now,
          this.id,
          cause,
          c.event,
          c.topic,
          c.partition,
          c.offset,
          SKIP_REASONS.indexOf('idempotency-key'),
        );
        return 'NONE';
      }
      this.keys.set(c.key, { at: w.now, amount: c.amount });
    }
    this.effects++;
    this.sum += c.amount;
    this.effectsOf[w.events.identity[c.event]!]!++;
    writeEffect(
      w.trace,
      w.now,
      this.id,
      cause,
      c.event,
      c.topic,
      c.partition,
      c.offset,
      this.effects,
    );
    return 'NONE';
  }
}
