/**
 * Random pipelines and fault schedules for the property tests (fast-check): every processor type
 * (consumer loop, Flink, Spark) with a sink it can write, a recipe of knobs applied, and faults
 * drawn from the families the engine models — lost requests and answers on every link, crashes
 * and restarts, leader failovers, zombies, seeded random faults. Test-only: nothing in the app
 * imports it.
 */
import fc from 'fast-check';
import type { Guarantee, Run, ScenarioInput } from '../engine';
import { formatIssues, parseScenario, simulate } from '../engine';
import { applyGuarantee } from './guarantees';

/** The pipelines the properties draw: a processor type and a sink it writes. */
export type Pipeline =
  'consumer-kafka' | 'consumer-table' | 'flink-kafka' | 'flink-table' | 'flink-xa' | 'spark-delta';

/** The processor target a fault names for each pipeline. */
function processorTarget(p: Pipeline): string {
  return p.startsWith('consumer') ? 'consumer-0' : p.startsWith('flink') ? 'flink' : 'spark';
}

/** The links a pipeline's messages travel (a fault on another link never fires). */
function linksOf(p: Pipeline): string[] {
  switch (p) {
    case 'consumer-kafka':
      return ['produce', 'fetch', 'commit', 'txn'];
    case 'consumer-table':
      return ['produce', 'fetch', 'commit', 'sink'];
    case 'flink-kafka':
      return ['produce', 'fetch', 'txn', 'checkpoint'];
    case 'flink-table':
    case 'flink-xa':
      return ['produce', 'fetch', 'sink', 'checkpoint'];
    case 'spark-delta':
      return ['produce', 'fetch', 'sink'];
  }
}

const at = fc.integer({ min: 0, max: 3000 });
const restart = fc.integer({ min: 0, max: 3000 });
/** A probability in [0, max] in steps of 0.001 (fc.double favours values too small to fire). */
const probability = (max: number) =>
  fc.integer({ min: 0, max: Math.round(max * 1000) }).map((x) => x / 1000);

/**
 * One fault of any family the pipeline can meet. `sourceFaults: 'recoverable'` leaves out the
 * source-side faults no recipe here can turn into exactly once — none of these pipelines has a
 * business key to absorb a copy of a record the application sends again ("application level
 * re-sends cannot be de-duplicated", https://kafka.apache.org/documentation/#semantics): crashes
 * of the source application, and produce requests or answers lost for good (every n-th, at
 * random), which end in a delivery timeout whose record may or may not have been written
 * (delivery.timeout.ms bounds "the time to report success or failure",
 * https://kafka.apache.org/documentation/#producerconfigs_delivery.timeout.ms). A single lost
 * produce request or answer stays: the idempotent producer's retry recovers it.
 */
function faultArb(
  p: Pipeline,
  n: number,
  sourceFaults: 'all' | 'recoverable' = 'all',
): fc.Arbitrary<Record<string, unknown>> {
  const link = fc.constantFrom(...linksOf(p));
  const persistentLink =
    sourceFaults === 'all' ? link : fc.constantFrom(...linksOf(p).filter((l) => l !== 'produce'));
  const event = fc.integer({ min: 1, max: n }).map((i) => `e${i}`);
  const once = fc.oneof(fc.record({ event }), fc.record({ nth: fc.integer({ min: 1, max: 6 }) }));
  const every = fc.record({
    nth: fc.integer({ min: 1, max: 6 }),
    every: fc.integer({ min: 2, max: 6 }),
  });
  const target = processorTarget(p);
  const families: fc.Arbitrary<Record<string, unknown>>[] = [
    fc.record({ kind: fc.constant('drop-request'), at, link, match: once }),
    fc.record({ kind: fc.constant('drop-response'), at, link, match: once }),
    fc.record({ kind: fc.constant('drop-request'), at, link: persistentLink, match: every }),
    fc.record({ kind: fc.constant('drop-response'), at, link: persistentLink, match: every }),
    fc.record({ kind: fc.constant('drop-request'), at, link }),
    fc.record({ kind: fc.constant('drop-response'), at, link }),
    fc.record({
      kind: fc.constant('random'),
      at,
      link: persistentLink,
      what: fc.constantFrom('drop-request', 'drop-response'),
      probability: probability(0.3),
    }),
    fc.record({
      kind: fc.constant('crash'),
      at,
      target: fc.constant(target),
      restartAfterMs: restart,
    }),
    fc.record({
      kind: fc.constant('leader-failover'),
      at,
      partition: fc.constant(0),
      restartAfterMs: fc.integer({ min: 0, max: 20_000 }),
    }),
    fc.record({
      kind: fc.constant('random'),
      at: fc.constant(0),
      what: fc.constant('crash'),
      target: fc.constant(target),
      probability: probability(0.1),
      restartAfterMs: restart,
    }),
  ];
  if (sourceFaults === 'all')
    families.push(
      fc.record({
        kind: fc.constant('crash'),
        at,
        target: fc.constant('producer'),
        restartAfterMs: restart,
      }),
    );
  if (p.startsWith('consumer'))
    families.push(
      fc.record({
        kind: fc.constant('zombie'),
        at,
        target: fc.constant('consumer-0'),
        pauseMs: fc.integer({ min: 0, max: 60_000 }),
      }),
    );
  return fc.oneof(...families);
}

/** The scenario of a pipeline before any recipe: its processor, sink and a read_committed reader of a Kafka sink. */
function basePipeline(p: Pipeline): Pick<ScenarioInput, 'processor' | 'sink' | 'readers'> {
  const reader = [{ name: 'rc', topic: 'out', 'isolation.level': 'read_committed' as const }];
  switch (p) {
    case 'consumer-kafka':
      return {
        processor: { type: 'consumer', 'auto.offset.reset': 'earliest' },
        sink: { type: 'kafka', topic: 'out' },
        readers: reader,
      };
    case 'consumer-table':
      return {
        processor: { type: 'consumer', 'auto.offset.reset': 'earliest' },
        sink: { type: 'table' },
      };
    case 'flink-kafka':
      return {
        processor: { type: 'flink', 'execution.checkpointing.interval': 500 },
        sink: { type: 'kafka', topic: 'out' },
        readers: reader,
      };
    case 'flink-table':
      return {
        processor: { type: 'flink', 'execution.checkpointing.interval': 500 },
        sink: { type: 'table' },
      };
    case 'flink-xa':
      return {
        processor: { type: 'flink', 'execution.checkpointing.interval': 500 },
        sink: { type: 'table', xa: true },
      };
    case 'spark-delta':
      return {
        processor: { type: 'spark' },
        sink: { type: 'delta', txnAppId: 'query-1' },
      };
  }
}

/**
 * A random scenario of pipeline `p` under guarantee `g` (its recipe applied): 1..12 events over
 * 0..1500 ms on one or two partitions, and up to three faults.
 */
export function scenarioArb(
  p: Pipeline,
  g: Guarantee,
  sourceFaults: 'all' | 'recoverable' = 'all',
): fc.Arbitrary<ScenarioInput> {
  return fc
    .record({
      n: fc.integer({ min: 1, max: 12 }),
      spread: fc.integer({ min: 0, max: 1500 }),
      partitions: fc.integer({ min: 1, max: 2 }),
      seed: fc.integer({ min: 0, max: 1000 }),
    })
    .chain((b) =>
      fc.array(faultArb(p, b.n, sourceFaults), { maxLength: 3 }).map((faults) => {
        const base: ScenarioInput = {
          version: 1,
          name: `property ${p}`,
          seed: b.seed,
          workload: { events: spreadEvents(b.n, b.spread) },
          broker: { partitions: b.partitions },
          ...basePipeline(p),
          faults: faults as ScenarioInput['faults'],
        };
        return applyGuarantee(base, g);
      }),
    );
}

/** Events e1..en (amount 10·i) evenly over `spread` ms, keyed in turn k0..k(keys−1). */
export function spreadEvents(
  n: number,
  spread: number,
  keys = 3,
): { id: string; key: string; amount: number; at: number }[] {
  return Array.from({ length: n }, (_, i) => ({
    id: `e${i + 1}`,
    key: `k${i % keys}`,
    amount: 10 * (i + 1),
    at: Math.floor((i * spread) / n),
  }));
}

/** Parse and run a generated scenario (an invalid one is a bug of the generator: it throws). */
export function runCase(s: ScenarioInput): Run {
  const r = parseScenario(s);
  if (!r.ok)
    throw new Error(
      `generated an invalid scenario: ${formatIssues(r.issues)}\n${JSON.stringify(s)}`,
    );
  return simulate(r.scenario);
}

/** How many times each business event took effect at the run's primary point. */
export function primaryCounts(run: Run): number[] {
  const p = run.verdict.points.find((x) => x.name === run.verdict.primary)!;
  return Array.from({ length: run.events.identities }, (_, j) =>
    Math.max(p.rows[j]!, p.effects[j]!),
  );
}

/**
 * A loss explained by no cause — "e1 is in the log but was never processed", "e1 never reached
 * sink", "e1 never reached the broker": what a component waiting forever leaves behind when the
 * run does not say so (or an engine path that drops an event silently).
 */
export function unexplainedLosses(run: Run): string[] {
  return run.verdict.explanations
    .filter(
      (e) =>
        e.fate === 'lost' &&
        /^\S+ (is in the log but was never processed|never reached \S+( broker)?)$/.test(
          e.sentence,
        ),
    )
    .map((e) => e.sentence);
}
