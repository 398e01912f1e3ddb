/**
 * What the run client needs of a scenario before it runs one: its cache key, its size (inline or
 * in a Worker), and the shape of a run's result. The run itself is in computeRun.ts, loaded only
 * when a run is due (src/platform/runClient.ts).
 */
import type { Issue } from '../../engine';
import type { RunView } from './runView';

/** The outcome of `computeRunView` (computeRun.ts). */
export type ComputeResult =
  { ok: true; view: RunView } | { ok: false; issues: Issue[] } | { ok: false; error: string };

/** JSON with object keys sorted, so two equal scenarios give one string whatever the key order. */
export function canonicalJson(x: unknown): string {
  return JSON.stringify(x, (_k, val: unknown) => {
    if (val === null || typeof val !== 'object' || Array.isArray(val)) return val;
    const o = val as Record<string, unknown>;
    return Object.fromEntries(
      Object.keys(o)
        .sort()
        .map((k) => [k, o[k]]),
    );
  });
}

/**
 * A scenario's key (the run cache's): its canonical JSON itself — exact, so two scenarios never
 * share a cached run, and nothing to hash (a digest cost the embed's first load a SHA-256).
 */
export function scenarioKey(input: unknown): string {
  return canonicalJson(input);
}

/**
 * A rough size of a scenario's run, in events, to decide whether it is worth a Worker: explicit
 * events count as listed, generated ones as generated.
 */
export function scenarioSize(input: unknown): number {
  const w = (input as { workload?: { events?: unknown[]; generate?: { count?: number } } })
    ?.workload;
  if (!w) return 0;
  if (Array.isArray(w.events)) return w.events.length;
  return typeof w.generate?.count === 'number' ? w.generate.count : 0;
}
