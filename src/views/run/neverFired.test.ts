/**
 * Issue 24 item 7, the words and the rule behind each: "⚠ never fired" for every fault that never
 * fired, none for an untouched shipped variant (a test over every preset variant) — read from the
 * scenario, not from how it was opened; money errors in words.
 */
import { describe, expect, it } from 'vitest';
import { parseScenario, type ScenarioInput } from '../../engine';
import { findPreset, presets } from '../../scenarios';
import { computeRunView } from './computeRun';
import { faultMarkers } from '../edit/faultActions';
import { moneyOffWords } from './format';
import { neverFiredToWarn } from './neverFired';

function warned(scenario: ScenarioInput) {
  const parsed = parseScenario(scenario);
  if (!parsed.ok) throw new Error('invalid scenario');
  const r = computeRunView(scenario);
  if (!r.ok) throw new Error('run failed');
  const markers = faultMarkers(r.view, parsed.scenario);
  return {
    unfired: markers.filter((m) => m.firedEntry < 0).map((m) => m.name),
    warned: neverFiredToWarn(markers, scenario).map((m) => m.name),
  };
}

describe('"never fired" is said of every fault that never fired, unless the scenario is a shipped variant', () => {
  it('no shipped preset variant is warned about; the one shipped fault that cannot fire is the lesson of at-most-once', () => {
    const unfiredShipped: string[] = [];
    for (const p of presets)
      for (const v of p.variants) {
        const w = warned(v.scenario);
        expect(w.warned, `${p.id}/${v.id}`).toEqual([]);
        for (const name of w.unfired) unfiredShipped.push(`${p.id}/${v.id}: ${name}`);
      }
    // at-most-once keeps its siblings' lost acknowledgement of p-4; with acks=0 there is none
    // to lose (its setup says so: src/scenarios/foundation.ts). Any other shipped fault that
    // cannot fire is a preset to fix, not a warning to show.
    expect(unfiredShipped).toEqual(['at-most-once/default: fault "lost ack"']);
  }, 120_000);

  it('once edited, every fault that never fired is warned about, the shipped one too (as the CLI says it)', () => {
    const shipped = findPreset('at-most-once')!.variant.scenario;
    // The same lost ack again, on p-5: with acks=0 it has nothing to lose either.
    const added: ScenarioInput = {
      ...shipped,
      faults: [
        ...(shipped.faults ?? []),
        { id: 'mine', kind: 'drop-response', link: 'produce', match: { event: 'p-5' } },
      ],
    } as ScenarioInput;
    const w = warned(added);
    expect(w.unfired).toEqual(['fault "lost ack"', 'fault "mine"']);
    // The scenario alone decides, not how it was opened (the tab, a link, an import).
    expect(w.warned).toEqual(['fault "lost ack"', 'fault "mine"']);
    // The untouched variant, however written (a copy, keys in another order): none.
    expect(warned(structuredClone(shipped)).warned).toEqual([]);
  });
});

describe('a report that is off says by how much, in words', () => {
  it('"$190 short" under the truth, "$190 over" above it — no signed amount', () => {
    expect(moneyOffWords(1910, 2100)).toBe('$190 short');
    expect(moneyOffWords(2290, 2100)).toBe('$190 over');
  });
});
