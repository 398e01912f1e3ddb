/**
 * The dedupe store against a real Redis: every batch preset variant whose store is Redis, and the
 * claim-order presets with a TTL just shorter and just longer than the retry's distance, replayed
 * on a `redis-server` the test starts itself (src/cli/redisServer.ts; scripts/redis.mjs installs
 * Debian's package). Each call must get the answer the engine gave: `SET … NX` sets the key only
 * if it does not exist, and `PXAT` (as `EX` does, relative to the call) ends it
 * (https://redis.io/docs/latest/commands/set/). A difference is a bug in the model, not the test.
 * Time is compressed (src/cli/dedupeRedisReplay.ts): a few hundred ms per case.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseScenario, simulateBatch, type BatchConfig } from '../engine';
import { batchPresets } from '../scenarios/library/batch';
import { replayOnRedis, storeCalls, timeSlots } from './dedupeRedisReplay';
import { startRedis, type RedisServer } from './redisServer';

let redis: RedisServer;
beforeAll(async () => {
  redis = await startRedis();
}, 60_000);
afterAll(() => redis?.stop());

interface RedisCase {
  name: string;
  config: BatchConfig;
}

const presetCases: RedisCase[] = batchPresets.flatMap((p) =>
  p.variants.flatMap((v) => {
    const parsed = parseScenario(v.scenario);
    const config = parsed.ok ? parsed.scenario.batch : undefined;
    return config?.dedupe?.store === 'redis' ? [{ name: `${p.id}/${v.id}`, config }] : [];
  }),
);

/*
 * redis-claim-order: try 1 claims e1..e5 (e1..e4 for write-then-claim) 1 s apart from 86,461,000
 * ms; try 2 meets them again 1 s apart from 86,826,000 ms — each key 365,000 ms after its claim.
 * TTL 364,500 ms: every key expired 500 ms before try 2 reaches it (claimed again); TTL 365,500 ms:
 * every key still held, 500 ms to spare.
 */
const ttlCases: RedisCase[] = presetCases
  .filter((c) => c.name.startsWith('redis-claim-order/'))
  .flatMap((c) =>
    [364_500, 365_500].map((ttlMs) => ({
      name: `${c.name} ttlMs ${ttlMs}`,
      config: { ...c.config, dedupe: { ...c.config.dedupe!, ttlMs } },
    })),
  );

describe('a real redis-server agrees with the dedupe store', () => {
  it('covers the Redis presets and both sides of a TTL', () => {
    // redis-claim-order: claim-then-write, write-then-claim (one-transaction is a table);
    // dedupe-ttl-expired: ttl-1-day, ttl-7-days; content-key-false-merge: both variants = 6.
    expect(presetCases.map((c) => c.name)).toHaveLength(6);
    expect(ttlCases).toHaveLength(4);
  });
  it('the TTL cases claim again after expiry and skip before it', () => {
    // 364,500: try 2's five (claim-then-write) calls all set the key again; 365,500: all held.
    const [expired, held] = ttlCases.slice(0, 2).map((c) => {
      const calls = storeCalls(c.config, simulateBatch(c.config));
      return calls.filter((x) => x.at >= 86_826_000 && x.at <= 86_830_000);
    });
    expect(expired!.map((x) => x.engine)).toEqual(['set', 'set', 'set', 'set', 'set']);
    expect(held!.map((x) => x.engine)).toEqual(['held', 'held', 'held', 'held', 'held']);
  });
  it.each([...presetCases, ...ttlCases].map((c) => [c.name, c] as const))(
    '%s',
    async (_name, c) => {
      const calls = storeCalls(c.config, simulateBatch(c.config));
      const ttlMs = c.config.dedupe!.ttlMs;
      expect(calls.length).toBeGreaterThan(0);
      // No call exactly at an expiry: a wall clock cannot be hit to the millisecond.
      expect(timeSlots(calls, ttlMs).atExpiry).toBe(0);
      let real: ('set' | 'held')[] | null = null;
      // 200 ms slots; a loaded machine that answers too late gets wider ones.
      for (const gapMs of [200, 800, 3200]) {
        real = await replayOnRedis(redis, calls, ttlMs, gapMs);
        if (real) break;
      }
      expect(real, 'every replay was too slow to be conclusive').not.toBeNull();
      const disagree = calls
        .map((x, i) => ({ ...x, redis: real![i] }))
        .filter((x) => x.redis !== x.engine)
        .map((x) => `${x.eventId} at ${x.at} ms: engine ${x.engine}, Redis ${x.redis}`);
      expect(disagree).toEqual([]);
    },
    60_000,
  );
});
