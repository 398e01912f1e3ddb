/**
 * Random workloads and fault schedules for the guarantee properties (fast-check), with the run and
 * per-event counts they check; `FC_SEED=<seed>` replays a failure, `FC_SEED=random` explores.
 */
import fc from 'fast-check';
import { parseScenario, formatIssues, simulate } from '../engine';
import type { ScenarioInput } from '../engine';
import { applyGuarantee } from './guarantees';

/** A workload of 1..30 events over 0..1500 ms with a few keys. */
const workloadArb = fc
  .array(
    fc.record({ at: fc.integer({ min: 0, max: 1500 }), key: fc.integer({ min: 0, max: 3 }) }),
    { minLength: 1, maxLength: 30 },
  )
  .map((xs) =>
    xs.map((x, i) => ({ id: `e${i + 1}`, key: `k${x.key}`, amount: 10 * (i + 1), at: x.at })),
  );

export type FaultArb = fc.Arbitrary<Record<string, unknown>>;
const at = fc.integer({ min: 0, max: 3000 });
const eventRef = (n: number) => fc.integer({ min: 1, max: n }).map((i) => `e${i}`);
const restart = fc.integer({ min: 0, max: 3000 });
/**
 * A probability in [0, max], in steps of 0.001 (fc.double favours extreme values: most draws
 * would be below 1e-10, and the random faults would almost never fire).
 */
export const probability = (max: number) =>
  fc.integer({ min: 0, max: Math.round(max * 1000) }).map((x) => x / 1000);
/** Random faults armed from the start, or while the workload (0..1500 ms) still has records to move. */
const randomAt = fc.oneof(fc.constant(0), fc.integer({ min: 0, max: 1500 }));

/** Faults every guarantee on the consumer path claims to survive. */
export const commonFaults = (n: number, instances: number): FaultArb[] => [
  fc.record({
    kind: fc.constant('drop-response'),
    at,
    link: fc.constantFrom('produce', 'sink'),
    match: fc.record({ event: eventRef(n) }),
  }),
  fc.record({
    kind: fc.constant('drop-request'),
    at,
    link: fc.constantFrom('produce', 'sink', 'fetch'),
    match: fc.record({ event: eventRef(n) }),
  }),
  fc.record({
    kind: fc.constant('crash'),
    at,
    target: fc.integer({ min: 0, max: instances - 1 }).map((i) => `consumer-${i}`),
    point: fc.constantFrom('now', 'after-poll', 'mid-batch', 'before-commit', 'after-commit'),
    afterRecords: fc.integer({ min: 1, max: 4 }),
    restartAfterMs: restart,
  }),
  fc.record({
    kind: fc.constant('crash'),
    at,
    target: fc.constant('producer'),
    restartAfterMs: restart,
  }),
  fc.record({
    kind: fc.constant('leader-failover'),
    at,
    partition: fc.constant(0),
    restartAfterMs: fc.integer({ min: 0, max: 20_000 }),
  }),
  fc.record({
    kind: fc.constant('rebalance'),
    at,
    target: fc.integer({ min: 0, max: instances - 1 }).map((i) => `consumer-${i}`),
  }),
  fc.record({
    kind: fc.constant('random'),
    at,
    link: fc.constantFrom('produce', 'sink'),
    what: fc.constantFrom('drop-request', 'drop-response'),
    probability: probability(0.3),
  }),
  // Seeded random versions of the crash, the rebalance and the failover above.
  fc.record(
    {
      kind: fc.constant('random'),
      at: randomAt,
      what: fc.constant('crash'),
      target: fc.integer({ min: 0, max: instances - 1 }).map((i) => `consumer-${i}`),
      point: fc.constantFrom('now', 'after-poll', 'before-commit', 'after-commit'),
      probability: probability(0.3),
      untilMs: fc.integer({ min: 1500, max: 6000 }),
      restartAfterMs: restart,
    },
    { requiredKeys: ['kind', 'at', 'what', 'target', 'probability', 'restartAfterMs'] },
  ),
  fc.record({
    kind: fc.constant('random'),
    at: randomAt,
    what: fc.constant('rebalance'),
    target: fc.integer({ min: 0, max: instances - 1 }).map((i) => `consumer-${i}`),
    probability: probability(0.3),
  }),
  fc.record({
    kind: fc.constant('random'),
    at: randomAt,
    what: fc.constant('leader-failover'),
    probability: probability(0.3),
    restartAfterMs: fc.integer({ min: 0, max: 20_000 }),
  }),
];

/** Faults only a business-key dedupe absorbs. */
export const businessDuplicates = (n: number, instances: number): FaultArb[] => [
  fc.record({ kind: fc.constant('app-resend'), at, event: eventRef(n) }),
  fc.record({ kind: fc.constant('source-duplicate'), at, event: eventRef(n) }),
  fc.record({
    kind: fc.constant('random'),
    at: randomAt,
    what: fc.constantFrom('app-resend', 'source-duplicate'),
    probability: probability(0.5),
  }),
  fc.record({
    kind: fc.constant('zombie'),
    at,
    target: fc.integer({ min: 0, max: instances - 1 }).map((i) => `consumer-${i}`),
    pauseMs: fc.integer({ min: 0, max: 60_000 }),
  }),
];

export interface Case {
  scenario: ScenarioInput;
}

/** A random consumer-path scenario under guarantee g, with faults from the given families. */
export function caseArb(
  g: 'at-most-once' | 'at-least-once' | 'exactly-once',
  withBusinessDuplicates: boolean,
): fc.Arbitrary<Case> {
  return fc
    .record({
      events: workloadArb,
      partitions: fc.integer({ min: 1, max: 3 }),
      instances: fc.integer({ min: 1, max: 2 }),
      seed: fc.integer({ min: 0, max: 1000 }),
      maxPoll: fc.integer({ min: 1, max: 6 }),
      jitter: fc.integer({ min: 0, max: 3 }),
    })
    .chain((b) => {
      const fams = [
        ...commonFaults(b.events.length, b.instances),
        ...(withBusinessDuplicates ? businessDuplicates(b.events.length, b.instances) : []),
      ];
      return fc.array(fc.oneof(...fams), { maxLength: 4 }).map((faults) => {
        const base: ScenarioInput = {
          version: 1,
          name: 'property',
          seed: b.seed,
          network: { latencyMs: 2, jitterMs: b.jitter },
          workload: { events: b.events },
          broker: { partitions: b.partitions, 'broker.session.timeout.ms': 1000 },
          processor: {
            type: 'consumer',
            instances: b.instances,
            'auto.offset.reset': 'earliest',
            'max.poll.records': b.maxPoll,
            'session.timeout.ms': 10_000,
          },
          sink: { type: 'table' },
          faults: faults as ScenarioInput['faults'],
        };
        return { scenario: applyGuarantee(base, g) };
      });
    });
}

export function run(c: Case) {
  const r = parseScenario(c.scenario);
  if (!r.ok)
    throw new Error(
      `generated an invalid scenario: ${formatIssues(r.issues)}\n${JSON.stringify(c.scenario)}`,
    );
  return simulate(r.scenario);
}

export function counts(c: Case) {
  const r = run(c);
  const p = r.verdict.points.find((x) => x.name === r.verdict.primary)!;
  return {
    run: r,
    counts: Array.from({ length: r.events.identities }, (_, j) =>
      Math.max(p.rows[j]!, p.effects[j]!),
    ),
  };
}
