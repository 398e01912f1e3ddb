/**
 * The embedded player on a batch preset with `predict=1` (`?embed&preset=airflow-retry-append&predict=1`):
 * the question box of the stream player, and its gate — the table, the summary and the "why"
 * wait until the answer is locked in and the schedule has played to its end; locking in plays the
 * schedule, and autoplay waits for it.
 */
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createArtifactClient } from '../../platform/runClient';
import { createNotices } from '../io/notices';
import { testIds } from '../testIds';
import { presetLab } from '../testLab';
import { EmbedApp } from '../embed/EmbedApp';
import { DEFAULT_EMBED, type EmbedOptions } from '../embed/embedOptions';

// Small batch jobs run inline; 30 s per test on a loaded machine (the first waits for the lazy batch chunk: 10 s seen under load).
vi.setConfig({ testTimeout: 30_000 });

async function mount(options: Partial<EmbedOptions>) {
  const lab = presetLab('airflow-retry-append');
  render(
    <EmbedApp
      lab={lab}
      page={{ notices: createNotices(), artifacts: createArtifactClient(), shareLink: null }}
      options={{ ...DEFAULT_EMBED, panels: [...DEFAULT_EMBED.panels, 'why'], ...options }}
      presetRef="airflow-retry-append/append"
    />,
  );
  await act(() => lab.actions.settled());
  // The batch player is a lazy chunk: its first import takes seconds on a loaded machine.
  await screen.findByTestId('batch-run', {}, { timeout: 10_000 });
}

const summary = () => screen.queryByTestId('batch-summary');
const attempts = () => screen.queryAllByTestId('batch-attempt');
const answer = () => screen.queryByTestId(testIds.embedAnswer);

describe('a batch embed with predict=1 (jsdom)', () => {
  afterEach(() => {
    cleanup();
    vi.useRealTimers();
  });

  it('asks the preset’s question; locking the answer in plays the schedule, and the outcome waits for its end', async () => {
    await mount({ predict: true, autoplay: true });
    vi.useFakeTimers();
    expect(screen.getByTestId(testIds.embedPredict).textContent).toContain(
      'How many rows does partition 2024-03-10 hold after the retry?',
    );
    // Autoplay waits for the answer: nothing of the schedule shown yet.
    act(() => vi.advanceTimersByTime(1_000));
    expect(attempts()).toHaveLength(0);
    fireEvent.change(screen.getByTestId(testIds.predictInput), { target: { value: '20 rows' } });
    fireEvent.click(screen.getByTestId(testIds.predictLock));
    // One attempt per 300 ms (BatchRun's REVEAL_MS): try 1, then try 2 (retries=1, S21).
    act(() => vi.advanceTimersByTime(300));
    expect(attempts()).toHaveLength(1);
    expect(summary()).toBeNull();
    expect(answer()).toBeNull();
    act(() => vi.advanceTimersByTime(300));
    expect(attempts()).toHaveLength(2);
    // The append ran twice over e1..e10: 20 rows, 10 duplicates — the answer is right.
    expect(answer()?.dataset.judged).toBe('right');
    expect(answer()?.textContent).toContain('20 rows · 10 duplicates · 0 lost');
    expect(summary()?.textContent).toContain('20 rows · 10 duplicates · 0 lost');
    expect(screen.getAllByTestId('batch-explanation').length).toBeGreaterThan(0);
  });

  it('"Show the end" without an answer is refused, as on the page: nothing of the schedule, no table', async () => {
    await mount({ predict: true });
    fireEvent.click(screen.getByRole('button', { name: 'Show the end' }));
    expect(attempts()).toHaveLength(0);
    expect(summary()).toBeNull();
    expect(screen.queryAllByTestId('batch-explanation')).toHaveLength(0);
  });

  it('without predict=1 no box is shown, and autoplay plays the schedule at once', async () => {
    await mount({ autoplay: true });
    expect(screen.queryByTestId(testIds.embedPredict)).toBeNull();
    expect(await screen.findAllByTestId('batch-attempt')).not.toHaveLength(0);
  });
});
