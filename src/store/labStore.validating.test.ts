/**
 * The lab store's `validating` status: a preset whose family module is not loaded yet
 * (src/scenarios/presetCatalog.ts) is asked for, and the lab says so until it is in, then runs it;
 * `settled()` waits for both. A fresh module registry stands for a page that loaded one family.
 */
import { describe, expect, it, vi } from 'vitest';
import { inlineRunner } from './labTesting';

/** A lab of a page that has loaded the foundation presets only (the default's family). */
async function freshLab() {
  vi.resetModules();
  // The page loads every preset's metadata at start-up (src/ui/io/firstPresets.ts); an embed would
  // load its family's part instead.
  const catalog = await import('../scenarios/presetCatalog');
  await catalog.loadWholeCatalog();
  await catalog.loadPreset(catalog.DEFAULT_PRESET_REF);
  const { createLab } = await import('./labStore');
  const lab = createLab({ runner: inlineRunner });
  await lab.actions.settled();
  return { lab, catalog };
}

describe('lab store: validating', () => {
  it('is validating while a preset of another family loads, then runs it', async () => {
    const { lab, catalog } = await freshLab();
    expect(lab.app.getState().status).toBe('ready');
    expect(catalog.loadedPreset('zombie-consumer')).toBeUndefined();
    lab.actions.loadPreset('zombie-consumer');
    // Still the default on screen, and the status line says it is checking.
    expect(lab.app.getState().status).toBe('validating');
    expect(lab.app.getState().presetRef).toBe('at-least-once/default');
    await lab.actions.settled();
    expect(lab.app.getState().status).toBe('ready');
    expect(lab.app.getState().presetRef).toBe('zombie-consumer/plain-insert');
    expect(lab.app.getState().viewFor).toBe(lab.app.getState().scenario);
    // One undoable step: back to the default.
    lab.actions.undo();
    expect(lab.app.getState().presetRef).toBe('at-least-once/default');
  });

  it('a later choice wins over a slower load of an earlier one', async () => {
    const { lab } = await freshLab();
    lab.actions.loadPreset('zombie-consumer');
    expect(lab.app.getState().status).toBe('validating');
    // at-most-once is in the default's family: it opens at once.
    lab.actions.loadPreset('at-most-once');
    expect(lab.app.getState().presetRef).toBe('at-most-once/default');
    await lab.actions.settled();
    await new Promise((r) => setTimeout(r, 0));
    expect(lab.app.getState().presetRef).toBe('at-most-once/default');
    expect(lab.app.getState().status).toBe('ready');
    expect(lab.app.getState().past).toHaveLength(1);
  });

  it('an unknown preset is refused at once, with no validating', async () => {
    const { lab } = await freshLab();
    lab.actions.loadPreset('no-such-preset');
    expect(lab.app.getState().status).toBe('ready');
    expect(lab.app.getState().notice).toBe('No preset "no-such-preset"');
  });
});
