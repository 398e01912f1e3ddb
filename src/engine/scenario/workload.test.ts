import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, concatBytes, utf8ToBytes } from '@noble/hashes/utils.js';
import { describe, expect, it, vi } from 'vitest';
import { LIMITS } from './limits';
import { parseScenario } from './validate';
import { buildEvents, lnUnit, type Events } from './workload';

// Whole runs on a loaded two-core machine: its slowest test took 1.8 s in a full CI run
// (this file 6.2 s), so each gets 10 s, ≥ 5× that, far from vitest's 5 s default.
vi.setConfig({ testTimeout: 10_000 });

/** The events of a generated workload, through the schema (defaults applied). */
function generated(generate: object, seed = 1): Events {
  const r = parseScenario({ version: 1, name: 'g', seed, workload: { generate } });
  if (!r.ok) throw new Error(JSON.stringify(r.issues));
  return buildEvents(r.scenario.workload, r.scenario.seed);
}

const times = (e: Events) => Array.from(e.at);
const keysOf = (e: Events) => Array.from(e.keyIndex, (k) => e.keys[k]);
const gaps = (e: Events) =>
  times(e)
    .slice(1)
    .map((t, i) => t - e.at[i]!);

describe('generated workloads: the defaults are unchanged', () => {
  it('fixed spacing, round-robin keys and 10·i amounts, whatever the seed', () => {
    const e = generated({ count: 10, startAtMs: 10, intervalMs: 10, keys: 4 }, 99);
    expect(times(e)).toEqual([10, 20, 30, 40, 50, 60, 70, 80, 90, 100]);
    expect(Array.from(e.amount)).toEqual([10, 20, 30, 40, 50, 60, 70, 80, 90, 100]);
    expect(keysOf(e)).toEqual(['k0', 'k1', 'k2', 'k3', 'k0', 'k1', 'k2', 'k3', 'k0', 'k1']);
    expect(e.keys).toEqual(['k0', 'k1', 'k2', 'k3']);
    expect(e.trueSum).toBe(550);
    // The seed plays no part unless a random option is chosen.
    const other = generated({ count: 10, startAtMs: 10, intervalMs: 10, keys: 4 }, 1);
    expect([other.at, other.amount, other.keyIndex, other.keys]).toEqual([
      e.at,
      e.amount,
      e.keyIndex,
      e.keys,
    ]);
  });

  it('a fractional interval with fixed amounts gives the columns recorded before the generator was seeded', () => {
    const e = generated({
      count: 100_000,
      startAtMs: 3,
      intervalMs: 0.37,
      keys: 7,
      amounts: 'fixed',
      fixedAmount: 2.5,
    });
    const bytes = (a: ArrayBufferView) => new Uint8Array(a.buffer, a.byteOffset, a.byteLength);
    const digest = bytesToHex(
      sha256(
        concatBytes(
          bytes(e.at),
          bytes(e.amount),
          bytes(e.keyIndex),
          utf8ToBytes(e.keys.join(',')),
          utf8ToBytes(String(e.trueSum)),
          utf8ToBytes(e.id(0) + e.id(e.count - 1)),
        ),
      ),
    );
    // Recorded from the generator before `arrivals`, `keyChoice` and random amounts existed.
    expect(digest).toBe('a974e767972094cd66cc9f8dd2474aa7f37f792b56df7cc5663deb75be8ac62b');
    expect([e.at[0], e.at[1], e.at[3], e.at[e.count - 1], e.trueSum]).toEqual([
      3, 3, 4, 37002, 250_000,
    ]);
  });
});

describe('generated workloads: ratePerSec', () => {
  it('200 events per second, uniform: one every 5 ms from startAtMs', () => {
    const e = generated({ count: 6, startAtMs: 7, ratePerSec: 200 });
    expect(times(e)).toEqual([7, 12, 17, 22, 27, 32]);
  });

  it('3 per second: event i at ⌊i·1000/3⌋, whole seconds exact', () => {
    expect(times(generated({ count: 7, ratePerSec: 3 }))).toEqual([
      0, 333, 666, 1000, 1333, 1666, 2000,
    ]);
  });

  it('is the same spacing as the equivalent intervalMs', () => {
    expect(times(generated({ count: 50, ratePerSec: 400 }))).toEqual(
      times(generated({ count: 50, intervalMs: 2.5 })),
    );
  });
});

describe('generated workloads: Poisson arrivals', () => {
  const spec = { count: 10_000, startAtMs: 100, ratePerSec: 200, arrivals: 'poisson' };

  it('is deterministic: the same scenario and seed give the same times, build after build', () => {
    const a = generated(spec, 7);
    const b = generated(spec, 7);
    expect(b.at).toEqual(a.at);
    expect(times(a).slice(0, 12)).toEqual([
      100, 101, 104, 109, 122, 127, 138, 140, 141, 143, 146, 149,
    ]);
    expect(a.at[a.count - 1]).toBe(49_534);
  });

  it('a different seed gives different times', () => {
    expect(times(generated(spec, 8))).not.toEqual(times(generated(spec, 7)));
  });

  it('starts at startAtMs, never goes back, and keeps the mean rate (5 ms ± 3% over 10,000 events)', () => {
    const e = generated(spec, 7);
    expect(e.at[0]).toBe(100);
    const g = gaps(e);
    expect(Math.min(...g)).toBe(0); // events may share a millisecond
    // The sample mean of 9,999 exponential gaps has a standard error of 1% of the mean: ±3% is 3σ.
    // Seed 7 gives 49,434 / 9,999 = 4.944 ms.
    const mean = (e.at[e.count - 1]! - e.at[0]!) / (e.count - 1);
    expect(mean).toBeGreaterThan(5 * 0.97);
    expect(mean).toBeLessThan(5 * 1.03);
    // Exponential gaps: the standard deviation is about the mean (uniform arrivals: 0).
    const sd = Math.sqrt(g.reduce((s, x) => s + (x - mean) ** 2, 0) / g.length);
    expect(sd / mean).toBeGreaterThan(0.9);
    expect(sd / mean).toBeLessThan(1.1);
  });

  it('keeps the keys and amounts of the defaults (round-robin, 10·i)', () => {
    const e = generated({ ...spec, count: 5, keys: 2 }, 7);
    expect(keysOf(e)).toEqual(['k0', 'k1', 'k0', 'k1', 'k0']);
    expect(Array.from(e.amount)).toEqual([10, 20, 30, 40, 50]);
  });

  it('holds a long random tail at the time limit (times are Int32 ms)', () => {
    // Nominal last event exactly at the limit; a gap above 1 ms would pass it.
    const last = Array.from({ length: 20 }, (_, s) =>
      generated({ count: 2, startAtMs: LIMITS.timeMs - 1, intervalMs: 1, arrivals: 'poisson' }, s),
    ).map((e) => e.at[1]!);
    expect(Math.max(...last)).toBe(LIMITS.timeMs);
    expect(Math.min(...last)).toBe(LIMITS.timeMs - 1);
  });
});

describe('generated workloads: random keys and amounts', () => {
  it('keyChoice random uses only the listed keys, differs by seed, and lists keys in order of first use', () => {
    const a = generated({ count: 12, keys: 5, keyChoice: 'random' }, 7);
    expect(keysOf(a)).toEqual([
      'k3',
      'k1',
      'k1',
      'k4',
      'k2',
      'k4',
      'k0',
      'k0',
      'k3',
      'k4',
      'k2',
      'k2',
    ]);
    expect(a.keys).toEqual(['k3', 'k1', 'k4', 'k2', 'k0']);
    const b = generated({ count: 12, keys: 5, keyChoice: 'random' }, 8);
    expect(keysOf(b)).not.toEqual(keysOf(a));
    const many = generated({ count: 5000, keys: 37, keyChoice: 'random' }, 3);
    const allowed = new Set(Array.from({ length: 37 }, (_, k) => `k${k}`));
    expect(many.keys.every((k) => allowed.has(k))).toBe(true);
    expect(new Set(many.keys).size).toBe(many.keys.length);
    expect(many.keys.length).toBe(37); // 5000 draws over 37 keys reach them all
  });

  it('with more keys than events, the key table holds only the keys drawn', () => {
    const e = generated({ count: 10, keys: 1_000_000, keyChoice: 'random' }, 1);
    expect(e.keys.length).toBeLessThanOrEqual(10);
    expect(keysOf(e).every((k) => /^k\d+$/.test(k!) && Number(k!.slice(1)) < 1_000_000)).toBe(true);
  });

  it('amounts random: whole numbers in [min, max], both ends reached, the true sum theirs', () => {
    const e = generated({ count: 8, amounts: 'random', amountRange: { min: 1, max: 6 } }, 7);
    expect(Array.from(e.amount)).toEqual([5, 1, 2, 1, 4, 3, 3, 1]);
    expect(e.trueSum).toBe(20);
    const many = generated({ count: 2000, amounts: 'random', amountRange: { min: -2, max: 2 } });
    const seen = new Set(many.amount);
    expect([...seen].sort()).toEqual([-1, -2, 0, 1, 2]);
    expect(many.trueSum).toBe(many.amount.reduce((s, x) => s + x, 0));
    // Spans beyond 2^32 draw 53 bits.
    const wide = generated(
      { count: 500, amounts: 'random', amountRange: { min: -1e12, max: 1e12 } },
      2,
    );
    expect(wide.amount.every((x) => Number.isInteger(x) && x >= -1e12 && x <= 1e12)).toBe(true);
    expect(Math.max(...wide.amount) - Math.min(...wide.amount)).toBeGreaterThan(1e12);
  });

  it('each random choice draws from its own stream: turning one on leaves the others as they were', () => {
    const poisson = { count: 300, intervalMs: 3, arrivals: 'poisson', keys: 9 };
    const times0 = generated(poisson, 5).at;
    const all = generated(
      { ...poisson, keyChoice: 'random', amounts: 'random', amountRange: { min: 0, max: 99 } },
      5,
    );
    expect(all.at).toEqual(times0);
    const keysOnly = generated({ count: 300, keys: 9, keyChoice: 'random' }, 5);
    expect(keysOf(all)).toEqual(keysOf(keysOnly));
  });
});

describe('lnUnit', () => {
  it('agrees with Math.log to 1e-15 (relative) on (0, 1]', () => {
    expect(lnUnit(1)).toBe(0);
    expect(lnUnit(0)).toBe(-Infinity);
    expect(lnUnit(0.5)).toBe(-Math.LN2);
    for (const x of [2 ** -32, 1e-9, 0.1, 0.25, Math.SQRT1_2, 0.7071, 0.9, 1 - 2 ** -32]) {
      expect(Math.abs(lnUnit(x) - Math.log(x))).toBeLessThanOrEqual(1e-15 * Math.abs(Math.log(x)));
    }
    for (let j = 1; j <= 10_000; j++) {
      const x = j / 10_001;
      expect(Math.abs(lnUnit(x) - Math.log(x))).toBeLessThanOrEqual(1e-15 * Math.abs(Math.log(x)));
    }
  });
});

describe('a parsed scenario parses again (the page re-checks the scenario of the run it shows)', () => {
  it('with ratePerSec: intervalMs is not filled in, so it does not read as "both given"', () => {
    const input = {
      version: 1,
      name: 'rate',
      workload: { generate: { count: 5, ratePerSec: 200, arrivals: 'poisson' } },
    };
    const once = parseScenario(input);
    if (!once.ok) throw new Error('invalid');
    expect(once.scenario.workload.generate!.intervalMs).toBeUndefined();
    const twice = parseScenario(once.scenario);
    expect(twice.ok).toBe(true);
    if (twice.ok) expect(twice.scenario).toEqual(once.scenario);
  });
});
