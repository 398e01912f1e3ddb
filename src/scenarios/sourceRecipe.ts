/**
 * The guarantee recipes' source side: the application and its Kafka producer, the same for every
 * stream pipeline kind (./guaranteeRecipes.ts adds the processor's and the sink's knobs).
 */
import type { Guarantee, ScenarioInput } from '../engine';
import type { KnobSetting } from './guaranteeRecipes';

/**
 * The source producer's knobs an idempotent producer needs besides acks=all. Kafka refuses
 * `enable.idempotence=true` with `retries=0` ("must set retries to non-zero when using the
 * idempotent producer") and, since 4.0, with more than 5 requests in flight per connection
 * (ConfigException, https://kafka.apache.org/documentation/#producerconfigs_enable.idempotence).
 * Only a conflicting value is changed (retries back to its default, Integer.MAX_VALUE, by
 * unsetting it; in-flight requests down to 5); a value that fits is left as it is, no knob.
 */
function idempotentProducerKnobs(s: ScenarioInput): KnobSetting[] {
  const knobs: KnobSetting[] = [];
  if (s.producer?.retries === 0)
    knobs.push({
      path: 'producer.retries',
      value: undefined,
      why: 'an idempotent producer must retry (retries=0 is a ConfigException): back to the default, Integer.MAX_VALUE',
    });
  const inFlight = s.producer?.['max.in.flight.requests.per.connection'];
  if (inFlight !== undefined && inFlight > 5)
    knobs.push({
      path: 'producer.max.in.flight.requests.per.connection',
      value: 5,
      why: 'the most an idempotent producer allows (more is a ConfigException)',
    });
  return knobs;
}

/**
 * A transactional producer is idempotent by definition: Kafka refuses `transactional.id` together
 * with `enable.idempotence=false` or `acks`≠all (ConfigException). The at-most-once and
 * at-least-once bundles turn idempotence off, and neither promise rests on transactions, so they
 * make the source producer a plain one. A fault that needs its transactions (an aborted or
 * hanging transaction, a crash at its commit) then cannot happen: {@link guaranteeAvailability}
 * reports that rather than the switch deleting the fault.
 */
const PLAIN_PRODUCER: KnobSetting = {
  path: 'producer.transactional.id',
  value: undefined,
  why: 'no transactions: a transactional producer is always idempotent',
};

/**
 * The source application and its producer, the same for every pipeline kind: whatever reads the
 * topic afterwards (a consumer loop, a Flink job, a Spark query) can only deliver what reached the
 * log, so a guarantee that promises no loss must make the source keep trying. At-most-once sends
 * once and gives up (acks=0, `app.onFailure: skip`); at-least-once waits for every in-sync replica
 * and re-sends what failed (a send that timed out after `delivery.timeout.ms`, or was still
 * buffered when the producer crashed) as a new record, so a retry may write it twice; exactly-once
 * does the same through an idempotent producer, whose own retries are written once, and relies on
 * the rest of the chain to absorb an application re-send
 * (https://kafka.apache.org/documentation/#semantics: a producer that "failed to receive a
 * response indicating that a message was committed" has "little choice but to resend the
 * message"; the idempotent producer makes its own resends write once).
 */
export function sourceKnobs(g: Guarantee, s: ScenarioInput): KnobSetting[] {
  switch (g) {
    case 'at-most-once':
      return [
        { path: 'producer.acks', value: '0', why: 'fire and forget: never wait, never retry' },
        { path: 'producer.enable.idempotence', value: false, why: 'acks=0 cannot be idempotent' },
        PLAIN_PRODUCER,
        { path: 'producer.app.onFailure', value: 'skip', why: 'the application never re-sends' },
      ];
    case 'at-least-once':
      return [
        {
          path: 'producer.acks',
          value: 'all',
          why: 'wait until every in-sync replica has the record',
        },
        {
          path: 'producer.enable.idempotence',
          value: false,
          why: 'retries may write a record twice',
        },
        PLAIN_PRODUCER,
        { path: 'producer.app.onFailure', value: 'resend', why: 'a failed send is sent again' },
      ];
    case 'exactly-once':
      return [
        { path: 'producer.acks', value: 'all', why: 'no acknowledged record is lost' },
        {
          path: 'producer.enable.idempotence',
          value: true,
          why: 'a retried batch is written once',
        },
        ...idempotentProducerKnobs(s),
        { path: 'producer.app.onFailure', value: 'resend', why: 'nothing is given up' },
      ];
  }
}
