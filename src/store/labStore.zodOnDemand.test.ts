/**
 * An embed of one of our presets loads no zod (issue 31, src/views/run/validationOnDemand.ts):
 * the store's selectors and the guarantee switch answer a preset as shipped from its generated
 * module, the same answers zod gives, and the validation is loaded at the first edit (status
 * `validating` until it is in). A fresh module registry, where nothing provided the validation
 * (src/testSetup.ts provides it to every other test, as src/main.tsx does on the lab's page),
 * stands for the embed.
 */
import { describe, expect, it, vi } from 'vitest';
import type { Guarantee } from '../engine';
import { parseScenario } from '../engine';
import { findPreset, guaranteeAvailability, recipeDifferences } from '../scenarios';
import { claimOf } from '../scenarios/claim';
import { PRESET_VARIANT_IDS } from '../scenarios/parsed';
import { inlineRunner } from './labTesting';

const GUARANTEES: Guarantee[] = ['at-most-once', 'at-least-once', 'exactly-once'];

/** The modules of a page that provided no validation, with `refs`' presets loaded. */
async function embedModules(refs: string[]) {
  vi.resetModules();
  const catalog = await import('../scenarios/presetCatalog');
  const scenarios = await import('../scenarios/presetScenarios');
  for (const ref of refs) {
    await catalog.loadPreset(ref);
    await scenarios.loadPresetScenarios(ref);
  }
  return {
    onDemand: await import('../views/run/validationOnDemand'),
    switchInHand: await import('./guaranteeSwitch'),
    labStore: await import('./labStore'),
  };
}

/** A lab on `ref` as shipped, in a page that provided no validation, its first run settled. */
async function presetLab(ref: string) {
  const modules = await embedModules([ref]);
  const lab = modules.labStore.createLab({
    runner: inlineRunner,
    initialPresetRef: ref,
    initial: structuredClone(findPreset(ref)!.variant.scenario),
  });
  await lab.actions.settled();
  return { ...modules, lab };
}

describe('lab store: zod on demand', () => {
  it(
    'answers every preset variant as shipped as zod does, without loading it',
    async () => {
      const refs = Object.entries(PRESET_VARIANT_IDS).flatMap(([p, vs]) =>
        vs.map((v) => `${p}/${v}`),
      );
      const { onDemand, switchInHand, labStore } = await embedModules(refs);
      let refused = 0;
      for (const ref of refs) {
        const shipped = structuredClone(findPreset(ref)!.variant.scenario);
        expect(onDemand.knownPresetRef(shipped), ref).toBe(ref);
        expect(labStore.selectParse({ scenario: shipped }), ref).toEqual(parseScenario(shipped));
        expect(labStore.selectRecipeDifferences({ scenario: shipped }), ref).toEqual(
          recipeDifferences(shipped, claimOf(shipped)),
        );
        for (const g of GUARANTEES) {
          const byZod = guaranteeAvailability(shipped, g);
          if (!byZod.ok) refused++;
          expect(switchInHand.availabilityInHand(shipped, g), `${ref} → ${g}`).toEqual(byZod);
        }
      }
      // Every variant (a foundation one, a Flink one, a batch job…) and the refused switches
      // among them: Spark's at-most-once and the faults a guarantee cannot keep.
      expect(refs.length).toBe(100);
      expect(refused).toBe(26);
      expect(onDemand.validation()).toBeNull();
      // An edited scenario is no preset: nothing to answer until the validation is in.
      const edited = { ...findPreset(refs[0]!)!.variant.scenario, seed: 99 };
      expect(onDemand.parseInHand(edited)).toBeUndefined();
      expect(switchInHand.availabilityInHand(edited, 'exactly-once')).toBeUndefined();
    },
    // ~100 variants, three zod validations each, on a busy machine.
    120_000,
  );

  it('a preset opens without zod; the first edit loads it, saying "validating" meanwhile', async () => {
    const { onDemand, labStore, lab } = await presetLab('consume-transform-produce/read-committed');
    expect(lab.app.getState().status).toBe('ready');
    expect(onDemand.validation()).toBeNull();
    lab.actions.setSeed(7);
    expect(lab.app.getState().status).toBe('validating');
    expect(labStore.selectParse(lab.app.getState())).toBe(labStore.PARSE_PENDING);
    await lab.actions.settled();
    expect(onDemand.validation()).not.toBeNull();
    expect(lab.app.getState().status).toBe('ready');
    expect(lab.app.getState().viewFor).toBe(lab.app.getState().scenario);
    expect(labStore.selectParse(lab.app.getState())).toEqual(
      parseScenario(lab.app.getState().scenario),
    );
  }, 60_000);

  it('the guarantee switch loads the validation, then applies the recipe (or refuses, saying why)', async () => {
    const ref = 'consume-transform-produce/read-committed';
    const { onDemand, labStore } = await embedModules([ref]);
    const shipped = structuredClone(findPreset(ref)!.variant.scenario);
    const lab = labStore.createLab({
      runner: inlineRunner,
      initialPresetRef: ref,
      initial: shipped,
    });
    await lab.actions.settled();
    lab.actions.setGuarantee('at-least-once');
    await lab.actions.settled();
    expect(onDemand.validation()).not.toBeNull();
    // Refused as zod says: the scenario's crash at a transaction commit.
    const why = guaranteeAvailability(shipped, 'at-least-once');
    expect(why.ok).toBe(false);
    expect(lab.app.getState().scenario).toBe(shipped);
    expect(lab.app.getState().notice).toBe(
      `at-least-once is unavailable: ${(why as { reason: string }).reason}`,
    );
    lab.actions.setGuarantee('at-most-once');
    expect(lab.app.getState().scenario).not.toBe(shipped);
  }, 60_000);

  it('a fault menu asked before the validation is in says it is opening, then opens', async () => {
    const { onDemand, lab } = await presetLab('consume-transform-produce/read-committed');
    lab.actions.openMenu('consumer-0');
    expect(lab.app.getState().menu).toBeNull();
    expect(lab.app.getState().notice).toBe('Opening the fault menu…');
    await onDemand.loadValidation();
    await lab.actions.settled();
    expect(lab.app.getState().menu).toBe('consumer-0');
    expect(lab.app.getState().notice).toBeNull();
  }, 60_000);
});
