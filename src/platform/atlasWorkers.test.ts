/**
 * The page's atlas hands its progress on at most every 250 ms of real time, whatever its workers
 * post: each redraw of the bar takes the main thread and a paint, which the workers share two
 * cores with. Workers here are stand-ins that run the real plan and slices in this thread and
 * post one progress message per trial; the clock moves 100 ms at each of those messages only.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Scenario } from '../engine';
import { presetScenario } from '../scenarios/presetScenarios';
import { PLACEMENT_KINDS, planAtlas, runAtlasSlice, type AtlasPlan } from '../views/atlas/atlasJob';
import {
  runAtlasInWorkers,
  type AtlasProgress,
  type AtlasReply,
  type AtlasRequest,
} from './atlasWorkers';

let clock = 0;

/** A worker stand-in: plans, and runs each slice with a progress message per trial. */
class StandInWorker {
  onmessage: ((e: MessageEvent<AtlasReply>) => void) | null = null;
  onerror: ((e: ErrorEvent) => void) | null = null;
  private job: { scenario: Scenario; plan: AtlasPlan } | null = null;
  postMessage(req: AtlasRequest): void {
    queueMicrotask(() => this.answer(req));
  }
  terminate(): void {}
  private post(r: AtlasReply): void {
    this.onmessage?.({ data: r } as MessageEvent<AtlasReply>);
  }
  private answer(req: AtlasRequest): void {
    if (req.type === 'plan') {
      this.post({ type: 'plan', plan: planAtlas(req.scenario, req.depth, req.kinds) });
    } else if (req.type === 'job') {
      this.job = { scenario: req.scenario, plan: req.plan };
    } else if (req.type === 'slice') {
      const { scenario, plan } = this.job!;
      for (let done = 1; done <= req.to - req.from; done++) {
        clock += 100;
        this.post({ type: 'progress', done });
      }
      this.post({ type: 'done', results: runAtlasSlice(scenario, plan, req.from, req.to) });
    }
  }
}

afterEach(() => vi.restoreAllMocks());

describe("the page's atlas progress", () => {
  it('is handed on at most every 250 ms: 75 trials at 100 ms each give 26 redraws, not 84', async () => {
    // payment-resent-by-app/plain-insert: 75 placements, one worker, 8 chunks (trialChunks).
    const s = (await presetScenario('payment-resent-by-app/plain-insert'))!;
    clock = 0;
    vi.spyOn(performance, 'now').mockImplementation(() => clock);
    const seen: AtlasProgress[] = [];
    const job = runAtlasInWorkers(s, {
      workers: 1,
      kinds: PLACEMENT_KINDS,
      createWorker: () => new StandInWorker() as unknown as Worker,
      onProgress: (p) => seen.push(p),
    });
    const r = await job.promise;
    expect(r.ok && r.atlas.placements.length).toBe(75);
    // Every report was due before: the start, 75 progress messages and 8 chunks' ends (84). Now
    // the start (0 ms), then each third message (300, 600 … 7,500 ms): 1 + 25. A chunk's end
    // comes at its last message's time, never 250 ms after the last redraw.
    expect(seen.length).toBe(26);
    expect(seen[0]).toEqual({ done: 0, total: 75, workers: 1 });
    expect(seen.at(-1)!.done).toBe(75);
    expect(seen.map((p) => p.done)).toEqual(seen.map((_, i) => i * 3));
  });
});
