/**
 * End-to-end latency per business identity (first send → first effect at the primary point) and
 * its percentiles, from the checker's scan.
 */
import type { Run } from './simulate';
import type { Verdict } from './checker';
import type { Scan } from './checkerScan';
import type { Trace } from './trace';
import { alloc } from './core/pool';

/**
 * Latency per identity and its percentiles, in one pass over the identities. Consumes
 * `scan.sent`: once read, its slots hold the latencies to rank (no second million-entry buffer).
 */
export function latency(
  run: Run,
  scan: Scan,
): Pick<Verdict, 'latency' | 'latencyOf' | 'visibleAt'> {
  const n = run.events.identities;
  const times = run.trace.time;
  const { sent, seenAt } = scan;
  const latencyOf = alloc(Float64Array, n);
  const m = latencies(n, times, sent, seenAt, latencyOf);
  if (m === 0)
    return { latency: { p50: 0, p99: 0, max: 0, count: 0 }, latencyOf, visibleAt: seenAt };
  const ds = sent.subarray(0, m);
  // The k-th smallest, by selection (no full sort of a million latencies). `select` leaves the
  // array partitioned around rank k (nothing after it is smaller), so each higher rank is looked
  // for after the previous one only, and the maximum is the largest after the 99th percentile.
  const rank = (f: number) => Math.min(m - 1, Math.ceil(f * m) - 1);
  const k50 = rank(0.5);
  const k99 = rank(0.99);
  const p50 = select(ds, k50);
  const upper = ds.subarray(k50);
  const p99 = select(upper, k99 - k50);
  return {
    latency: { p50, p99, max: maxFrom(upper, k99 - k50), count: m },
    latencyOf,
    visibleAt: seenAt,
  };
}

/**
 * The loop of {@link latency}: each identity's latency into `latencyOf` (-1: none), and the known
 * ones packed at the front of `sent` (consumed); returns how many. Apart so that V8 optimizes it
 * as a whole: inside `latency`, its on-stack-replaced code was thrown away after the loop at
 * every run.
 */
function latencies(
  n: number,
  times: Trace['time'],
  sent: Float64Array,
  seenAt: Int32Array,
  latencyOf: Float64Array,
): number {
  let m = 0;
  for (let j = 0; j < n; j++) {
    const at = seenAt[j]!;
    const s = sent[j]!;
    // Both ends or none: an effect of an event the application never sent has no latency.
    const d = at >= 0 && s >= 0 ? times[at]! - s : -1;
    latencyOf[j] = d;
    // m ≤ j: slot m of `sent` has been read already.
    if (at >= 0 && s >= 0) sent[m++] = d;
  }
  return m;
}

/** The largest of `a[from..]`. */
function maxFrom(a: Float64Array, from: number): number {
  let max = a[from]!;
  for (let i = from + 1; i < a.length; i++) if (a[i]! > max) max = a[i]!;
  return max;
}

/**
 * The k-th smallest value of `a` (0-based), by quickselect; reorders `a`, leaving every value
 * before index k no larger than it and every value after it no smaller.
 */
function select(a: Float64Array, k: number): number {
  let lo = 0;
  let hi = a.length - 1;
  while (lo < hi) {
    const pivot = a[(lo + hi) >> 1]!;
    let i = lo;
    let j = hi;
    while (i <= j) {
      while (a[i]! < pivot) i++;
      while (a[j]! > pivot) j--;
      if (i <= j) {
        const x = a[i]!;
        a[i] = a[j]!;
        a[j] = x;
        i++;
        j--;
      }
    }
    if (k <= j) hi = j;
    else if (k >= i) lo = i;
    else return a[k]!;
  }
  return a[k]!;
}
