/**
 * Properties of the engine over random workloads and fault schedules (fast-check). On failure
 * fast-check prints the seed and the shrunk counterexample; `FC_SEED=<seed>` replays it.
 *
 * Each guarantee is checked against the faults it claims to survive (docs/semantics/guarantees.md#rules):
 * - at-most-once survives crashes, lost requests/acks, failovers and rebalances — scheduled or
 *   seeded random ones — without ever applying an event twice (zombies and application re-sends
 *   are outside its promise);
 * - at-least-once loses nothing under all of those, once the run has drained;
 * - effectively-once (upsert on the business id) applies every event exactly once — even with
 *   application re-sends, source duplicates and zombies, which only a business key absorbs (R3).
 */
import { describe, expect, it, vi } from 'vitest';
import fc from 'fast-check';
import { CHECKPOINT_STEPS, parseScenario, formatIssues, simulate, traceHash } from '../engine';
import type { ScenarioInput } from '../engine';
import { applyGuarantee } from './guarantees';

// Whole runs on a loaded two-core machine: its slowest test took 4.0 s in a full CI run
// (this file 21.5 s), so each gets 20 s, ≥ 5× that, far from vitest's 5 s default.
vi.setConfig({ testTimeout: 20_000 });

/**
 * A fixed seed keeps `npm test` reproducible on CI; `FC_SEED=random` (or a number) explores other
 * cases locally — fast-check prints the seed and the shrunk counterexample of any failure.
 */
const seed = process.env.FC_SEED === 'random' ? undefined : Number(process.env.FC_SEED ?? 20261130);
const params = (numRuns: number) => ({ numRuns, ...(seed !== undefined ? { seed } : {}) });

/** A workload of 1..30 events over 0..1500 ms with a few keys. */
const workloadArb = fc
  .array(
    fc.record({ at: fc.integer({ min: 0, max: 1500 }), key: fc.integer({ min: 0, max: 3 }) }),
    { minLength: 1, maxLength: 30 },
  )
  .map((xs) =>
    xs.map((x, i) => ({ id: `e${i + 1}`, key: `k${x.key}`, amount: 10 * (i + 1), at: x.at })),
  );

type FaultArb = fc.Arbitrary<Record<string, unknown>>;
const at = fc.integer({ min: 0, max: 3000 });
const eventRef = (n: number) => fc.integer({ min: 1, max: n }).map((i) => `e${i}`);
const restart = fc.integer({ min: 0, max: 3000 });
/**
 * A probability in [0, max], in steps of 0.001 (fc.double favours extreme values: most draws
 * would be below 1e-10, and the random faults would almost never fire).
 */
const probability = (max: number) =>
  fc.integer({ min: 0, max: Math.round(max * 1000) }).map((x) => x / 1000);
/** Random faults armed from the start, or while the workload (0..1500 ms) still has records to move. */
const randomAt = fc.oneof(fc.constant(0), fc.integer({ min: 0, max: 1500 }));

/** Faults every guarantee on the consumer path claims to survive. */
const commonFaults = (n: number, instances: number): FaultArb[] => [
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
const businessDuplicates = (n: number, instances: number): FaultArb[] => [
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

interface Case {
  scenario: ScenarioInput;
}

/** A random consumer-path scenario under guarantee g, with faults from the given families. */
function caseArb(
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

function run(c: Case) {
  const r = parseScenario(c.scenario);
  if (!r.ok)
    throw new Error(
      `generated an invalid scenario: ${formatIssues(r.issues)}\n${JSON.stringify(c.scenario)}`,
    );
  return simulate(r.scenario);
}

function counts(c: Case) {
  const r = run(c);
  const p = r.verdict.points.find((x) => x.name === r.verdict.primary)!;
  return {
    run: r,
    counts: Array.from({ length: r.events.identities }, (_, j) =>
      Math.max(p.rows[j]!, p.effects[j]!),
    ),
  };
}

describe('guarantee invariants on the consumer path', () => {
  it('at-most-once: no event ever takes effect twice', () => {
    fc.assert(
      fc.property(caseArb('at-most-once', false), (c) => {
        const { counts: n } = counts(c);
        expect(n.every((x) => x <= 1)).toBe(true);
      }),
      params(80),
    );
  });

  it('at-least-once: no event is lost once the run has drained', () => {
    fc.assert(
      fc.property(caseArb('at-least-once', false), (c) => {
        const { run: r, counts: n } = counts(c);
        expect(r.cutOff).toBe(false);
        expect(n.every((x) => x >= 1)).toBe(true);
      }),
      params(80),
    );
  });

  it('effectively-once: every event exactly once, even with re-sends, source duplicates and zombies', () => {
    fc.assert(
      fc.property(caseArb('exactly-once', true), (c) => {
        const { run: r, counts: n } = counts(c);
        expect(r.cutOff).toBe(false);
        expect(n).toEqual(n.map(() => 1));
      }),
      params(80),
    );
  });

  // One slow record (the pos-th processing attempt of each instance takes slowMs, every other one
  // 1 ms) against a short max.poll.interval.ms: its batch may outlast the poll timeout, the member
  // leave the group and the batch be read again. Each guarantee keeps its promise; the run drains.
  const slowRecord = fc.record({
    pos: fc.integer({ min: 0, max: 29 }),
    slowMs: fc.integer({ min: 0, max: 8000 }),
    maxPollIntervalMs: fc.integer({ min: 100, max: 5000 }),
  });
  const withSlowRecord = (
    c: Case,
    s: { pos: number; slowMs: number; maxPollIntervalMs: number },
  ): Case => ({
    scenario: {
      ...c.scenario,
      processor: {
        ...(c.scenario.processor as Record<string, unknown>),
        processing: {
          durationsMs: Array.from({ length: 200 }, (_, i) => (i === s.pos ? s.slowMs : 1)),
        },
        'max.poll.interval.ms': s.maxPollIntervalMs,
      } as ScenarioInput['processor'],
    },
  });
  it('a batch outlasting max.poll.interval.ms: at-most-once never twice, at-least-once never lost, effectively-once exactly once', () => {
    let left = 0;
    for (const g of ['at-most-once', 'at-least-once', 'exactly-once'] as const)
      fc.assert(
        fc.property(caseArb(g, false), slowRecord, (c, s) => {
          const { run: r, counts: n } = counts(withSlowRecord(c, s));
          for (let i = 0; i < r.trace.length; i++) if (r.trace.kindOf(i) === 'leave-group') left++;
          if (g === 'at-most-once') expect(n.every((x) => x <= 1)).toBe(true);
          else {
            expect(r.cutOff).toBe(false);
            if (g === 'at-least-once') expect(n.every((x) => x >= 1)).toBe(true);
            else expect(n).toEqual(n.map(() => 1));
          }
        }),
        params(60),
      );
    // Not vacuous: some of the generated runs did leave the group.
    expect(left).toBeGreaterThan(0);
  });
});

describe('determinism', () => {
  it('the same scenario gives the same traceHash', () => {
    fc.assert(
      fc.property(caseArb('at-least-once', true), (c) => {
        expect(traceHash(run(c).trace)).toBe(traceHash(run(c).trace));
      }),
      params(30),
    );
  });

  it('a fault appended at time t leaves every trace entry before t unchanged', () => {
    const extra = fc.oneof(...commonFaults(5, 1), ...businessDuplicates(5, 1));
    fc.assert(
      fc.property(caseArb('at-least-once', false), extra, ({ scenario }, f) => {
        const n = scenario.workload.events!.length;
        const fault = {
          ...f,
          ...('event' in f ? { event: `e${Math.min(n, Number(String(f.event).slice(1)))}` } : {}),
          ...('match' in f
            ? {
                match: {
                  event: `e${Math.min(n, Number(String((f.match as { event: string }).event).slice(1)))}`,
                },
              }
            : {}),
        };
        const before = run({ scenario });
        const after = run({
          scenario: { ...scenario, faults: [...(scenario.faults ?? []), fault as never] },
        });
        const t = (fault as { at: number }).at;
        const a = before.trace;
        const b = after.trace;
        // Every entry before t, except the run's closing 'end' marker.
        const prefix = (x: typeof a) => {
          const n = x.upperBound(t - 1);
          return n > 0 && x.kindOf(n - 1) === 'end' ? n - 1 : n;
        };
        expect(prefix(b)).toBe(prefix(a));
        for (let i = 0; i < prefix(a); i++) expect(b.get(i)).toEqual(a.get(i));
      }),
      params(40),
    );
  });
});

describe('bad input', () => {
  it('arbitrary JSON gives a run or a validation error, never an exception', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (v) => {
        const r = parseScenario(v);
        if (r.ok) simulate(r.scenario);
        else expect(r.issues.length).toBeGreaterThan(0);
      }),
      params(300),
    );
  });

  it('scenario-shaped JSON with random fields gives a run or issues naming a field', () => {
    const shaped = fc.record({
      version: fc.oneof(fc.constant(1), fc.jsonValue()),
      name: fc.oneof(fc.string(), fc.jsonValue()),
      workload: fc.oneof(
        fc.record({
          events: fc.array(
            fc.record({
              id: fc.string(),
              amount: fc.oneof(fc.integer(), fc.jsonValue()),
              at: fc.oneof(fc.nat(10_000), fc.jsonValue()),
            }),
            { maxLength: 5 },
          ),
        }),
        fc.jsonValue(),
      ),
      producer: fc.oneof(
        fc.record({ acks: fc.oneof(fc.constantFrom('0', '1', 'all', -1), fc.jsonValue()) }),
        fc.jsonValue(),
      ),
      faults: fc.oneof(
        fc.array(
          fc.record({
            kind: fc.constantFrom('crash', 'drop-request', 'zombie', 'nope'),
            target: fc.string(),
            link: fc.string(),
          }),
          { maxLength: 3 },
        ),
        fc.jsonValue(),
      ),
    });
    fc.assert(
      fc.property(shaped, (v) => {
        const r = parseScenario(v);
        if (r.ok) simulate(r.scenario);
        else
          for (const i of r.issues)
            expect(typeof i.path === 'string' && i.message.length > 0).toBe(true);
      }),
      params(300),
    );
  });
});

describe('exactly-once machinery under random crash schedules (issue: Flink 2PC, transactions)', () => {
  // e1..en over 0..3000 ms; a Flink job checkpointing every 500 ms; 1..3 crashes of the task
  // manager at random points and a seeded random crash per record (probability ≤ 0.05), each
  // down for less than transaction.timeout.ms (the EO chain's precondition:
  // "transaction.timeout.ms ≫ maximum checkpoint duration + maximum restart duration").
  const flinkCase = fc.record({
    n: fc.integer({ min: 1, max: 40 }),
    spread: fc.integer({ min: 0, max: 3000 }),
    seed: fc.integer({ min: 0, max: 1000 }),
    crashes: fc.array(
      fc.record({
        at: fc.integer({ min: 0, max: 4000 }),
        point: fc.constantFrom(
          'now',
          'mid-batch',
          'before-barrier',
          'after-precommit',
          'after-checkpoint',
          'during-commit',
        ),
        afterRecords: fc.integer({ min: 1, max: 5 }),
        restartAfterMs: fc.integer({ min: 0, max: 5000 }),
      }),
      { minLength: 1, maxLength: 3 },
    ),
    // And a seeded random crash: a chance per record the task processes.
    random: fc.record({
      probability: probability(0.05),
      point: fc.constantFrom('now', 'before-barrier', 'after-precommit', 'after-checkpoint'),
      restartAfterMs: fc.integer({ min: 0, max: 5000 }),
    }),
  });
  type FlinkCase = typeof flinkCase extends fc.Arbitrary<infer T> ? T : never;
  const flinkScenario = (
    c: FlinkCase,
    sink: Record<string, unknown>,
    level: string,
  ): ScenarioInput => ({
    version: 1,
    name: 'flink property',
    seed: c.seed,
    workload: {
      events: Array.from({ length: c.n }, (_, i) => ({
        id: `e${i + 1}`,
        amount: 10 * (i + 1),
        at: Math.floor((i * c.spread) / Math.max(1, c.n)),
      })),
    },
    processor: {
      type: 'flink',
      'execution.checkpointing.interval': 500,
      startAtMs: 0,
      processing: { perRecordMs: 5 },
    },
    sink: sink as never,
    readers: [{ name: 'r', 'isolation.level': level as 'read_committed' }],
    faults: [
      ...c.crashes.map((x) => ({ kind: 'crash' as const, target: 'flink', ...x })),
      { kind: 'random', what: 'crash', target: 'flink', ...c.random },
    ],
  });
  const eo = {
    type: 'kafka',
    deliveryGuarantee: 'EXACTLY_ONCE',
    transactionalIdPrefix: 'job-a',
    'transaction.timeout.ms': 60_000,
  };

  it('with the whole chain intact, a read_committed reader sees every event exactly once', () => {
    fc.assert(
      fc.property(flinkCase, (c) => {
        const { run: r, counts: n } = counts({
          scenario: flinkScenario(c, eo, 'read_committed'),
        });
        expect(r.cutOff).toBe(false);
        expect(n).toEqual(n.map(() => 1));
        const state = r.verdict.points.find((p) => p.name === 'state')!;
        expect(Array.from(state.rows)).toEqual(n.map(() => 1));
      }),
      params(60),
    );
  });

  it('lost checkpoint messages (barriers, acknowledgements, notifications) delay the chain but never break it: read_committed still sees every event once', () => {
    // Checkpoints that lose a message expire after execution.checkpointing.timeout; with 0–2
    // failures tolerated the job runs on or fails over, and a later checkpoint commits the epoch.
    const lost = fc.record({
      probability: probability(0.3),
      what: fc.constantFrom('drop-request', 'drop-response'),
      timeout: fc.integer({ min: 100, max: 5000 }),
      tolerable: fc.integer({ min: 0, max: 2 }),
    });
    const withLost = (c: FlinkCase, l: typeof lost extends fc.Arbitrary<infer T> ? T : never) => {
      const s = flinkScenario(c, eo, 'read_committed');
      const p = s.processor as Record<string, unknown>;
      p['execution.checkpointing.timeout'] = l.timeout;
      p['execution.checkpointing.tolerable-failed-checkpoints'] = l.tolerable;
      s.faults = [
        ...(s.faults ?? []),
        { kind: 'random', what: l.what, link: 'checkpoint', probability: l.probability },
      ] as never;
      return s;
    };
    fc.assert(
      fc.property(flinkCase, lost, (c, l) => {
        const s = withLost(c, l);
        const { run: r, counts: n } = counts({ scenario: s });
        expect(r.cutOff).toBe(false);
        expect(n).toEqual(n.map(() => 1));
      }),
      params(40),
    );
    // Not vacuous: some of these runs did have checkpoints expire.
    const expired = fc
      .sample(fc.tuple(flinkCase, lost), { numRuns: 30, seed: seed ?? 42 })
      .filter(([c, l]) => {
        const r = counts({ scenario: withLost(c, l) }).run;
        for (let i = 0; i < r.trace.length; i++)
          if (r.trace.kindOf(i) === 'checkpoint' && CHECKPOINT_STEPS[r.trace.aux[i]!] === 'expired')
            return true;
        return false;
      });
    expect(expired.length).toBeGreaterThan(0);
  });

  it("the same schedules into Flink's JDBC exactly-once (XA) table sink: every event exactly once in the table", () => {
    fc.assert(
      fc.property(flinkCase, (c) => {
        const { readers: _readers, ...s } = flinkScenario(
          c,
          { type: 'table', xa: true, retries: 0 },
          'read_committed',
        );
        const { run: r, counts: n } = counts({ scenario: s });
        expect(r.verdict.primary).toBe('sink');
        expect(r.cutOff).toBe(false);
        expect(n).toEqual(n.map(() => 1));
      }),
      params(60),
    );
  });

  it('the same schedules with read_uncommitted, or a plain sink, show duplicates for some of them', () => {
    const samples = fc.sample(flinkCase, { numRuns: 40, seed: seed ?? 42 });
    const dupRU = samples.filter((c) =>
      counts({ scenario: flinkScenario(c, eo, 'read_uncommitted') }).counts.some((x) => x >= 2),
    );
    const dupPlain = samples.filter((c) =>
      counts({
        scenario: flinkScenario(
          c,
          { type: 'kafka', deliveryGuarantee: 'AT_LEAST_ONCE' },
          'read_committed',
        ),
      }).counts.some((x) => x >= 2),
    );
    expect(dupRU.length).toBeGreaterThan(0);
    expect(dupPlain.length).toBeGreaterThan(0);
  });

  it("a zombie copier's writes never reach a committed output", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 20 }),
        fc.integer({ min: 0, max: 2000 }),
        fc.integer({ min: 0, max: 90_000 }),
        fc.integer({ min: 1, max: 5 }),
        (n, at0, pauseMs, maxPoll) => {
          const { run: r, counts: c } = counts({
            scenario: {
              version: 1,
              name: 'zombie property',
              workload: {
                events: Array.from({ length: n }, (_, i) => ({
                  id: `e${i + 1}`,
                  amount: 10 * (i + 1),
                  at: i * 50,
                })),
              },
              processor: {
                type: 'consumer',
                'enable.auto.commit': false,
                commit: 'with-transaction',
                'isolation.level': 'read_committed',
                'max.poll.records': maxPoll,
                'auto.offset.reset': 'earliest',
                'session.timeout.ms': 10_000,
              },
              sink: { type: 'kafka', topic: 'out', 'transactional.id': 'copier-0' },
              readers: [{ name: 'r', topic: 'out', 'isolation.level': 'read_committed' }],
              faults: [{ kind: 'zombie', target: 'consumer-0', at: at0, pauseMs }],
            },
          });
          expect(r.cutOff).toBe(false);
          expect(c).toEqual(c.map(() => 1));
        },
      ),
      params(60),
    );
  });
});
