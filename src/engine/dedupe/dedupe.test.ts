/**
 * A dedupe store in front of the batch job's append (docs/semantics/batch.md#dedupe-stores), with
 * counts derived by hand. Redis `SET dedupe:{key} 1 NX EX <ttl>`: the first set wins while the key
 * lives (https://redis.io/docs/latest/commands/set/).
 *
 * The job: e1..e10 dated 2024-03-10, retries=1; try 1 crashes mid-write after 4 rows, i.e. after
 * e1..e4 are done and between the two steps of e5.
 */
import { describe, expect, it } from 'vitest';
import { BatchSchema, type BatchInput } from '../batch/schema';
import { simulateBatch } from '../batch/simulateBatch';
import { checkBatch, rowsPerEvent } from '../batch/checker';
import { explainBatch } from '../explain/batch';
import { DAY_MS } from '../batch/calendar';
import { DedupeStore, dedupeKeyOf } from './dedupeStore';

const source = Array.from({ length: 10 }, (_, i) => ({
  id: `e${i + 1}`,
  date: '2024-03-10',
  amount: 10 * (i + 1),
}));

function run(input: Partial<BatchInput>) {
  const r = simulateBatch(BatchSchema.parse({ source, task: { retries: 1 }, ...input }));
  const v = checkBatch(r, 'exactly-once');
  return { r, v, t: v.totals, rows: rowsPerEvent(v), why: explainBatch(r, v) };
}
const crashAt4 = [{ logicalDate: 0, point: 'mid-write' as const, afterRows: 4 }];

describe('the store', () => {
  it('SET NX: the first claim wins; after the TTL the key is gone', () => {
    const s = new DedupeStore(1000);
    expect(s.claim('k', 'a', 0)).toBe(true);
    expect(s.claim('k', 'b', 999)).toBe(false);
    // At exactly its expire time the key still exists: Redis expires a key when now > when
    // (keyIsExpired in redis/src/db.c), as a retention DELETE … WHERE claimed_at < now() - ttl
    // keeps a claim exactly ttl old.
    expect(s.claim('k', 'b', 1000)).toBe(false);
    expect(s.claim('k', 'b', 1001)).toBe(true);
    expect(s.holder('k', 1500)!.eventId).toBe('b');
  });
  it('the key is the event id or the content tuple', () => {
    const row = { id: 'e1', date: '2024-03-10', hour: 0, amount: 5, time: '09:15', user: 'u1' };
    expect(dedupeKeyOf(row, 'event-id')).toBe('id=e1');
    expect(dedupeKeyOf(row, ['time', 'user', 'amount'])).toBe('time=09:15|user=u1|amount=5');
  });
});

describe('claim and write order, crash between them on e5', () => {
  it('claim then write: e5 claimed, never written; the retry skips it — lost (9 rows)', () => {
    const { t, rows, v, why } = run({
      dedupe: { store: 'redis', order: 'claim-then-write' },
      faults: crashAt4,
    });
    expect(t).toMatchObject({ rows: 9, lost: 1, duplicates: 0 });
    expect(rows.e5).toBe(0);
    expect(v.events[4]!.fate).toBe('lost');
    expect(why[0]!.sentence).toContain('crashed before writing the row');
  });
  it('write then claim: e5 written, never claimed; the retry writes it again — 11 rows', () => {
    const { t, rows } = run({
      dedupe: { store: 'redis', order: 'write-then-claim' },
      faults: crashAt4,
    });
    expect(t).toMatchObject({ rows: 11, lost: 0, duplicates: 1 });
    expect(rows.e5).toBe(2);
  });
  it('one transaction (dedupe table): e5 neither; the retry writes it once — exact', () => {
    const { t, v } = run({
      dedupe: { store: 'table', order: 'one-transaction' },
      faults: crashAt4,
    });
    expect(t).toMatchObject({ rows: 10, lost: 0, duplicates: 0 });
    expect(v.observed).toBe('exactly-once');
  });
  it('one transaction needs the table store (Redis is not in the sink database)', () => {
    const bad = BatchSchema.safeParse({
      source,
      dedupe: { store: 'redis', order: 'one-transaction' },
    });
    expect(bad.error!.issues[0]!.path).toEqual(['dedupe', 'order']);
  });
});

describe('TTL expired before a replay', () => {
  // The run of 03-10 writes at 03-11 00:01; a clear re-runs the date at 03-13 00:00 (+2 days).
  const replay = (ttlMs: number) =>
    run({
      dedupe: { store: 'redis', ttlMs, order: 'claim-then-write' },
      clears: [{ logicalDate: 0, atMs: 3 * DAY_MS }],
    });
  it('TTL 1 day: every claim expired, the re-run appends all ten again (20 rows)', () => {
    expect(replay(DAY_MS).t).toMatchObject({ rows: 20, duplicates: 10 });
  });
  it('TTL 7 days: every claim still there, the re-run skips all (10 rows)', () => {
    expect(replay(7 * DAY_MS).t).toMatchObject({ rows: 10, duplicates: 0 });
  });
  it('the why names the claim, its expiry and the later claim, by attempt and time', () => {
    // e1..e10 claimed at 03-11 00:01:01..00:01:10 (read 60 s, a row a second), EX 86400: each
    // key expires a day later, 03-12 00:01; the clear's try 2 starts 03-13 00:00 and claims at
    // 00:01 again. Minutes alike for the ten: one sentence for them all.
    const { why } = replay(DAY_MS);
    expect(why).toHaveLength(1);
    expect(why[0]!.events).toHaveLength(10);
    expect(why[0]!.sentence).toBe(
      'e1 (dated 2024-03-10) was written by try 1 of 2024-03-10 (the scheduled run, started 2024-03-11 00:00), with its window pinned to the logical date ({{ ds }} = 2024-03-10); then by try 2 of 2024-03-10 (cleared and re-run, started 2024-03-13 00:00), with its window pinned to the logical date ({{ ds }} = 2024-03-10): its claim in the dedupe store, made by try 1 at 2024-03-11 00:01, expired at 2024-03-12 00:01 (TTL 1 day), before try 2 claimed it again at 2024-03-13 00:01.',
    );
  });
  it('write then claim, a crash after the write: both claimed, then expired — not "not yet claimed"', () => {
    // Try 1 writes and claims e1..e10 (00:01:01..00:01:10, EX 60) and fails after its write; the
    // retry starts 5 min after 00:01:10 and claims at 00:07: every claim gone at 00:02. The keys
    // were claimed: the crash did not fall between a write and its claim.
    const { t, why } = run({
      dedupe: { store: 'redis', ttlMs: 60_000, order: 'write-then-claim' },
      faults: [{ logicalDate: 0, point: 'after-write' }],
    });
    expect(t).toMatchObject({ rows: 20, duplicates: 10 });
    expect(why[0]!.sentence).toContain(
      ': its claim in the dedupe store, made by try 1 at 2024-03-11 00:01, expired at 2024-03-11 00:02 (TTL 1 min), before try 2 claimed it again at 2024-03-11 00:07.',
    );
    expect(why[0]!.sentence).not.toContain('not yet claimed');
  });
});

describe('an overwrite behind a dedupe store, re-run while the claims live', () => {
  it('the re-run skips every claimed row and its INSERT OVERWRITE empties the partition: all lost, and said so', () => {
    // The run of 03-10 claims and writes e1..e10 (03-11 00:01); the clear at 03-13 00:00 finds
    // every key still claimed (TTL 7 days), writes no row, and its overwrite of 2024-03-10 replaces
    // the partition with nothing: 0 rows, 10 lost. Not a crash between a claim and its write.
    const { t, why } = run({
      write: { mode: 'overwrite-partition' },
      dedupe: { store: 'redis', ttlMs: 7 * DAY_MS, order: 'claim-then-write' },
      clears: [{ logicalDate: 0, atMs: 3 * DAY_MS }],
    });
    expect(t).toMatchObject({ rows: 0, lost: 10, duplicates: 0 });
    expect(why).toHaveLength(1);
    expect(why[0]!.sentence).toBe(
      "e1 was written by try 1 of 2024-03-10 (the scheduled run, started 2024-03-11 00:00), then try 2 of 2024-03-10 (cleared and re-run, started 2024-03-13 00:00) overwrote partition 2024-03-10 with its window pinned to the logical date ({{ ds }} = 2024-03-10), so e1's row is gone: the dedupe store still held e1's claim, so try 2 skipped e1 and its overwrite left it out.",
    );
  });
});

describe('a content key merges two real events (false merge)', () => {
  const twins = [
    { id: 'p1', date: '2024-03-10', time: '09:15', user: 'u1', item: 'tea', amount: 5 },
    { id: 'p2', date: '2024-03-10', time: '09:15', user: 'u1', item: 'tea', amount: 5 },
  ];
  it('event time + payload: p2 is skipped as a copy of p1; the event id keeps both', () => {
    const content = run({
      source: twins,
      dedupeKey: ['time', 'user', 'item', 'amount'],
      dedupe: {},
    });
    expect(content.v.events.map((e) => e.fate)).toEqual(['once', 'false-merge']);
    expect(content.t).toMatchObject({ rows: 1, lost: 1, falseMerges: 1 });
    expect(content.why[0]!.sentence).toContain('dedupe:time=09:15|user=u1|item=tea|amount=5');
    expect(run({ source: twins, dedupe: {} }).t).toMatchObject({ rows: 2, lost: 0 });
  });
});
