import { describe, expect, it } from 'vitest';
import { findPreset } from '../scenarios';
import { defaultPace } from '../views/run/pace';
import { createLab, type Lab } from './labStore';
import { inlineRunner, settledLab } from './labTesting';
import { parseScenario, simulate, traceHash } from '../engine';
import { decodeShare, encodeShare } from '../views/io/shareLink';
import { faultMarkers } from '../views/edit/faultActions';
import { neverFiredToWarn } from '../views/run/neverFired';

describe('lab store: pace and jumps', () => {
  it('a scenario opened plays at its pace; an edit keeps the speed the user chose', async () => {
    const l = await settledLab('card-charge-idempotency');
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

  it('consumer-0 › Crash now on at-least-once: the live tab and its share link play the same run at the same speed, with the same warnings', async () => {
    const live = await settledLab('at-least-once');
    const before = live.app.getState().speed;
    // The menu's "Crash now" at 0 ms (src/views/edit/faultActions.ts).
    live.actions.addFault({
      kind: 'crash',
      target: 'consumer-0',
      point: 'now',
      restartAfterMs: 1000,
      at: 0,
    } as never);
    await live.actions.settled();
    const shared = decodeShare(encodeShare(live.app.getState().scenario));
    if (!shared.ok) throw new Error('link refused');
    const opened = createLab({
      runner: inlineRunner,
      initial: shared.input,
      initialPresetRef: null,
    });
    await opened.actions.settled();
    const [a, b] = [live.app.getState(), opened.app.getState()];
    const hash = (input: unknown) => {
      const parsed = parseScenario(input);
      if (!parsed.ok) throw new Error('refused');
      return traceHash(simulate(parsed.scenario).trace);
    };
    expect(hash(a.scenario)).toBe(hash(b.scenario));
    expect(a.view!.n).toBe(b.view!.n);
    // The crash shortens the story: its pace is not the preset's (×0.013 before, by the tester).
    expect(a.speed).not.toBe(before);
    expect(a.speed).toBe(b.speed);
    expect(a.speed).toBe(defaultPace(b.view!));
    const warned = (l: Lab) => {
      const s = l.app.getState();
      const parsed = parseScenario(s.scenario);
      if (!parsed.ok) throw new Error('refused');
      return neverFiredToWarn(faultMarkers(s.view!, parsed.scenario), s.scenario).map(
        (m) => m.name,
      );
    };
    // The preset's crash of consumer-0 (2nd batch, after 3 records) never comes once consumer-0
    // has crashed at 0 ms: said in both, as the CLI says it.
    expect(warned(live)).toEqual(['fault "consumer crash"']);
    expect(warned(opened)).toEqual(warned(live));
  });

  it('the idle-jump note of one preset does not stay on the next', async () => {
    const l = await settledLab('lost-ack-retry');
    l.actions.play();
    // lost-ack-retry waits 30 s for the lost ack: playback jumps over it.
    for (let k = 0; k < 5000 && l.app.getState().lastSkip === 0; k++) l.actions.tick(100);
    expect(l.app.getState().lastSkip).toBeGreaterThan(1000);
    l.actions.loadPreset('card-charge-idempotency');
    expect(l.app.getState().lastSkip).toBe(0);
    await l.actions.settled();
  });

  it('jump pauses, lands just after the next moment and says where', async () => {
    const l = await settledLab('lost-ack-retry');
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
    const l = await settledLab('lost-ack-retry');
    l.actions.toEnd();
    const at = l.cursor.getState();
    l.actions.jump(1);
    expect(l.cursor.getState()).toEqual(at);
    expect(l.app.getState().notice).toMatch(
      /^No later fault, commit, checkpoint, retry or anomaly — the commit at event \d+, [\d.]+ s, is the last one$/,
    );
  });
});
