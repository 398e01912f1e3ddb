/**
 * The atlas's progress says the time left ("~3 s left") from the runs done per second of late,
 * a second after the first run is reported (src/views/atlas/timeLeft.ts), for a stream's atlas
 * and a batch job's; Cancel still stops the workers and says what it stopped. The workers are a
 * stand-in here (jsdom has none): the test drives their progress and the clock.
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

  it('says "~3 s left" from the rate since the first report, a second after it; Cancel says what it stopped', async () => {
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
    // Half a second in, the first report: the count, no estimate yet (the runs start here: the
    // time before it found the placements and started the workers).
    now += 500;
    act(() => job.onProgress!({ done: 20, total: 650, workers: 2 }));
    expect(status()).toBe(' 20 of 650 runs on 2 workers');
    expect(screen.queryByTestId(ids.timeLeft)).toBeNull();
    // Half a second after that: still none.
    now += 500;
    act(() => job.onProgress!({ done: 50, total: 650, workers: 2 }));
    expect(status()).toBe(' 50 of 650 runs on 2 workers');
    // 2.5 s after the first report, 330 done: 310 runs in 2.5 s = 124/s, 320 left → 2.6 s, ~3 s.
    now += 2_000;
    act(() => job.onProgress!({ done: 330, total: 650, workers: 2 }));
    expect(status()).toBe(' 330 of 650 runs on 2 workers, ~3 s left');
    expect(screen.getByTestId(ids.timeLeft).textContent).toBe(', ~3 s left');
    expect(said()).toBe('Exploring faults…');
    // 10 s after the start: 600 done; the rate of the last 3 s, from the latest report 3 s old
    // (330 at 3 s): 270 in 7 s = 38.6/s, 50 left → 1.3 s, said as ~2 s.
    now += 7_000;
    act(() => job.onProgress!({ done: 600, total: 650, workers: 2 }));
    expect(said()).toBe('600 of 650 runs on 2 workers, ~2 s left');
    // 9.999 s later: not said again.
    now += 9_999;
    act(() => job.onProgress!({ done: 620, total: 650, workers: 2 }));
    expect(said()).toBe('600 of 650 runs on 2 workers, ~2 s left');
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
    // 1.6 s after the first report (2 at 0.4 s), 8 done: 3.75 faults/s, 15 left → 4 s.
    now += 1_600;
    act(() => job.onProgress!({ done: 8, total: 23, workers: 1 }));
    expect(status()).toBe(' 8 of 23 faults run, ~4 s left Cancel');
    expect(said()).toBe('Exploring faults…');
    // 10 s after the start, 20 done: from the latest report 3 s old (8 at 2 s), 1.5 faults/s,
    // 3 left → 2 s.
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
