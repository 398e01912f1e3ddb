import { describe, expect, it } from 'vitest';
import { findPreset } from '../scenarios';
import type { RunClient } from '../platform/runClient';
import { computeRunView } from '../views/run/computeRun';
import { scenarioKey } from '../views/run/compute';
import { defaultPace } from '../views/run/pace';
import { createLab, type Lab } from './labStore';

const inlineRunner: RunClient = {
  run(input) {
    const key = scenarioKey(input);
    return { promise: Promise.resolve({ ...computeRunView(input), key }), cancel() {} };
  },
  dispose() {},
};

async function lab(ref: string): Promise<Lab> {
  const l = createLab({
    runner: inlineRunner,
    initial: structuredClone(findPreset(ref)!.variant.scenario),
    initialPresetRef: ref,
  });
  await l.actions.settled();
  return l;
}

describe('lab store: pace and jumps', () => {
  it('a scenario opened plays at its pace; an edit keeps the speed the user chose', async () => {
    const l = await lab('card-charge-idempotency');
    const v = l.app.getState().view!;
    expect(l.app.getState().speed).toBe(defaultPace(v));
    l.actions.setSpeed(0.2);
    l.actions.setSeed(5);
    await l.actions.settled();
    expect(l.app.getState().speed).toBe(0.2);
    l.actions.loadScenario({
      ...structuredClone(findPreset('lost-ack-retry')!.variant.scenario),
      display: { pace: 0.05 },
    });
    await l.actions.settled();
    expect(l.app.getState().speed).toBe(0.05);
  });

  it('the idle-jump note of one preset does not stay on the next', async () => {
    const l = await lab('lost-ack-retry');
    l.actions.play();
    // lost-ack-retry waits 30 s for the lost ack: playback jumps over it.
    for (let k = 0; k < 5000 && l.app.getState().lastSkip === 0; k++) l.actions.tick(100);
    expect(l.app.getState().lastSkip).toBeGreaterThan(1000);
    l.actions.loadPreset('card-charge-idempotency');
    expect(l.app.getState().lastSkip).toBe(0);
    await l.actions.settled();
  });

  it('jump pauses, lands just after the next moment and says where', async () => {
    const l = await lab('lost-ack-retry');
    l.actions.play();
    l.actions.jump(1);
    expect(l.app.getState().playing).toBe(false);
    // lost-ack-retry's first moment: the commit of e1 at 122 ms (src/views/run/moments.test.ts).
    expect(l.cursor.getState().t).toBe(122);
    expect(l.app.getState().notice).toMatch(/^Next commit — event \d+ at 122 ms/);
    l.actions.setJumpsHideAnomalies(true);
    for (let k = 0; k < 4; k++) l.actions.jump(1); // commit, fault, commit, retry
    l.actions.jump(1);
    expect(l.app.getState().notice).toMatch(/^Next commit — /);
    l.actions.jump(-1);
    expect(l.app.getState().notice).toMatch(/^Previous retry — /);
  });

  it('a jump past the last moment stays and says which was the last one', async () => {
    const l = await lab('lost-ack-retry');
    l.actions.toEnd();
    const at = l.cursor.getState();
    l.actions.jump(1);
    expect(l.cursor.getState()).toEqual(at);
    expect(l.app.getState().notice).toMatch(
      /^No later fault, commit, checkpoint, retry or anomaly — the commit at event \d+, [\d.]+ s, is the last one$/,
    );
  });
});
