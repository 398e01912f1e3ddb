/**
 * A Spark run forked while in progress continues exactly as the run itself (issue #23): every
 * piece of the query's pending work — its batch in flight, its sink write chain, the Kafka sink's
 * rows, the wait for data — is data a snapshot copies (src/engine/atlas/fork.ts,
 * docs/ARCHITECTURE.md "Pending work and forks"). For each Spark preset variant, halfway; and for
 * the sinks no preset uses (the Kafka sink, a service called per row, a side effect per record),
 * at every 5 ms of the batch a crash makes run twice, while its records are processed and written.
 */
import { describe, expect, it } from 'vitest';
import { parseScenario, simulate, traceHash, type Scenario } from '../engine';
import { advanceRun, assembleRun, finishRun } from '../engine/simulate';
import { snapshot } from '../engine/atlas/fork';
import { events } from '../engine/testing';
import { presets } from './index';

/** The trace hash of `s` run straight through. */
function straightHash(s: Scenario): string {
  return traceHash(simulate(s, { explain: false }).trace);
}

/**
 * The trace hashes of `s` paused before `atMs` and copied there: the copy continued to the end,
 * then the original continued (the copy must not have written into it).
 */
function forkedHashes(s: Scenario, atMs: number): { copy: string; original: string } {
  const run = assembleRun(s, { explain: false });
  advanceRun(run, atMs);
  const copy = snapshot(run);
  const copied = traceHash(finishRun(copy, { explain: false }).trace);
  return { copy: copied, original: traceHash(finishRun(run, { explain: false }).trace) };
}

function parsed(input: unknown): Scenario {
  const r = parseScenario(input);
  if (!r.ok) throw new Error(JSON.stringify(r.issues));
  return r.scenario;
}

const sparkVariants = presets.flatMap((p) =>
  p.variants
    .map((v) => ({ name: `${p.id}/${v.id}`, scenario: parseScenario(v.scenario) }))
    .filter((v) => v.scenario.ok && v.scenario.scenario.processor.type === 'spark')
    .map((v) => ({ name: v.name, scenario: (v.scenario as { scenario: Scenario }).scenario })),
);

describe('a Spark run forked halfway continues as the run itself', () => {
  it('the presets hold Spark variants (S16 replay, watermark dedupe, raw/clean, checkpoint reset)', () => {
    const ids = new Set(sparkVariants.map((v) => v.name.split('/')[0]));
    for (const id of ['spark-batch-replay', 'spark-watermark-dedupe', 'raw-clean-layer'])
      expect(ids).toContain(id);
    expect(ids).toContain('spark-checkpoint-reset-txnappid');
  });

  for (const { name, scenario } of sparkVariants)
    it(
      name,
      () => {
        const straight = straightHash(scenario);
        const half = Math.floor(simulate(scenario, { explain: false }).endTime / 2);
        expect(forkedHashes(scenario, half)).toEqual({ copy: straight, original: straight });
      },
      60_000,
    );
});

/**
 * S16's query (docs/semantics/scenarios.md#s16-spark-batch-re-execution): e1..e30, 10 per
 * trigger from 1 s, the driver crashing after batch 2's sink write (at ~3 s), restarted 1 s later.
 */
function s16(sink: unknown, processor: object = {}): Scenario {
  return parsed({
    version: 1,
    name: 'spark fork',
    workload: { events: events(30) },
    processor: {
      type: 'spark',
      maxOffsetsPerTrigger: 10,
      startingOffsets: 'earliest',
      startAtMs: 1000,
      ...processor,
    },
    sink,
    faults: [{ kind: 'crash', target: 'spark', point: 'after-sink-write', nth: 3 }],
    ...((sink as { type: string }).type === 'kafka'
      ? { readers: [{ name: 'rc', topic: 'out', 'isolation.level': 'read_committed' }] }
      : {}),
  });
}

describe('a Spark run forked during a batch continues as the run itself, whatever its sink', () => {
  const cases: [string, Scenario][] = [
    ['the built-in Kafka sink', s16({ type: 'kafka', topic: 'out' })],
    ['a service called per row', s16({ type: 'effect', service: 'email', idempotencyKey: 'none' })],
    [
      'a side effect per record, then Delta',
      s16({ type: 'delta', txnAppId: 'q-orders' }, { sideEffect: { service: 'email' } }),
    ],
    ['a statement per row', s16({ type: 'table', statementPer: 'record' })],
  ];
  for (const [what, scenario] of cases)
    it(
      what,
      () => {
        const straight = straightHash(scenario);
        // Batch 2 runs from 3,000 ms; its re-run from about 4,050.
        for (const at of [3_003, 3_015, 3_030, 3_045, 3_060, 4_060, 4_080, 4_100])
          expect(forkedHashes(scenario, at), `forked at ${at} ms`).toEqual({
            copy: straight,
            original: straight,
          });
      },
      60_000,
    );
});
