/**
 * Scenario in, view out: validate, simulate, derive. The one function the run client calls, on
 * the main thread for small runs and in a Web Worker for big ones (src/platform/runClient.ts).
 */
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex } from '@noble/hashes/utils.js';
import { parseScenario, simulate, type Issue } from '../engine';
import { toRunView, type RunView } from './runView';

/** The outcome of {@link computeRunView}. */
export type ComputeResult =
  { ok: true; view: RunView } | { ok: false; issues: Issue[] } | { ok: false; error: string };

/**
 * Validate and run a scenario (as written, defaults not applied) and derive its view.
 * Never throws: an invalid scenario gives its issues (each naming the field), an engine failure
 * its message. `onPhase` reports progress between the (synchronous) steps.
 */
export function computeRunView(
  input: unknown,
  onPhase: (phase: 'simulating' | 'deriving') => void = () => {},
): ComputeResult {
  const parsed = parseScenario(input);
  if (!parsed.ok) return { ok: false, issues: parsed.issues };
  try {
    onPhase('simulating');
    const run = simulate(parsed.scenario);
    onPhase('deriving');
    return { ok: true, view: toRunView(run) };
  } catch (e) {
    return { ok: false, error: e instanceof Error ? e.message : String(e) };
  }
}

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

/** A short, stable key of a scenario (the run cache's key): 16 hex digits of SHA-256. */
export function scenarioKey(input: unknown): string {
  return bytesToHex(sha256(new TextEncoder().encode(canonicalJson(input)))).slice(0, 16);
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

/**
 * The engine's own totals at the primary point for the run cut off at time `t` (`stopAtMs = t`):
 * the reference the dashboard's live counters must equal at cursor time t (the browser tests
 * compare them). Null for an invalid scenario.
 */
export function cutOffTotals(
  input: unknown,
  t: number,
): { rows: number; duplicates: number; lost: number; observedSum: number } | null {
  const parsed = parseScenario(input);
  if (!parsed.ok) return null;
  const run = simulate({ ...parsed.scenario, stopAtMs: Math.floor(t) });
  const p = run.verdict.points.find((x) => x.name === run.verdict.primary)!;
  return {
    rows: p.totals.rows,
    duplicates: p.totals.duplicates,
    lost: p.totals.lost,
    observedSum: p.totals.observedSum,
  };
}
