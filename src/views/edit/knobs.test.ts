/**
 * A knob edit with the knobs it must bring along: Flink's JDBC exactly-once (XA) sink refuses
 * maxRetries ≠ 0 (FLINK-22311), so turning `sink.xa` on sets statement retries to 0 in the same
 * edit and says so; a knob that can be off goes back to its last number when turned on again.
 */
import { describe, expect, it } from 'vitest';
import { parseScenario } from '../../engine';
import type { ScenarioInput } from '../../engine';
import { findPreset, getKnob } from '../../scenarios';
import { editKnob, KNOBS, knobMeta, knobsFor, lastNumberIn } from './knobs';

const preset = (ref: string): ScenarioInput => structuredClone(findPreset(ref)!.variant.scenario);

describe('editKnob: sink.xa brings statement retries 0 along', () => {
  it('a Flink table sink with the default retries (3): xa on sets retries 0, valid, one notice', () => {
    const s = preset('flink-checkpoint-replay/plain-sink');
    expect(getKnob(s, 'sink.retries')).toBeUndefined();
    const { scenario, notice } = editKnob(s, 'sink.xa', true);
    expect(getKnob(scenario, 'sink.xa')).toBe(true);
    expect(getKnob(scenario, 'sink.retries')).toBe(0);
    expect(parseScenario(scenario).ok).toBe(true);
    expect(notice).toBe(
      'Set JdbcSink.exactlyOnceSink (XA) to true — and statement retries to 0, as Flink’s XA sink requires',
    );
  });

  it('retries written as 2 are set to 0 as well', () => {
    const s = editKnob(preset('flink-checkpoint-replay/upsert'), 'sink.retries', 2).scenario;
    const { scenario } = editKnob(s, 'sink.xa', true);
    expect(getKnob(scenario, 'sink.retries')).toBe(0);
    expect(parseScenario(scenario).ok).toBe(true);
  });

  it('retries already 0: only xa changes, and the notice says only that', () => {
    const s = preset('flink-checkpoint-replay/2pc-jdbc-xa');
    const off = editKnob(s, 'sink.xa', false);
    expect(getKnob(off.scenario, 'sink.retries')).toBe(0);
    expect(off.notice).toBe('Set JdbcSink.exactlyOnceSink (XA) to false');
    const on = editKnob(off.scenario, 'sink.xa', true);
    expect(on.scenario).toEqual(s);
    expect(on.notice).toBe('Set JdbcSink.exactlyOnceSink (XA) to true');
  });

  it('turning xa off leaves retries as they are', () => {
    const on = editKnob(preset('flink-checkpoint-replay/plain-sink'), 'sink.xa', true).scenario;
    const off = editKnob(on, 'sink.xa', false);
    expect(getKnob(off.scenario, 'sink.retries')).toBe(0);
    expect(off.notice).toBe('Set JdbcSink.exactlyOnceSink (XA) to false');
  });

  it('a plain knob: just the knob, and a note ends the notice', () => {
    const s = preset('flink-checkpoint-replay/plain-sink');
    const { scenario, notice } = editKnob(s, 'processor.execution.checkpointing.interval', 2500);
    expect(getKnob(scenario, 'processor.execution.checkpointing.interval')).toBe(2500);
    expect(notice).toBe('Set execution.checkpointing.interval to 2500 ms');
    expect(editKnob(s, 'network.latencyMs', 3, 'why not').notice).toBe(
      'Set latency to 3 ms — why not',
    );
  });

  it('names the knob as the system spells it, and whose it is when two share the name', () => {
    const s = preset('flink-checkpoint-replay/plain-sink');
    // The path is broker.broker.session.timeout.ms: its name alone, not the path, is what a user knows.
    expect(editKnob(s, 'broker.broker.session.timeout.ms', 9000).notice).toBe(
      'Set broker.session.timeout.ms to 9000 ms',
    );
    expect(editKnob(s, 'producer.acks', -1).notice).toBe('Set acks to all');
    // isolation.level exists for the consumer loop and for each downstream reader.
    expect(editKnob(s, 'processor.isolation.level', 'read_committed').notice).toBe(
      'Set isolation.level of the Kafka consumer to read_committed',
    );
  });
});

describe('lastNumberIn', () => {
  const P = 'processor.execution.checkpointing.interval';
  const at = (v: unknown) => ({ processor: { type: 'flink', [P.slice(10)]: v } });

  it('the newest number in the history, skipping null and unset', () => {
    expect(lastNumberIn([at(1000), at(2500), at(null), {}], P)).toBe(2500);
  });

  it('none: undefined', () => {
    expect(lastNumberIn([at(null), {}], P)).toBeUndefined();
    expect(lastNumberIn([], P)).toBeUndefined();
  });
});

describe('restart-strategy.fixed-delay.attempts', () => {
  it('is a knob only under restart-strategy fixed-delay, with Flink’s default 1', () => {
    const s = preset('flink-checkpoint-replay/plain-sink');
    const P = 'processor.restart-strategy.fixed-delay.attempts';
    const has = (x: ScenarioInput) => {
      const r = parseScenario(x);
      if (!r.ok) throw new Error('invalid');
      return knobsFor(r.scenario).some((k) => k.path === P);
    };
    expect(has(s)).toBe(false);
    const fixed = editKnob(s, 'processor.restart-strategy.type', 'fixed-delay').scenario;
    expect(has(fixed)).toBe(true);
    expect(knobMeta(P)!.realDefault).toBe('1');
  });
});

describe('each knob’s system', () => {
  it('holds no parentheses: Compare’s “What differs” and the batch lanes write it in them', () => {
    // "on statement error (simulator (your code))" before.
    expect(KNOBS.filter((k) => /[()]/.test(k.system)).map((k) => `${k.path}: ${k.system}`)).toEqual(
      [],
    );
  });
});
