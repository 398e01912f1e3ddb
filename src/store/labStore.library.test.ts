/**
 * The lab store as the library uses it: opening presets and switching variants are undoable
 * edits, and undo/redo bring back the preset each scenario came from (the story beside the
 * pipeline and the URL's `?preset=` follow `presetRef`).
 */
import { describe, expect, it } from 'vitest';
import { createLab } from './labStore';
import { inlineRunner } from './labTesting';

describe('lab store: presets and history', () => {
  it('undo and redo restore the preset and variant each scenario was opened from', async () => {
    const lab = createLab({ runner: inlineRunner });
    const ref = () => lab.app.getState().presetRef;
    expect(ref()).toBe('at-least-once/default');
    lab.actions.loadPreset('payment-resent-by-app');
    lab.actions.loadPreset('payment-resent-by-app/on-conflict-do-nothing');
    lab.actions.setSeed(5); // an edit keeps the preset it edits
    await lab.actions.settled();
    expect(ref()).toBe('payment-resent-by-app/on-conflict-do-nothing');
    lab.actions.undo();
    expect(ref()).toBe('payment-resent-by-app/on-conflict-do-nothing');
    lab.actions.undo();
    expect(ref()).toBe('payment-resent-by-app/plain-insert');
    lab.actions.undo();
    expect(ref()).toBe('at-least-once/default');
    lab.actions.redo();
    expect(ref()).toBe('payment-resent-by-app/plain-insert');
    lab.actions.redo();
    lab.actions.redo();
    expect([ref(), lab.app.getState().scenario.seed]).toEqual([
      'payment-resent-by-app/on-conflict-do-nothing',
      5,
    ]);
    await lab.actions.settled();
  });

  it('a scenario loaded without a preset undoes back to the preset before it', async () => {
    const lab = createLab({ runner: inlineRunner });
    lab.actions.loadPreset('spark-batch-replay/append');
    lab.actions.loadScenario(structuredClone(lab.app.getState().scenario));
    expect(lab.app.getState().presetRef).toBeNull();
    lab.actions.undo();
    expect(lab.app.getState().presetRef).toBe('spark-batch-replay/append');
    await lab.actions.settled();
  });

  it('switching variants starts the new run from time 0, paused', async () => {
    const lab = createLab({ runner: inlineRunner });
    lab.actions.loadPreset('flink-checkpoint-replay/plain-sink');
    await lab.actions.settled();
    lab.actions.seek(1e9);
    lab.actions.play();
    lab.actions.loadPreset('flink-checkpoint-replay/2pc-read-committed');
    expect(lab.cursor.getState()).toEqual({ t: 0, idx: 0 });
    expect(lab.app.getState().playing).toBe(false);
    await lab.actions.settled();
    expect(lab.app.getState().status).toBe('ready');
    expect(lab.cursor.getState().t).toBe(0);
  });
});
