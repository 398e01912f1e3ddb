import { describe, expect, it } from 'vitest';
import { parseScenario, simulate } from '../../engine';
import { findPreset, presets } from '../../scenarios';
import { runSequenceDiagram } from '../diagrams/mermaid';
import { presetName } from './presetName';

describe('a library scenario has one name', () => {
  it('the picker\'s: "title — variant label", or the title alone', () => {
    const { preset, variant } = findPreset('lost-ack-retry/idempotence-off')!;
    expect(presetName(preset, variant)).toBe('A lost acknowledgement, retried — idempotence off');
    const single = findPreset('commit-before-process')!;
    expect(presetName(single.preset, single.variant)).toBe('Commit first, then process');
  });

  it("every variant's scenario is named so: the export, the diagram title, the CLI say it too", () => {
    for (const p of presets)
      for (const v of p.variants) expect(v.scenario.name, `${p.id}/${v.id}`).toBe(presetName(p, v));
  });

  it('the diagram title of lost-ack-retry/idempotence-off', () => {
    const s = findPreset('lost-ack-retry/idempotence-off')!.variant.scenario;
    const parsed = parseScenario(s);
    if (!parsed.ok) throw new Error('preset invalid');
    expect(runSequenceDiagram(simulate(parsed.scenario)).split('\n')[1]).toBe(
      '  title A lost acknowledgement, retried — idempotence off',
    );
  });
});
