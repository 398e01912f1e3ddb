/**
 * The dedupe store's claims replayed on a real Redis (dedupeRedisConformance.test.ts). The engine
 * models `SET dedupe:{key} 1 NX EX <ttl>` (src/engine/dedupe/dedupeStore.ts): each `claim` in a
 * batch run's trace is a SET that the engine says set the key, each `claim-skipped` one that found
 * it held (for write-then-claim, a read before the write: EXISTS).
 *
 * Virtual time spans days; Redis expires keys on its wall clock. So the replay keeps only what
 * decides each answer — which expiries come before which calls — and compresses time into slots
 * `gapMs` apart: the calls between two expiries share a slot; each key is set with `PXAT` (an
 * absolute expiry, https://redis.io/docs/latest/commands/set/) a quarter gap before the slot of
 * the first call at or after its virtual expiry. A call is conclusive when its reply came back
 * before the next expiry could pass (¾ of a gap after its slot began); otherwise the replay is
 * inconclusive and the caller runs it again with a wider gap. Equal virtual times (a call exactly
 * at an expiry) cannot be placed on a wall clock to the millisecond: `atExpiry` counts them.
 */
import { dedupeKeyOf, type BatchConfig, type BatchRun } from '../engine';
import { storeKeyName } from '../engine/dedupe/dedupeStore';
import type { RedisServer } from './redisServer';

/** One store call of the run: when, on which key, and what the engine says happened. */
interface StoreCall {
  at: number;
  key: string;
  eventId: string;
  /** `set`: this call claimed the key; `held`: another claim held it. */
  engine: 'set' | 'held';
  /** `SET … NX` (claims, and skips of claim-then-write) or `EXISTS` (skips of write-then-claim). */
  command: 'set-nx' | 'exists';
}

/** The store calls of a batch run with a Redis dedupe store, in trace order. */
export function storeCalls(config: BatchConfig, run: BatchRun): StoreCall[] {
  const rows = new Map(config.source.map((r) => [r.id, r]));
  const out: StoreCall[] = [];
  for (const e of run.trace) {
    if (e.kind !== 'claim' && e.kind !== 'claim-skipped') continue;
    for (const id of e.events ?? []) {
      const row = rows.get(id);
      if (!row) throw new Error(`store call for ${id}: no such source row`);
      const skipped = e.kind === 'claim-skipped';
      out.push({
        at: e.at,
        key: storeKeyName(dedupeKeyOf(row, config.dedupeKey)),
        eventId: id,
        engine: skipped ? 'held' : 'set',
        command: skipped && config.dedupe?.order === 'write-then-claim' ? 'exists' : 'set-nx',
      });
    }
  }
  return out;
}

/** The slot of each distinct call time, and the slot before which each expiry falls. */
export function timeSlots(
  calls: readonly StoreCall[],
  ttlMs: number,
): { slotOf: Map<number, number>; expirySlot: (expiresAt: number) => number; atExpiry: number } {
  const times = [...new Set(calls.map((c) => c.at))].sort((a, b) => a - b);
  const expiries = [...new Set(calls.map((c) => c.at + ttlMs))].sort((a, b) => a - b);
  const slotOf = new Map<number, number>();
  let slot = 0;
  let passed = 0;
  for (const t of times) {
    let now = passed;
    while (now < expiries.length && expiries[now]! <= t) now++;
    if (now !== passed && slotOf.size > 0) slot++;
    passed = now;
    slotOf.set(t, slot);
  }
  const expirySlot = (expiresAt: number) => {
    const next = times.find((t) => t >= expiresAt);
    return next === undefined ? slot + 1 : slotOf.get(next)!;
  };
  const expirySet = new Set(expiries);
  return { slotOf, expirySlot, atExpiry: times.filter((t) => expirySet.has(t)).length };
}

/** What Redis answered: `set` / `held` per call, or null when the timing was not conclusive. */
export async function replayOnRedis(
  redis: RedisServer,
  calls: readonly StoreCall[],
  ttlMs: number,
  gapMs: number,
): Promise<('set' | 'held')[] | null> {
  await redis.command('FLUSHALL');
  const { slotOf, expirySlot } = timeSlots(calls, ttlMs);
  const base = Date.now() + 50;
  const out: ('set' | 'held')[] = [];
  for (const c of calls) {
    const start = base + slotOf.get(c.at)! * gapMs;
    const wait = start - Date.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    const expiresAt = base + expirySlot(c.at + ttlMs) * gapMs - gapMs / 4;
    const reply =
      c.command === 'exists'
        ? await redis.command('EXISTS', c.key)
        : await redis.command('SET', c.key, '1', 'NX', 'PXAT', Math.round(expiresAt));
    if (Date.now() >= start + (3 * gapMs) / 4) return null;
    out.push(
      c.command === 'exists' ? (reply === 1 ? 'held' : 'set') : reply === 'OK' ? 'set' : 'held',
    );
  }
  return out;
}
