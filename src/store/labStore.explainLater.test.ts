/**
 * A lab made with `explainLater` (the embed, issue 31) runs without the verdict's explanations
 * until a "why" is shown or a jump needs them: then it runs again, explained — the same trace,
 * the same explanations and the same jumps as a lab that explained from the start.
 */
import { describe, expect, it } from 'vitest';
import type { RunClient } from '../platform/runClient';
import { findPreset } from '../scenarios';
import { scenarioKey } from '../views/run/compute';
import { explain } from '../views/run/explainer';
import { traceHashOfView } from '../views/run/hash';
import { moments } from '../views/run/moments';
import { computeRunViewLazily } from '../views/run/runScenario';
import { createLab } from './labStore';

/** An inline run client that honours `explain` as the page's does; counts its runs. */
function runner(): RunClient & { runs: boolean[] } {
  const runs: boolean[] = [];
  return {
    runs,
    run(input, _progress, { explain: explained = true } = {}) {
      runs.push(explained);
      const key = scenarioKey(input);
      return {
        promise: computeRunViewLazily(input, () => {}, undefined, explained ? explain : null).then(
          (r) => ({ ...r, key }),
        ),
        cancel() {},
      };
    },
    dispose() {},
  };
}

const REF = 'lost-ack-retry/acks-1';
const lab = (explainLater: boolean, client = runner()) =>
  createLab({
    runner: client,
    initialPresetRef: REF,
    initial: structuredClone(findPreset(REF)!.variant.scenario),
    explainLater,
  });
const settle = async (l: ReturnType<typeof lab>) => {
  await l.actions.settled();
  await new Promise((r) => setTimeout(r, 0));
};

describe('lab store: explain later', () => {
  it('runs unexplained, then explained on explainRuns: the same trace and explanations', async () => {
    const client = runner();
    const later = lab(true, client);
    const now = lab(false);
    await settle(later);
    await settle(now);
    const bare = later.app.getState().view!;
    expect(bare.verdict.unexplained).toBe(true);
    expect(bare.verdict.explanations).toEqual([]);
    later.actions.explainRuns();
    await settle(later);
    const explained = later.app.getState().view!;
    expect(explained.verdict.unexplained).toBeUndefined();
    expect(traceHashOfView(explained)).toBe(traceHashOfView(bare));
    // acks=1's lost acknowledgement: one duplicate, explained as the page explains it.
    expect(explained.verdict.explanations).toHaveLength(1);
    expect(explained.verdict.explanations).toEqual(now.app.getState().view!.verdict.explanations);
    // Once explaining, it stays so (an edit's run is explained too): two runs, then one more.
    expect(client.runs).toEqual([false, true]);
    later.actions.explainRuns();
    later.actions.setSeed(3);
    await settle(later);
    expect(client.runs).toEqual([false, true, true]);
  });

  it('a jump that may land on an anomaly explains first, and lands where an explained lab does', async () => {
    const later = lab(true);
    const now = lab(false);
    await settle(later);
    await settle(now);
    const landed: [number, number][] = [];
    for (let k = 0; k < 12; k++) {
      later.actions.jump(1);
      now.actions.jump(1);
      await settle(later);
      await settle(now);
      landed.push([later.cursor.getState().idx, now.cursor.getState().idx]);
    }
    expect(later.app.getState().view!.verdict.unexplained).toBeUndefined();
    expect(landed.map(([a]) => a)).toEqual(landed.map(([, b]) => b));
    // The duplicate's anomaly is among the moments jumped to.
    const anomaly = moments(now.app.getState().view!).find((m) => m.kind === 'anomaly')!;
    expect(landed.map(([a]) => a)).toContain(anomaly.entry + 1);
    expect(later.app.getState().notice).toBe(now.app.getState().notice);
  });

  it('with anomalies hidden (a question waits), a jump needs no explanations', async () => {
    const client = runner();
    const later = lab(true, client);
    await settle(later);
    later.actions.setJumpsHideAnomalies(true);
    later.actions.jump(1);
    await settle(later);
    expect(client.runs).toEqual([false]);
    expect(later.cursor.getState().idx).toBeGreaterThan(0);
  });
});
