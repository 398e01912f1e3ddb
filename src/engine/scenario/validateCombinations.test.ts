/** Scenario validation: combinations the real systems refuse, and the generator’s options. */
import { describe, expect, it } from 'vitest';
import { parseScenario } from './validate';
import { LIMITS } from './limits';
import { base, paths } from './validateTesting';

describe('scenario validation refuses what the real systems refuse', () => {
  it('refuses combinations the real systems refuse', () => {
    expect(paths({ ...base, sink: { type: 'delta' } })).toEqual(['sink.type']);
    // Flink had no path to an effect sink: it called nothing and counted every event lost.
    expect(paths({ ...base, processor: { type: 'flink' }, sink: { type: 'effect' } })).toEqual([
      'sink.type',
    ]);
    expect(paths({ ...base, processor: { type: 'spark' }, sink: { type: 'effect' } })).toEqual([]);
    expect(
      paths({
        ...base,
        sink: { type: 'table', statement: 'on-conflict-do-nothing', uniqueKey: false },
      }),
    ).toEqual(['sink.uniqueKey']);
    expect(
      paths({
        ...base,
        processor: { type: 'flink' },
        sink: { type: 'kafka', deliveryGuarantee: 'EXACTLY_ONCE' },
      }),
    ).toEqual(['processor.execution.checkpointing.interval', 'sink.transactionalIdPrefix']);
    // Spark's Kafka sink is at-least-once, without transactions: Flink's and the producer's
    // transaction settings would be ignored.
    expect(
      paths({
        ...base,
        processor: { type: 'spark' },
        sink: {
          type: 'kafka',
          deliveryGuarantee: 'EXACTLY_ONCE',
          transactionalIdPrefix: 'q',
          'transactional.id': 'q-0',
        },
      }),
    ).toEqual(['sink.deliveryGuarantee', 'sink.transactionalIdPrefix', 'sink.transactional.id']);
    expect(paths({ ...base, processor: { type: 'spark' }, sink: { type: 'kafka' } })).toEqual([]);
    // delivery.timeout.ms must cover linger.ms + request.timeout.ms (5 + 200000 here). Unset, the
    // producer raises it to that sum (KafkaProducer.configureDeliveryTimeout); set, it refuses.
    const raised = parseScenario({ ...base, producer: { 'request.timeout.ms': 200_000 } });
    expect(raised.ok && raised.scenario.producer['delivery.timeout.ms']).toBe(200_005);
    const r = parseScenario({
      ...base,
      producer: { 'request.timeout.ms': 200_000, 'delivery.timeout.ms': 120_000 },
    });
    expect(r.ok ? [] : r.issues).toEqual([
      {
        path: 'producer.delivery.timeout.ms',
        message:
          'ConfigException: delivery.timeout.ms should be equal to or larger than linger.ms + request.timeout.ms (here 5 + 200000 = 200005)',
      },
    ]);
    expect(
      paths({
        ...base,
        producer: { 'request.timeout.ms': 200_000, 'delivery.timeout.ms': 200_005 },
      }),
    ).toEqual([]);
    // ProducerConfig.postProcessAndValidateIdempotenceConfigs: enable.idempotence=true with acks=1
    // is refused on acks; a transactional.id with acks=1 and idempotence unset is refused because
    // acks=1 switched idempotence off — Kafka's "Cannot set a transactional.id…".
    const issuesOf = (producer: Record<string, unknown>) => {
      const x = parseScenario({ ...base, producer });
      return x.ok ? [] : x.issues;
    };
    expect(issuesOf({ acks: '1', 'enable.idempotence': true })).toEqual([
      {
        path: 'producer.acks',
        message:
          'ConfigException: Must set acks to all in order to use the idempotent producer. Otherwise we cannot guarantee idempotence.',
      },
    ]);
    expect(issuesOf({ acks: '1', 'transactional.id': 't-1' })).toEqual([
      {
        path: 'producer.acks',
        message:
          'ConfigException: Cannot set a transactional.id without also enabling idempotence. (acks=1 switches the default idempotence off)',
      },
    ]);
    expect(issuesOf({ 'enable.idempotence': false, 'transactional.id': 't-1' })).toEqual([
      {
        path: 'producer.enable.idempotence',
        message:
          'ConfigException: Cannot set a transactional.id without also enabling idempotence.',
      },
    ]);
    expect(issuesOf({ 'transactional.id': 't-1' })).toEqual([]);
    // Kafka 4.x: more than 5 in flight is an error whenever idempotence is not explicitly false,
    // even with acks=1, which then switches the default idempotence off.
    const inFlight = parseScenario({
      ...base,
      producer: { acks: '1', 'max.in.flight.requests.per.connection': 6 },
    });
    expect(inFlight.ok ? [] : inFlight.issues).toEqual([
      {
        path: 'producer.max.in.flight.requests.per.connection',
        message:
          'ConfigException: To use the idempotent producer, max.in.flight.requests.per.connection must be set to at most 5. Current value is 6. (Set enable.idempotence=false to allow more.)',
      },
    ]);
    expect(
      paths({
        ...base,
        producer: {
          acks: '1',
          'enable.idempotence': false,
          'max.in.flight.requests.per.connection': 6,
        },
      }),
    ).toEqual([]);
  });

  it('checks the generator’s options, naming the field', () => {
    const gen = (generate: object) => ({
      ...base,
      workload: { generate: { count: 10, ...generate } },
    });
    const both = parseScenario(gen({ intervalMs: 5, ratePerSec: 200 }));
    expect(both.ok ? [] : both.issues).toEqual([
      { path: 'workload.generate.ratePerSec', message: 'give intervalMs or ratePerSec, not both' },
    ]);
    // intervalMs set to its default value is still set.
    expect(paths(gen({ intervalMs: 10, ratePerSec: 100 }))).toEqual([
      'workload.generate.ratePerSec',
    ]);
    expect(paths(gen({ ratePerSec: 0 }))).toEqual(['workload.generate.ratePerSec']);
    expect(paths(gen({ ratePerSec: 200, arrivals: 'poisson', keyChoice: 'random' }))).toEqual([]);
    expect(paths(gen({ arrivals: 'bursty' }))).toEqual(['workload.generate.arrivals']);
    expect(paths(gen({ keyChoice: 'hash' }))).toEqual(['workload.generate.keyChoice']);
    const noRange = parseScenario(gen({ amounts: 'random' }));
    expect(noRange.ok ? [] : noRange.issues).toEqual([
      {
        path: 'workload.generate.amountRange',
        message: 'amounts "random" needs amountRange { min, max }',
      },
    ]);
    expect(paths(gen({ amountRange: { min: 1, max: 5 } }))).toEqual([
      'workload.generate.amountRange',
    ]);
    expect(paths(gen({ amounts: 'random', amountRange: { min: 5, max: 1 } }))).toEqual([
      'workload.generate.amountRange.max',
    ]);
    expect(paths(gen({ amounts: 'random', amountRange: { min: 1.5, max: 5 } }))).toEqual([
      'workload.generate.amountRange.min',
    ]);
    expect(paths(gen({ amounts: 'random', amountRange: { min: 3, max: 3 } }))).toEqual([]);
  });

  it('refuses a generator whose last event falls beyond the time limit', () => {
    const r = parseScenario({
      ...base,
      workload: { generate: { count: LIMITS.generatedEvents, intervalMs: 1000 } },
    });
    expect(r.ok ? [] : r.issues).toEqual([
      {
        path: 'workload.generate.count',
        message: `the last event would come at 1999999000 ms, beyond the time limit (${LIMITS.timeMs} ms)`,
      },
    ]);
    // 604,801 events one second apart: the last at exactly 7 days, still accepted.
    expect(paths({ ...base, workload: { generate: { count: 604_801, ratePerSec: 1 } } })).toEqual(
      [],
    );
    expect(paths({ ...base, workload: { generate: { count: 604_802, ratePerSec: 1 } } })).toEqual([
      'workload.generate.count',
    ]);
  });
});
