/**
 * "Predict first" on a batch preset (issue 24, "the outcome in its time"): the batch view uses the
 * streaming page's gate — the table and the "why" wait for the answer and for the schedule's end;
 * the schedule played to its end is the run's end (a locked-in answer revealed).
 */
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createRunClient } from '../../platform/runClient';
import { createLab, type Lab } from '../../store/labStore';
import { LabProvider } from '../../store/LabContext';
import { LibraryProvider } from '../library/LibraryContext';
import { StoryPanel } from '../library/StoryPanel';
import { REVEAL_WAITS, REVEAL_WAITS_TITLE } from '../library/revealGuard';
import { testIds } from '../testIds';
import { BatchRun } from './BatchRun';

// Small batch jobs run inline; 10 s per test on a loaded machine (each takes well under 1 s).
vi.setConfig({ testTimeout: 10_000 });

const inline = createRunClient({ createWorker: null });

async function mount(): Promise<Lab> {
  const lab = createLab({ runner: inline });
  render(
    <LabProvider lab={lab}>
      <LibraryProvider>
        <StoryPanel />
        <BatchRun />
      </LibraryProvider>
    </LabProvider>,
  );
  await act(() => lab.actions.settled());
  act(() => lab.actions.loadPreset('airflow-retry-append'));
  await act(() => lab.actions.settled());
  return lab;
}

const summary = () => screen.queryByTestId('batch-summary');
const answer = () => screen.queryByTestId(testIds.predictAnswer);

describe('a batch preset behind its question (jsdom)', () => {
  afterEach(() => {
    cleanup();
    vi.useRealTimers();
  });

  it('unanswered, "Play the schedule" and "Show the end" are refused with the reason (the page\'s one rule); locked in, they move on', async () => {
    vi.useFakeTimers();
    const lab = await mount();
    const play = screen.getByRole('button', { name: 'Play the schedule' });
    const end = screen.getByRole('button', { name: 'Show the end' });
    // Said beforehand, as the stream's Play and End do: aria-disabled (still focusable), a title.
    for (const b of [play, end]) {
      expect(b.getAttribute('aria-disabled')).toBe('true');
      expect(b.title).toBe(REVEAL_WAITS_TITLE);
    }
    fireEvent.click(play);
    act(() => vi.advanceTimersByTime(1_000));
    // Nothing of the schedule shown, and the status line says why (src/store/playback.ts).
    expect(screen.queryAllByTestId('batch-attempt')).toHaveLength(0);
    expect(lab.app.getState().notice).toBe(REVEAL_WAITS);
    fireEvent.click(end);
    expect(screen.queryAllByTestId('batch-attempt')).toHaveLength(0);
    expect(summary()).toBeNull();
    // Locked in: the refusal leaves the status line and the buttons, and the end shows.
    fireEvent.change(screen.getByTestId(testIds.predictInput), { target: { value: '20 rows' } });
    fireEvent.click(screen.getByTestId(testIds.predictLock));
    expect(lab.app.getState().notice).toBeNull();
    expect(end.getAttribute('aria-disabled')).toBeNull();
    fireEvent.click(end);
    // Try 1 and try 2 of 2024-03-10 (retries=1, src/scenarios/library/batch.ts S21): both shown.
    expect(screen.getAllByTestId('batch-attempt')).toHaveLength(2);
    // The schedule's end with the answer locked in: told (right), and the table unfolds.
    expect(answer()?.dataset.judged).toBe('right');
    // append: 10 rows by try 1, the same 10 again by try 2 → 20 rows, 10 duplicates.
    expect(summary()?.textContent).toContain('20 rows · 10 duplicates · 0 lost');
  });

  it('answered, "Play the schedule" reveals the answer and the table when the playback ends', async () => {
    vi.useFakeTimers();
    await mount();
    fireEvent.change(screen.getByTestId(testIds.predictInput), { target: { value: '10' } });
    fireEvent.click(screen.getByTestId(testIds.predictLock));
    expect(answer()).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Play the schedule' }));
    // One attempt revealed per 300 ms (BatchRun's REVEAL_MS): after the first, the end not yet.
    act(() => vi.advanceTimersByTime(300));
    expect(screen.getAllByTestId('batch-attempt')).toHaveLength(1);
    expect(summary()).toBeNull();
    expect(answer()).toBeNull();
    act(() => vi.advanceTimersByTime(300));
    // Both attempts: the schedule's end, so the locked-in answer is told (10 is wrong: 20).
    expect(screen.getAllByTestId('batch-attempt')).toHaveLength(2);
    expect(answer()?.dataset.judged).toBe('wrong');
    expect(summary()?.textContent).toContain('20 rows · 10 duplicates · 0 lost');
  });
});
