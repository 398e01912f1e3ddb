/**
 * Business events of a workload, as compact columns.
 * Generated workloads are not materialized as objects: a million events cost four typed arrays
 * and the ids are made on demand.
 */
import { toEventId, toIdentityId, type EventId, type IdentityId } from '../ids';
import { createRng, type Rng } from '../core/rng';
import { LIMITS } from './limits';
import { DEFAULT_INTERVAL_MS, generateIntervalMs } from './generateInterval';
import type { EventSpec, Scenario } from './schema';
import { alloc } from '../core/pool';

/** The workload's events, sorted by time (stable). Index i is the event's number in the trace. */
export interface Events {
  readonly count: number;
  /** Time the application hands event i to the producer (ms). */
  readonly at: Int32Array;
  readonly amount: Float64Array;
  /** Index into `keys` of event i's record key. */
  readonly keyIndex: Int32Array;
  readonly keys: readonly string[];
  /** Business id of event i. */
  id(i: number): string;
  /** Business-event identity: events listed twice with the same id share one identity index. */
  readonly identity: Int32Array;
  /** Number of distinct business ids. */
  readonly identities: number;
  /** Business id of identity j. */
  identityId(j: number): string;
  /** Identity index of a business id, or -1. */
  identityOf(id: string): IdentityId;
  /** The first event index of identity j. */
  firstIndexOf(j: number): EventId;
  /** Amount per identity: the last one listed wins (what an upsert leaves, and the true sum's). */
  readonly identityAmount: Float64Array;
  /** The true total: Σ amount over distinct business ids (the last amount listed wins). */
  readonly trueSum: number;
  /** Content columns of event i as listed (none for generated events). */
  content(i: number): EventContent;
}

/** The content columns an event may carry (schemaWorkload.ts). */
type EventContent = Pick<EventSpec, 'time' | 'user' | 'item'>;

/** The set of business ids in a workload (for validating fault references). */
export function eventIds(w: Scenario['workload']): { has(id: string): boolean } {
  if (w.events) return new Set(w.events.map((e) => e.id));
  const g = w.generate!;
  const re = new RegExp(`^${g.idPrefix.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}([1-9][0-9]*)$`);
  return {
    has: (id) => {
      const m = re.exec(id);
      return m !== null && Number(m[1]) <= g.count;
    },
  };
}

/**
 * Build the event columns of a workload.
 * @param seed - the scenario's seed: a generator's random arrivals, keys and amounts draw from
 *   the streams `workload:arrivals`, `workload:keys` and `workload:amounts` of it (one per
 *   purpose, so making the keys random leaves the arrival times as they were).
 */
export function buildEvents(w: Scenario['workload'], seed: number): Events {
  if (w.events) {
    const list = w.events.map((e, i) => ({ e, i })).sort((a, b) => a.e.at - b.e.at || a.i - b.i);
    const n = list.length;
    const at = alloc(Int32Array, n);
    const amount = alloc(Float64Array, n);
    const keyIndex = alloc(Int32Array, n);
    const identity = alloc(Int32Array, n);
    const keys: string[] = [];
    const keyMap = new Map<string, number>();
    const idMap = new Map<string, number>();
    const idList: string[] = [];
    const lastAmount: number[] = [];
    list.forEach(({ e }, i) => {
      at[i] = e.at;
      amount[i] = e.amount;
      const key = e.key ?? e.id;
      let k = keyMap.get(key);
      if (k === undefined) {
        k = keys.length;
        keys.push(key);
        keyMap.set(key, k);
      }
      keyIndex[i] = k;
      let j = idMap.get(e.id);
      if (j === undefined) {
        j = idList.length;
        idList.push(e.id);
        idMap.set(e.id, j);
      }
      identity[i] = j;
      lastAmount[j] = e.amount;
    });
    const ids = list.map(({ e }) => e.id);
    const specs = list.map(({ e }) => e);
    const firstIndex = new Int32Array(idList.length).fill(-1);
    for (let i = n - 1; i >= 0; i--) firstIndex[identity[i]!] = i;
    return {
      firstIndexOf: (j) => toEventId(firstIndex[j]!),
      content: (i) => specs[i]!,
      count: n,
      at,
      amount,
      keyIndex,
      keys,
      id: (i) => ids[i]!,
      identity,
      identities: idList.length,
      identityId: (j) => idList[j]!,
      identityOf: (id) => toIdentityId(idMap.get(id) ?? -1),
      identityAmount: Float64Array.from(lastAmount),
      trueSum: lastAmount.reduce((a, b) => a + b, 0),
    };
  }
  const g = w.generate!;
  const n = g.count;
  const at = arrivalTimes(g, seed);
  const amount = alloc(Float64Array, n);
  const keyIndex = alloc(Int32Array, n);
  const identity = alloc(Int32Array, n);
  const amountRng = g.amounts === 'random' ? createRng(seed, 'workload:amounts') : null;
  const range = g.amountRange ?? { min: 0, max: 0 };
  let sum = 0;
  for (let i = 0; i < n; i++) {
    const a =
      amountRng !== null
        ? range.min + uniformInt(amountRng, range.max - range.min + 1)
        : g.amounts === 'index'
          ? 10 * (i + 1)
          : g.fixedAmount;
    amount[i] = a;
    sum += a;
    identity[i] = i;
  }
  let keys: string[];
  if (g.keyChoice === 'random') {
    // The key table lists the keys drawn, in order of first use (as for listed events): with
    // more keys than events, the ones never drawn stay out of it.
    const rng = createRng(seed, 'workload:keys');
    const slot = new Int32Array(g.keys).fill(-1);
    keys = [];
    for (let i = 0; i < n; i++) {
      const k = rng.int(g.keys);
      if (slot[k] === -1) {
        slot[k] = keys.length;
        keys.push(`k${k}`);
      }
      keyIndex[i] = slot[k]!;
    }
  } else {
    for (let i = 0; i < n; i++) keyIndex[i] = i % g.keys;
    const keyCount = Math.min(g.keys, n);
    keys = Array.from({ length: keyCount }, (_, k) => `k${k}`);
  }
  const prefix = g.idPrefix;
  const re = new RegExp(`^${prefix.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}([1-9][0-9]*)$`);
  return {
    count: n,
    at,
    amount,
    keyIndex,
    keys,
    id: (i) => prefix + (i + 1),
    identity,
    identities: n,
    identityId: (j) => prefix + (j + 1),
    firstIndexOf: toEventId,
    content: () => NO_CONTENT,
    identityOf: (id) => {
      const m = re.exec(id);
      const i = m ? Number(m[1]) - 1 : -1;
      return toIdentityId(i < n ? i : -1);
    },
    // One identity per generated event.
    identityAmount: amount,
    trueSum: sum,
  };
}

const NO_CONTENT: EventContent = {};

type Generate = NonNullable<Scenario['workload']['generate']>;

/** When each generated event is due (ms), non-decreasing. */
function arrivalTimes(g: Generate, seed: number): Int32Array {
  const n = g.count;
  const at = alloc(Int32Array, n);
  if (g.arrivals === 'poisson') {
    // A Poisson process: exponential gaps of the mean interval, by inversion (−mean·ln U). Times
    // accumulate unrounded and are floored one by one, so flooring never drifts the mean. The
    // schema bounds the nominal last time; a long random tail is held at the time limit (Int32).
    const mean = generateIntervalMs(g);
    const rng = createRng(seed, 'workload:arrivals');
    let t = g.startAtMs;
    for (let i = 0; i < n; i++) {
      if (i > 0) t += -mean * lnUnit((4294967296 - rng.u32()) / 4294967296);
      at[i] = Math.min(Math.floor(t), LIMITS.timeMs);
    }
  } else if (g.ratePerSec !== undefined) {
    // i·1000/rate rather than i·(1000/rate): exact whenever the true time is a whole number.
    for (let i = 0; i < n; i++) at[i] = Math.floor(g.startAtMs + (i * 1000) / g.ratePerSec);
  } else {
    const interval = g.intervalMs ?? DEFAULT_INTERVAL_MS;
    for (let i = 0; i < n; i++) at[i] = Math.floor(g.startAtMs + i * interval);
  }
  return at;
}

/** Uniform integer in [0, n) for 1 ≤ n ≤ 2^53: one draw below 2^32, two (53 bits) above. */
function uniformInt(rng: Rng, n: number): number {
  if (n <= 4294967296) return rng.int(n);
  const hi = rng.u32() >>> 5; // 27 bits
  const lo = rng.u32() >>> 6; // 26 bits
  return Math.floor(((hi * 67108864 + lo) / 9007199254740992) * n);
}

/**
 * ln x for x in (0, 1], from + − × ÷ only. Why not `Math.log`: ECMAScript leaves its last bit
 * to the implementation, and a run must give the same bytes in every browser and in Node.
 * x = 2^e·m with m in [√½, √2) (exact scaling), then ln m = 2·atanh(s), s = (m−1)/(m+1),
 * |s| ≤ 0.172, whose odd series is summed to the s^25 term (the rest is below 2^−70 of it).
 */
export function lnUnit(x: number): number {
  if (x <= 0) return -Infinity; // and no endless halving loop
  let e = 0;
  let m = x;
  while (m < Math.SQRT1_2) {
    m *= 2;
    e--;
  }
  const s = (m - 1) / (m + 1);
  const s2 = s * s;
  let p = 1 / 25;
  for (let k = 11; k >= 0; k--) p = 1 / (2 * k + 1) + s2 * p;
  return e * Math.LN2 + 2 * s * p;
}
