/**
 * A dedupe store apart from the write, and the dedupe key every dedupe mechanism uses.
 *
 * - Redis `SET dedupe:{key} 1 NX EX <ttl>`: "NX -- Only set the key if it does not already
 *   exist", "EX seconds -- Set the specified expire time" (https://redis.io/docs/latest/commands/set/):
 *   the first claim wins until the key expires, in virtual time here.
 * - A dedupe table `processed(key PRIMARY KEY, claimed_at)` whose retention job deletes claims
 *   older than the retention: the same memory, bounded the same way (modelled as if the job ran
 *   continuously).
 * Why the order of claim and write matters: docs/semantics/batch.md#dedupe-stores.
 */
import type { DedupeKey } from '../batch/schema';
import type { Events } from '../scenario/workload';

/** The columns a dedupe key may read from a row. */
export interface KeyedRow {
  id: string;
  /** A batch source row's date and hour (a streaming event has neither). */
  date?: string;
  hour?: number;
  amount: number;
  time?: string | undefined;
  user?: string | undefined;
  item?: string | undefined;
}

/**
 * The dedupe key of a row: its event id, or the tuple of the chosen content columns (two real
 * events with equal content get the same key: they merge).
 */
export function dedupeKeyOf(row: KeyedRow, key: DedupeKey): string {
  if (key === 'event-id') return `id=${row.id}`;
  return key.map((c) => `${c}=${String(row[c] ?? '')}`).join('|');
}

/**
 * The dedupe key of streaming event `i` (a table sink keyed by content, `sink.key: ["time",
 * "amount"]`): the same rule as a batch row's, over the event's listed content columns.
 */
export function eventContentKey(events: Events, i: number, key: DedupeKey): string {
  return dedupeKeyOf({ id: events.id(i), amount: events.amount[i]!, ...events.content(i) }, key);
}

/** The key as the store spells it (`dedupe:{key}`), for the trace and the page. */
export function storeKeyName(key: string): string {
  return `dedupe:${key}`;
}

/** A claim the store holds: which event made it, and when it expires (virtual ms). */
export interface Claim {
  eventId: string;
  expiresAt: number;
}

/** The store: first claim wins; a claim older than the TTL / retention is gone. */
export class DedupeStore {
  private readonly claims = new Map<string, Claim>();
  constructor(private readonly ttlMs: number) {}

  /** The live claim on `key` at `now`, or undefined (an expired claim is dropped). */
  holder(key: string, now: number): Claim | undefined {
    const c = this.claims.get(key);
    if (c === undefined) return undefined;
    // Gone only after its expire time: Redis deletes a key when now > when (keyIsExpired,
    // https://github.com/redis/redis/blob/unstable/src/db.c), not at it.
    if (now > c.expiresAt) {
      this.claims.delete(key);
      return undefined;
    }
    return c;
  }

  /** `SET … NX EX`: true when this call set the key (no live claim), false when one existed. */
  claim(key: string, eventId: string, now: number): boolean {
    if (this.holder(key, now) !== undefined) return false;
    this.claims.set(key, { eventId, expiresAt: now + this.ttlMs });
    return true;
  }

  /**
   * Claim rows a dedupe table's transactions inserted and have not committed (a batch write that
   * claims row by row and writes in the same transaction): key → the transaction (its attempt)
   * and event. Another transaction's insert of such a key waits: "If a conflicting row has been
   * inserted by an as-yet-uncommitted transaction, the would-be inserter must wait to see if that
   * transaction commits" (https://www.postgresql.org/docs/current/index-unique-checks.html).
   */
  private readonly open = new Map<string, { txn: number; eventId: string }>();

  /** The uncommitted claim row on `key`, if a transaction holds one. */
  openClaim(key: string): { txn: number; eventId: string } | undefined {
    return this.open.get(key);
  }

  /** Transaction `txn` inserts the claim row of `key` (uncommitted). */
  insertOpen(key: string, eventId: string, txn: number): void {
    this.open.set(key, { txn, eventId });
  }

  /** Transaction `txn` ends: its claim rows become claims at `now` if it commits, else vanish. */
  endTransaction(txn: number, commit: boolean, now: number): void {
    for (const [key, o] of this.open)
      if (o.txn === txn) {
        this.open.delete(key);
        if (commit) this.claim(key, o.eventId, now);
      }
  }
}
