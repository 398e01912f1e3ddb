/**
 * The atlas's progress says the time left ("~12 s left") from the runs done per second so far,
 * once the first second is over, for a stream's atlas and a batch job's; Cancel still stops the
 * workers and says what it stopped. The
 * workers are a stand-in here (jsdom has none): the test drives their progress and the clock.
 */
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { AtlasProgress } from '../../platform/atlasWorkers';
import { LabProvider } from '../../store/LabContext';
import { presetLab } from '../testLab';
import { BatchAtlas } from '../batch/BatchAtlas';
import { AtlasPanel } from './AtlasPanel';
import { atlasTestIds as ids } from './atlasTestIds';

const job = vi.hoisted(() => ({
  onProgress: null as ((p: AtlasProgress) => void) | null,
  cancel: vi.fn(),
}));
vi.mock('../../platform/atlasWorkers', () => ({
  warmAtlasWorkers: () => {},
  restAtlasWorkers: () => {},
  runAtlasInWorkers: (_s: unknown, o: { onProgress: (p: AtlasProgress) => void }) => {
    job.onProgress = o.onProgress;
    return { promise: new Promise(() => {}), cancel: job.cancel };
  },
  // The batch atlas's worker: cancelled, its promise says so (as atlasWorkers.ts's does).
  runBatchAtlasInWorker: (_s: unknown, o: { onProgress: (p: AtlasProgress) => void }) => {
    job.onProgress = o.onProgress;
    let end: (r: unknown) => void = () => {};
    return {
      promise: new Promise((r) => (end = r)),
      cancel: () => {
        job.cancel();
        end({ ok: false, error: 'cancelled' });
      },
    };
  },
}));

// One inline run of a small preset (well under 1 s alone); wide for a shared machine.
vi.setConfig({ testTimeout: 15_000 });

describe('the fault atlas progress', () => {
  afterEach(() => {
    cleanup();
    vi.restoreAllMocks();
  });

  it('says "~12 s left" from the rate so far after the first second; Cancel says what it stopped', async () => {
    let now = 10_000;
    vi.spyOn(performance, 'now').mockImplementation(() => now);
    const lab = presetLab('at-least-once');
    await lab.actions.settled();
    render(
      <LabProvider lab={lab}>
        <AtlasPanel />
      </LabProvider>,
    );
    fireEvent.click(screen.getByTestId(ids.explore));
    const status = () => screen.getByTestId(ids.progress).parentElement!.textContent;
    // The live region says the start at once, then the progress at most every 10 s (each
    // message a screen reader reads: it queued 20 in 4 s), and what Cancel stopped at once.
    const said = () => screen.getByRole('status').textContent;
    expect(said()).toBe('Exploring faults…');
    // Half a second in: the count, no estimate yet (a worker's start-up weighs more than its runs).
    now += 500;
    act(() => job.onProgress!({ done: 20, total: 650, workers: 2 }));
    expect(status()).toBe(' 20 of 650 runs on 2 workers');
    expect(screen.queryByTestId(ids.timeLeft)).toBeNull();
    // One second in, 50 runs done: 50 runs/s, 600 left → 12 s.
    now += 500;
    act(() => job.onProgress!({ done: 50, total: 650, workers: 2 }));
    expect(status()).toBe(' 50 of 650 runs on 2 workers, ~12 s left');
    // Three seconds in, 330 done: 110 runs/s, 320 left → 2.9 s, said as ~3 s.
    now += 2_000;
    act(() => job.onProgress!({ done: 330, total: 650, workers: 2 }));
    expect(screen.getByTestId(ids.timeLeft).textContent).toBe(', ~3 s left');
    expect(said()).toBe('Exploring faults…');
    // 10 s after the start: 600 done, 60 runs/s, 50 left → 0.83 s, said as ~1 s.
    now += 7_000;
    act(() => job.onProgress!({ done: 600, total: 650, workers: 2 }));
    expect(said()).toBe('600 of 650 runs on 2 workers, ~1 s left');
    // 9.999 s later: not said again.
    now += 9_999;
    act(() => job.onProgress!({ done: 620, total: 650, workers: 2 }));
    expect(said()).toBe('600 of 650 runs on 2 workers, ~1 s left');
    fireEvent.click(screen.getByTestId(ids.cancel));
    expect(job.cancel).toHaveBeenCalledTimes(1);
    expect(screen.getByTestId(ids.cancelled).textContent).toBe(
      'Cancelled after 620 of 650 runs; nothing was changed.',
    );
    expect(said()).toBe('Cancelled after 620 of 650 runs; nothing was changed.');
    // The panel keeps its fault kinds beside the message (a tester read neither after Cancel:
    // the panel's text holds both).
    expect(screen.getByTestId(ids.kinds).textContent).toContain('Fault kinds');
    expect(screen.queryByTestId(ids.timeLeft)).toBeNull();
    // The estimate is the page's alone: nothing of it reached the lab's state (reports, links).
    expect(JSON.stringify(lab.app.getState().atlas)).toBe('{}');
  });

  it("a batch job's atlas says it too, and its Cancel says after how many faults it stopped", async () => {
    let now = 0;
    vi.spyOn(performance, 'now').mockImplementation(() => now);
    job.cancel.mockClear();
    const lab = presetLab('airflow-retry-append');
    await lab.actions.settled();
    render(
      <LabProvider lab={lab}>
        <BatchAtlas scenario={lab.app.getState().scenario} />
      </LabProvider>,
    );
    fireEvent.click(screen.getByRole('button', { name: 'Fault atlas: every single fault' }));
    const status = () => screen.getByTestId('batch-atlas-status').textContent;
    const said = () => screen.getByTestId('batch-atlas-said').textContent;
    expect(said()).toBe('Exploring faults…');
    now += 400;
    act(() => job.onProgress!({ done: 2, total: 23, workers: 1 }));
    expect(status()).toBe(' 2 of 23 faults run Cancel');
    // 2 s in, 8 done: 4 faults/s, 15 left → 3.75 s, said as ~4 s.
    now += 1_600;
    act(() => job.onProgress!({ done: 8, total: 23, workers: 1 }));
    expect(status()).toBe(' 8 of 23 faults run, ~4 s left Cancel');
    expect(said()).toBe('Exploring faults…');
    // 10 s after the start, 20 done: 2 faults/s, 3 left → 1.5 s, said as ~2 s.
    now += 8_000;
    act(() => job.onProgress!({ done: 20, total: 23, workers: 1 }));
    expect(said()).toBe('20 of 23 faults run, ~2 s left');
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(job.cancel).toHaveBeenCalledTimes(1);
    await screen.findAllByText(/^Cancelled after/);
    expect(status()).toBe(
      'Cancelled after 20 of 23 faults run; nothing was changed. Run the atlas again',
    );
    expect(said()).toBe('Cancelled after 20 of 23 faults run; nothing was changed.');
  });
});
