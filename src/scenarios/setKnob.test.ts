/**
 * setKnob on a scenario that leaves `processor` and `sink` to the schema's defaults (a consumer
 * loop, a table): the object it creates carries the default's discriminator (`type`), so the edit
 * means what the scenario meant plus the one knob — `processor: { 'max.poll.records': 7 }` alone
 * is refused ("processor.type: type must be …").
 */
import { describe, expect, it } from 'vitest';
import { formatIssues, parseScenario } from '../engine';
import type { Guarantee, ScenarioInput } from '../engine';
import { applyGuarantee, getKnob, guaranteeKnobs, setKnob } from './guarantees';

const minimal = (): ScenarioInput => ({
  version: 1,
  name: 'x',
  workload: { generate: { count: 10 } },
});

/** The scenario parsed, or the test fails with the validator's words. */
function parsed(s: ScenarioInput) {
  const r = parseScenario(s);
  if (!r.ok) expect.fail(formatIssues(r.issues));
  return r.scenario;
}

describe('setKnob on a scenario that relies on the default processor and sink', () => {
  it('a processor knob (max.poll.records): a consumer loop with the knob set', () => {
    const s = setKnob(minimal(), 'processor.max.poll.records', 7);
    expect(s.processor).toEqual({ type: 'consumer', 'max.poll.records': 7 });
    const p = parsed(s).processor;
    expect(p.type).toBe('consumer');
    expect(getKnob(p, 'max.poll.records')).toBe(7);
  });

  it('a sink knob (statement retries): a table with the knob set', () => {
    const s = setKnob(minimal(), 'sink.retries', 1);
    expect(s.sink).toEqual({ type: 'table', retries: 1 });
    expect(parsed(s).sink).toMatchObject({ type: 'table', retries: 1 });
  });

  it('a knob on a non-union object (producer, network) adds no type', () => {
    const s = setKnob(setKnob(minimal(), 'producer.linger.ms', 3), 'network.latencyMs', 4);
    expect(s.producer).toEqual({ 'linger.ms': 3 });
    expect(s.network).toEqual({ latencyMs: 4 });
    expect(parsed(s).producer['linger.ms']).toBe(3);
  });

  it('a processor or sink that is written keeps its own type', () => {
    const s: ScenarioInput = {
      ...minimal(),
      processor: { type: 'flink' },
      sink: { type: 'kafka' },
    };
    const after = setKnob(setKnob(s, 'processor.sinkFlushDelayMs', 5), 'sink.linger.ms', 2);
    expect(after.processor).toEqual({ type: 'flink', sinkFlushDelayMs: 5 });
    expect(after.sink).toEqual({ type: 'kafka', 'linger.ms': 2 });
    expect(parsed(after).processor.type).toBe('flink');
  });

  it('setting the type itself (Spark’s switch to Delta) writes that type', () => {
    expect(setKnob(minimal(), 'sink.type', 'delta').sink).toEqual({ type: 'delta' });
  });

  it.each<Guarantee>(['at-most-once', 'at-least-once', 'exactly-once'])(
    'applyGuarantee(%s) gives a valid scenario with the recipe’s knobs',
    (g) => {
      const s = applyGuarantee(minimal(), g);
      const p = parsed(s);
      expect(p.claim).toBe(g);
      expect(p.processor.type).toBe('consumer');
      expect(p.sink.type).toBe('table');
      for (const k of guaranteeKnobs(g, 'consumer', minimal()))
        if (k.value !== undefined) expect([k.path, getKnob(p, k.path)]).toEqual([k.path, k.value]);
    },
  );
});
