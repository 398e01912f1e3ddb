import { describe, expect, it } from 'vitest';
import { settledLab } from './labTesting';
import { runOf, sameRun } from './sameRun';

describe('the run a scenario object stands for', () => {
  it('Compare and the atlas copy the same run; undo and redo bring it back; an edit or a reopening is another', async () => {
    const lab = await settledLab('at-least-once/default');
    const opened = lab.app.getState().scenario;
    const now = () => lab.app.getState().scenario;
    lab.actions.setCompare({ lanes: [{ guarantee: 'exactly-once' }] });
    expect(now()).not.toBe(opened);
    expect(runOf(now())).toBe(opened);
    lab.actions.setAtlas({ pairs: true }, 'Pairs too');
    lab.actions.setCompare(null);
    expect(sameRun(now(), opened)).toBe(true);
    lab.actions.undo();
    lab.actions.undo();
    expect(sameRun(now(), opened)).toBe(true);
    lab.actions.redo();
    expect(sameRun(now(), opened)).toBe(true);
    // An edit is a run of its own, even one that gives back equal fields.
    lab.actions.setSeed(7);
    expect(sameRun(now(), opened)).toBe(false);
    lab.actions.loadScenario(structuredClone(opened));
    expect(now()).toEqual(opened);
    expect(sameRun(now(), opened)).toBe(false);
    expect(sameRun(null, opened)).toBe(false);
    await lab.actions.settled();
  });
});
