import { describe, expect, it } from 'vitest';
import { explore, minimalCounterexample, parseScenario } from '../../engine';
import { importConfig } from '../../scenarios/config/importConfig';
import { findPreset } from '../../scenarios';
import { suggestFix } from './fixSuggestion';
import { fixSentence } from './fixSentence';

describe('what keeps the claim on the minimal counterexample', () => {
  it("an engineer's acks=1 pipeline: acks=all alone keeps exactly-once when the leader fails after an append", () => {
    // acks=1: the leader acknowledges e1 before its followers copy it; it fails at once and a
    // follower without e1 leads — e1 is lost (https://kafka.apache.org/documentation/#producerconfigs_acks).
    // Of the exactly-once recipe's knobs this pipeline sets otherwise, acks=all alone waits for
    // the in-sync replicas, so the new leader has e1; enable.idempotence=true alone is refused
    // by Kafka beside acks=1, and the consumer's and sink's knobs do not bring e1 back.
    const r = importConfig([
      {
        name: 'producer.properties',
        text: 'acks=1\nretries=2147483647\nenable.idempotence=false\n',
      },
      {
        name: 'consumer.properties',
        text: 'enable.auto.commit=true\nisolation.level=read_uncommitted\n',
      },
      {
        name: 'sink.sql',
        text: 'INSERT INTO payments (payment_id, amount) VALUES ($1, $2) ON CONFLICT (payment_id) DO NOTHING',
      },
    ]);
    if (!r.ok) throw new Error(r.errors.join('\n'));
    const p = parseScenario(r.scenario);
    if (!p.ok) throw new Error('not valid');
    const c = minimalCounterexample(explore(p.scenario))!;
    expect(c.faults).toEqual([
      {
        kind: 'random',
        what: 'leader-failover',
        at: 107,
        untilMs: 107,
        probability: 1,
        partition: 0,
        restartAfterMs: 60000,
      },
    ]);
    const fix = suggestFix(r.scenario, c.faults);
    expect(fix).toEqual({
      kind: 'alone',
      claim: 'exactly-once',
      knobs: [{ path: 'producer.acks', value: 'all', text: 'acks=all' }],
    });
    expect(fixSentence(fix!)).toBe(
      'On this fault, acks=all alone keeps the exactly-once claim (a knob of its recipe) — a finding on this fault only: run the atlas with it to try the others.',
    );
  }, 120_000);

  it("a scenario on its claim's recipe has no knob to suggest", () => {
    // at-most-once's minimal counterexample is the application re-sending p-1: its recipe is set.
    const s = findPreset('at-most-once')!.preset.variants[0]!.scenario;
    const p = parseScenario(s);
    if (!p.ok) throw new Error('not valid');
    const c = minimalCounterexample(explore(p.scenario))!;
    expect(c.faults).toEqual([{ kind: 'app-resend', at: 0, event: 'p-1' }]);
    expect(suggestFix(s, c.faults)).toBeNull();
  }, 120_000);

  it('says what the knobs do together, or that not even they keep it', () => {
    const knobs = [
      { path: 'producer.acks', value: 'all', text: 'acks=all' },
      {
        path: 'processor.isolation.level',
        value: 'read_committed',
        text: 'isolation.level=read_committed',
      },
    ];
    expect(fixSentence({ kind: 'together', claim: 'exactly-once', knobs })).toBe(
      'On this fault, no one knob of the exactly-once recipe keeps the claim alone; together they do: acks=all, isolation.level=read_committed — a finding on this fault only: run the atlas with them to try the others.',
    );
    expect(fixSentence({ kind: 'none', claim: 'exactly-once', knobs })).toBe(
      "On this fault, not even the exactly-once recipe's knobs together keep the claim (acks=all, isolation.level=read_committed).",
    );
  });
});
