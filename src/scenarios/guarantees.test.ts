/**
 * The exactly-once switch on a Flink job writing to Kafka: KafkaSink asks for a 1 h
 * transaction.timeout.ms unless it is set, and a broker at its defaults accepts at most 15 min
 * (transaction.max.timeout.ms, https://kafka.apache.org/documentation/#brokerconfigs_transaction.max.timeout.ms),
 * so the switch sets the broker's cap when the timeout in effect is above it, and leaves a value
 * within the cap alone.
 */
import { describe, expect, it } from 'vitest';
import type { ScenarioInput } from '../engine';
import { applyGuarantee, detectGuarantee, getKnob } from './guarantees';
import { findPreset } from './index';

const flinkToKafka = (
  sink: Record<string, unknown> = {},
  broker: Record<string, unknown> = {},
): ScenarioInput => ({
  version: 1,
  name: 'flink → kafka',
  workload: { events: [{ id: 'e1', amount: 10, at: 0 }] },
  broker,
  processor: { type: 'flink' },
  sink: { type: 'kafka', ...sink } as ScenarioInput['sink'],
  readers: [{ name: 'rc', topic: 'out' }],
});

describe('exactly-once on Flink → Kafka sets a transaction.timeout.ms the broker accepts', () => {
  it('unset (KafkaSink: 1 h) → the default broker cap, 900000; the switch then reads exactly-once', () => {
    const s = applyGuarantee(flinkToKafka(), 'exactly-once');
    expect(getKnob(s, 'sink.transaction.timeout.ms')).toBe(900_000);
    expect(getKnob(s, 'sink.deliveryGuarantee')).toBe('EXACTLY_ONCE');
    expect(detectGuarantee(s)).toBe('exactly-once');
  });

  it('a value within the cap is kept: 60000 stays 60000 and still reads exactly-once', () => {
    const s = applyGuarantee(flinkToKafka({ 'transaction.timeout.ms': 60_000 }), 'exactly-once');
    expect(getKnob(s, 'sink.transaction.timeout.ms')).toBe(60_000);
    expect(detectGuarantee(s)).toBe('exactly-once');
  });

  it('a broker that allows 1 h leaves the timeout unset', () => {
    const s = applyGuarantee(
      flinkToKafka({}, { 'transaction.max.timeout.ms': 3_600_000 }),
      'exactly-once',
    );
    expect(getKnob(s, 'sink.transaction.timeout.ms')).toBeUndefined();
    expect(detectGuarantee(s)).toBe('exactly-once');
  });

  it('a knob left unset counts as its default: S08 (checkpointing.mode unset = EXACTLY_ONCE, 60 s) reads exactly-once', () => {
    const s = findPreset('flink-commit-phase-crash/recovered-in-time')!.variant.scenario;
    expect(getKnob(s, 'processor.execution.checkpointing.mode')).toBeUndefined();
    expect(detectGuarantee(s)).toBe('exactly-once');
    const unset = findPreset('flink-commit-phase-crash/timeout-left-unset')!.variant.scenario;
    expect(detectGuarantee(unset)).toBe('custom');
  });

  it('with the timeout left unset, the 2PC configuration is not exactly-once: custom', () => {
    const s = applyGuarantee(flinkToKafka(), 'exactly-once');
    const unset = structuredClone(s);
    if (unset.sink?.type === 'kafka') delete unset.sink['transaction.timeout.ms'];
    expect(detectGuarantee(unset)).toBe('custom');
  });
});
