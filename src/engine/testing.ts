/**
 * Helpers for the engine's tests (not exported from the engine's entry point): build a scenario
 * from a partial input, run it, and read counts by business id at any observation point.
 */
import { parseScenario, formatIssues } from './scenario/validate';
import type { ScenarioInput } from './scenario/schema';
import { simulate, type Run } from './simulate';
import type { Point } from './checker';

/** `n` events e1..en with amount 10·i (docs/semantics/README.md#amounts), at `at(i)` ms. */
export function events(
  n: number,
  at: (i: number) => number = (i) => i,
  prefix = 'e',
): { id: string; amount: number; at: number }[] {
  return Array.from({ length: n }, (_, k) => ({
    id: `${prefix}${k + 1}`,
    amount: 10 * (k + 1),
    at: at(k + 1),
  }));
}

/** Parse (throwing on invalid input, with the issues) and simulate. */
export function runScenario(
  input: Omit<ScenarioInput, 'version' | 'name'> & { name?: string },
): Run {
  const r = parseScenario({ version: 1, name: 'test', ...input });
  if (!r.ok) throw new Error(`invalid test scenario:\n${formatIssues(r.issues)}`);
  return simulate(r.scenario);
}

/** An observation point of a run (default: the primary one). */
export function point(run: Run, name = run.verdict.primary): Point {
  const p = run.verdict.points.find((x) => x.name === name);
  if (!p)
    throw new Error(
      `no point ${name}; points: ${run.verdict.points.map((x) => x.name).join(', ')}`,
    );
  return p;
}

/** Effects (max of rows and applications) per business id at a point. */
export function countsById(run: Run, name?: string): Record<string, number> {
  const p = point(run, name);
  const out: Record<string, number> = {};
  for (let j = 0; j < run.events.identities; j++)
    out[run.events.identityId(j)] = Math.max(p.rows[j]!, p.effects[j]!);
  return out;
}

/** The ids whose count at a point is not 1, as `id:count` (compact assertions). */
export function anomalies(run: Run, name?: string): string[] {
  return Object.entries(countsById(run, name))
    .filter(([, c]) => c !== 1)
    .map(([id, c]) => `${id}:${c}`);
}

/** Totals at a point, in the vocabulary of docs/semantics/README.md#vocabulary. */
export function totals(
  run: Run,
  name?: string,
): { rows: number; sum: number; duplicates: number; lost: number } {
  const t = point(run, name).totals;
  return { rows: t.rows, sum: t.observedSum, duplicates: t.duplicates, lost: t.lost };
}

/** Trace entries of a kind. */
export function entriesOf(run: Run, kind: string): number[] {
  const out: number[] = [];
  for (let i = 0; i < run.trace.length; i++) if (run.trace.kindOf(i) === kind) out.push(i);
  return out;
}

/** e1..e3 (10, 20, 30) at 0, 10 and 20 ms: the reader-replay tests' workload. */
export const readerReplayEvents = events(3, (i) => 10 * (i - 1));

/**
 * Flink exactly-once into `out` (KafkaSink, one transaction per checkpoint), read by `rc`
 * (read_committed), which crashes before its first offset commit (the fault armed at
 * `crashArmedAt`) and restarts 1 s later — the reader's own replay, shared by the engine's,
 * views', CLI's and page's tests of it.
 */
export function readerCrashInput(
  workloadEvents: { id: string; amount: number; at: number }[] = readerReplayEvents,
  crashArmedAt = 0,
): Omit<ScenarioInput, 'version' | 'name'> {
  return {
    claim: 'exactly-once',
    workload: { events: workloadEvents },
    processor: { type: 'flink', 'execution.checkpointing.interval': 1000 },
    sink: {
      type: 'kafka',
      topic: 'out',
      deliveryGuarantee: 'EXACTLY_ONCE',
      transactionalIdPrefix: 'job-a',
      'transaction.timeout.ms': 900_000,
    },
    readers: [{ name: 'rc', topic: 'out', 'isolation.level': 'read_committed' }],
    faults: [
      {
        id: 'reader crash',
        kind: 'crash',
        target: 'reader-0',
        point: 'before-commit',
        at: crashArmedAt,
        restartAfterMs: 1000,
      },
    ],
  };
}

/**
 * e1..e3 at 295..297 ms with linger.ms=5: one batch, appended by the leader broker-1 at offsets
 * 0..2 at 302 ms and acknowledged (acks=1); broker-1 fails right after that append (fault "fo",
 * armed from 300 ms, `point: 'after-append'`: before it answers its followers' fetches), and the
 * batch is cut from the log when broker-2 takes over; the consumer starts at 5 s, after the cut.
 * Shared by the explanation's and the event diagram's tests of a batch cut by a failover.
 */
export const cutBatchInput: Omit<ScenarioInput, 'version' | 'name'> = {
  workload: { topic: 'events', events: events(3, (i) => 294 + i) },
  producer: { acks: '1', 'linger.ms': 5 },
  processor: {
    type: 'consumer',
    'enable.auto.commit': false,
    'auto.offset.reset': 'earliest',
    startAtMs: 5000,
  },
  faults: [{ id: 'fo', kind: 'leader-failover', topic: 'events', at: 300, point: 'after-append' }],
};
