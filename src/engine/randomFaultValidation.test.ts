/** The random fault is validated as the fault it fires: its fields, defaults and targets. */
import { describe, expect, it, vi } from 'vitest';
import { describeFault } from './faultWords';
import { parseScenario } from './scenario/validate';
import { events } from './testing';

// Whole runs on a loaded two-core machine: its slowest test took 3.9 s in a full CI run
// (this file 2.2 s), so each gets 20 s, ≥ 5× that, far from vitest's 5 s default.
vi.setConfig({ testTimeout: 20_000 });

describe('validation: the random fault is checked as the fault it fires', () => {
  const base = { version: 1, name: 't', workload: { events: events(3) } };
  const issues = (fault: Record<string, unknown>, extra: Record<string, unknown> = {}) => {
    const r = parseScenario({ ...base, ...extra, faults: [{ kind: 'random', ...fault }] });
    return r.ok ? [] : r.issues.map((i) => `${i.path}: ${i.message}`);
  };

  it('accepts each kind with its fields, and fills the defaults', () => {
    const r = parseScenario({
      ...base,
      faults: [
        { kind: 'random', what: 'crash', target: 'consumer-0', probability: 0.1 },
        { kind: 'random', what: 'rebalance', probability: 0.1 },
        { kind: 'random', what: 'app-resend', probability: 0.1, untilMs: 500 },
        { kind: 'random', what: 'source-duplicate', probability: 0.1 },
        { kind: 'random', what: 'leader-failover', probability: 0.1, partition: 0 },
      ],
    });
    expect(r.ok && r.scenario.faults).toEqual([
      {
        kind: 'random',
        at: 0,
        what: 'crash',
        target: 'consumer-0',
        point: 'now',
        restartAfterMs: 1000,
        probability: 0.1,
      },
      { kind: 'random', at: 0, what: 'rebalance', target: 'consumer-0', probability: 0.1 },
      { kind: 'random', at: 0, what: 'app-resend', probability: 0.1, untilMs: 500 },
      { kind: 'random', at: 0, what: 'source-duplicate', probability: 0.1 },
      {
        kind: 'random',
        at: 0,
        what: 'leader-failover',
        partition: 0,
        restartAfterMs: 60_000,
        probability: 0.1,
      },
    ]);
  });

  it('names the field: a missing target, a field of another kind, an unknown what', () => {
    expect(issues({ what: 'crash', probability: 0.1 })).toEqual([
      'faults.0.target: required (a string)',
    ]);
    expect(issues({ what: 'app-resend', probability: 0.1, link: 'produce' })).toEqual([
      // An app-resend's fields, listed: a link is no field of it.
      'faults.0.link: unknown key "link": not a field here (misspelt, or a field of another kind); its fields: kind, id, at, probability, untilMs, what',
    ]);
    expect(issues({ what: 'drop-response', probability: 0.1 })).toEqual([
      'faults.0.link: required ("produce", "fetch", "commit", "sink", "effect", "txn" or "checkpoint")',
    ]);
    expect(issues({ what: 'explode', probability: 0.1 })).toEqual([
      'faults.0.what: what must be one of "drop-request", "drop-response", "crash", "rebalance", "app-resend", "source-duplicate", "leader-failover"',
    ]);
    expect(issues({ what: 'crash', target: 'consumer-0', probability: 1.5 })).toEqual([
      'faults.0.probability: at most 1',
    ]);
  });

  it('checks what the schema cannot: the target processes records, a group exists, the partition exists', () => {
    expect(issues({ what: 'crash', target: 'producer', probability: 0.1 })).toEqual([
      'faults.0.target: a random crash is drawn per record processed: "producer" processes none (targets: consumer-0)',
    ]);
    expect(issues({ what: 'crash', target: 'consumer-3', probability: 0.1 })[0]).toMatch(
      /^faults\.0\.target: no component "consumer-3"/,
    );
    expect(
      issues(
        { what: 'rebalance', target: 'flink', probability: 0.1 },
        { processor: { type: 'flink' } },
      ),
    ).toEqual(['faults.0.kind: a rebalance needs a consumer group (processor.type "consumer")']);
    expect(issues({ what: 'leader-failover', partition: 2, probability: 0.1 })).toEqual([
      'faults.0.partition: the topic has 1 partition(s)',
    ]);
    expect(issues({ what: 'leader-failover', topic: 'nope', probability: 0.1 })).toEqual([
      'faults.0.topic: no topic named "nope"',
    ]);
  });
});

it('each random kind is described in plain words (the page’s fault list, the timeline, the explanations)', () => {
  const r = { kind: 'random', at: 0, probability: 0.1 } as const;
  expect([
    describeFault({ ...r, what: 'drop-response', link: 'produce' }),
    describeFault({ ...r, what: 'crash', target: 'flink', point: 'now', restartAfterMs: 1000 }),
    describeFault({ ...r, what: 'rebalance', target: 'consumer-1' }),
    describeFault({ ...r, what: 'app-resend' }),
    describeFault({ ...r, what: 'source-duplicate' }),
    describeFault({ ...r, what: 'leader-failover', restartAfterMs: 60_000 }),
    describeFault({ ...r, what: 'leader-failover', partition: 2, restartAfterMs: 60_000 }),
    describeFault({
      ...r,
      what: 'crash',
      target: 'spark',
      point: 'now',
      restartAfterMs: 1,
      id: 'chaos',
    }),
  ]).toEqual([
    'a randomly lost response on produce',
    'a random crash of flink',
    "a random rebalance moving consumer-1's partitions",
    'a random application re-send',
    'a random duplicate from the upstream source',
    'a random failure of a partition leader',
    'a random failure of the leader of partition 2',
    'a random crash of spark "chaos"',
  ]);
});

// The fault atlas places a leader failover as a `random` fault sure to fire in one millisecond
// (src/engine/atlas/placements.ts): a Compare lane titled "+ a random failure of the leader of
// partition 0" and an explanation saying "(a random failure …)" called a placed, certain fault
// chance. Certain at one instant, it is said with its time; any other window or chance stays random.
it('a random fault sure to fire at one instant (probability 1, untilMs = at) is said with its time, not as chance', () => {
  const once = { kind: 'random', at: 1_107, untilMs: 1_107, probability: 1 } as const;
  expect([
    describeFault({ ...once, what: 'leader-failover', partition: 0, restartAfterMs: 60_000 }),
    describeFault({ ...once, what: 'leader-failover', restartAfterMs: 60_000 }),
    describeFault({ ...once, what: 'drop-request', link: 'produce' }),
    describeFault({
      ...once,
      what: 'crash',
      target: 'consumer-0',
      point: 'now',
      restartAfterMs: 1,
    }),
    describeFault({ ...once, what: 'app-resend', id: 'resend' }),
  ]).toEqual([
    'a failure of the leader of partition 0 at 1,107 ms',
    'a failure of a partition leader at 1,107 ms',
    'a lost request on produce at 1,107 ms',
    'a crash of consumer-0 at 1,107 ms',
    'an application re-send at 1,107 ms "resend"',
  ]);
  // A window, or a chance below 1, is still random.
  expect(
    describeFault({
      ...once,
      untilMs: 2_000,
      what: 'leader-failover',
      partition: 0,
      restartAfterMs: 1,
    }),
  ).toBe('a random failure of the leader of partition 0');
  expect(
    describeFault({
      ...once,
      probability: 0.5,
      what: 'leader-failover',
      partition: 0,
      restartAfterMs: 1,
    }),
  ).toBe('a random failure of the leader of partition 0');
});
