/**
 * Issue 24 item 7, the words and the rule behind each: "⚠ never fired" only for faults a user
 * added; a shipped preset shows none (a test over every preset variant); money errors in words.
 */
import { describe, expect, it } from 'vitest';
import { parseScenario, type ScenarioInput } from '../../engine';
import { findPreset, presets } from '../../scenarios';
import { computeRunView } from './computeRun';
import { faultMarkers } from '../edit/faultActions';
import { moneyOffWords } from './format';
import { neverFiredToWarn } from './neverFired';

function warned(scenario: ScenarioInput, shipped: ScenarioInput | null) {
  const parsed = parseScenario(scenario);
  if (!parsed.ok) throw new Error('invalid scenario');
  const r = computeRunView(scenario);
  if (!r.ok) throw new Error('run failed');
  const markers = faultMarkers(r.view, parsed.scenario);
  return {
    unfired: markers.filter((m) => m.firedEntry < 0).map((m) => m.name),
    warned: neverFiredToWarn(markers, parsed.scenario.faults, shipped).map((m) => m.name),
  };
}

describe('"never fired" is said only of faults a user added', () => {
  it('no shipped preset variant is warned about; the one shipped fault that cannot fire is the lesson of at-most-once', () => {
    const unfiredShipped: string[] = [];
    for (const p of presets)
      for (const v of p.variants) {
        const w = warned(v.scenario, v.scenario);
        expect(w.warned, `${p.id}/${v.id}`).toEqual([]);
        for (const name of w.unfired) unfiredShipped.push(`${p.id}/${v.id}: ${name}`);
      }
    // at-most-once keeps its siblings' lost acknowledgement of p-4; with acks=0 there is none
    // to lose (its setup says so: src/scenarios/foundation.ts). Any other shipped fault that
    // cannot fire is a preset to fix, not a warning to show.
    expect(unfiredShipped).toEqual(['at-most-once/default: fault "lost ack"']);
  }, 120_000);

  it('a fault the user added that cannot fire is warned about, beside the shipped one that is not', () => {
    const shipped = findPreset('at-most-once')!.variant.scenario;
    // The same lost ack again, on p-5: with acks=0 it has nothing to lose either.
    const added: ScenarioInput = {
      ...shipped,
      faults: [
        ...(shipped.faults ?? []),
        { id: 'mine', kind: 'drop-response', link: 'produce', match: { event: 'p-5' } },
      ],
    } as ScenarioInput;
    const w = warned(added, shipped);
    expect(w.unfired).toEqual(['fault "lost ack"', 'fault "mine"']);
    expect(w.warned).toEqual(['fault "mine"']);
    // Not opened from a preset (an import, a link): every unfired fault is the user's.
    expect(warned(added, null).warned).toEqual(['fault "lost ack"', 'fault "mine"']);
  });
});

describe('a report that is off says by how much, in words', () => {
  it('"$190 short" under the truth, "$190 over" above it — no signed amount', () => {
    expect(moneyOffWords(1910, 2100)).toBe('$190 short');
    expect(moneyOffWords(2290, 2100)).toBe('$190 over');
  });
});
