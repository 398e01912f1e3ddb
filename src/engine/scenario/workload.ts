/**
 * Business events of a workload, as compact columns.
 * Generated workloads are not materialized as objects: a million events cost four typed arrays
 * and the ids are made on demand.
 */
import type { Scenario } from './schema';

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
  identityOf(id: string): number;
  /** The first event index of identity j. */
  firstIndexOf(j: number): number;
  /** The true total: Σ amount over distinct business ids (the last amount listed wins). */
  readonly trueSum: number;
}

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

/** Build the event columns of a workload. */
export function buildEvents(w: Scenario['workload']): Events {
  if (w.events) {
    const list = w.events.map((e, i) => ({ e, i })).sort((a, b) => a.e.at - b.e.at || a.i - b.i);
    const n = list.length;
    const at = new Int32Array(n);
    const amount = new Float64Array(n);
    const keyIndex = new Int32Array(n);
    const identity = new Int32Array(n);
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
    const firstIndex = new Int32Array(idList.length).fill(-1);
    for (let i = n - 1; i >= 0; i--) firstIndex[identity[i]!] = i;
    return {
      firstIndexOf: (j) => firstIndex[j]!,
      count: n,
      at,
      amount,
      keyIndex,
      keys,
      id: (i) => ids[i]!,
      identity,
      identities: idList.length,
      identityId: (j) => idList[j]!,
      identityOf: (id) => idMap.get(id) ?? -1,
      trueSum: lastAmount.reduce((a, b) => a + b, 0),
    };
  }
  const g = w.generate!;
  const n = g.count;
  const at = new Int32Array(n);
  const amount = new Float64Array(n);
  const keyIndex = new Int32Array(n);
  const identity = new Int32Array(n);
  let sum = 0;
  for (let i = 0; i < n; i++) {
    at[i] = Math.floor(g.startAtMs + i * g.intervalMs);
    const a = g.amounts === 'index' ? 10 * (i + 1) : g.fixedAmount;
    amount[i] = a;
    sum += a;
    keyIndex[i] = i % g.keys;
    identity[i] = i;
  }
  const keyCount = Math.min(g.keys, n);
  const keys = Array.from({ length: keyCount }, (_, k) => `k${k}`);
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
    firstIndexOf: (j) => j,
    identityOf: (id) => {
      const m = re.exec(id);
      if (!m) return -1;
      const i = Number(m[1]) - 1;
      return i < n ? i : -1;
    },
    trueSum: sum,
  };
}
