/**
 * The note `check` adds when an embed pinned by a scenario file plays another scenario than the
 * file (./sidecarDrift.ts): the first field where they part, with both values — also for a knob
 * whose own name has dots (`enable.idempotence`), which a path split at its dots cannot find.
 */
import { describe, expect, it } from 'vitest';
import { parseScenario, type Scenario, type ScenarioInput } from '../engine';
import { findPreset } from '../scenarios';
import { sidecarDrift } from './sidecarDrift';

const input = findPreset('lost-ack-retry/idempotence-on')!.variant.scenario as ScenarioInput;

function parsed(s: unknown): Scenario {
  const r = parseScenario(s);
  if (!r.ok) throw new Error(JSON.stringify(r.issues));
  return r.scenario;
}

describe('sidecarDrift', () => {
  it('names a dotted knob and both its values (the preset leaves it to its default: unset)', () => {
    const file = { ...input, producer: { ...input.producer, 'enable.idempotence': false } };
    expect(sidecarDrift(parsed(input), file, 'payments.json')).toBe(
      'the embed plays another scenario than payments.json, whose expect block pins it: ' +
        'producer.enable.idempotence is (unset) in the embed, false in the file — to show the ' +
        "file's scenario, import it on the lab's page and take the embed again (Embed)",
    );
  });

  it('says nothing when the file holds the same scenario, its expect block aside', () => {
    expect(
      sidecarDrift(parsed(input), { ...input, expect: { totals: { rows: 1 } } }, 'p.json'),
    ).toBe(null);
  });
});
