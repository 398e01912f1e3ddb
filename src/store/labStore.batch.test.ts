/**
 * A batch job's run in the page is the batch engine's alone (src/views/batch): the store asks the
 * run client for no stream run of its source rows, and holds no stream view for it — so neither
 * the panels nor Export can show one. Undo back to a stream scenario runs that one as before.
 */
import { describe, expect, it } from 'vitest';
import type { RunClient } from '../platform/runClient';
import { createLab } from './labStore';
import { inlineRunner } from './labTesting';

describe('lab store: a batch scenario', () => {
  it('is ready without a stream run; undo back to a stream preset runs it', async () => {
    const asked: string[] = [];
    const runner: RunClient = {
      run(input) {
        asked.push((input as { name: string }).name);
        return inlineRunner.run(input);
      },
      dispose() {},
    };
    const lab = createLab({ runner });
    await lab.actions.settled();
    // The first scenario (a stream preset) ran once.
    expect(asked).toHaveLength(1);
    lab.actions.loadPreset('airflow-retry-append');
    await lab.actions.settled();
    const s = lab.app.getState();
    // No second stream run: the batch job is not simulated as a stream.
    expect(asked).toHaveLength(1);
    expect([s.status, s.view, s.viewFor === s.scenario]).toEqual(['ready', null, true]);
    lab.actions.undo();
    await lab.actions.settled();
    expect(asked).toHaveLength(2);
    expect(lab.app.getState().view).not.toBeNull();
  });
});
