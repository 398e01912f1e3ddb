/**
 * The outcome in its time (issue 24): once the answer is told ("Show the answer", or a locked-in
 * answer), the final verdict and the "why" still wait for the end of the run on screen — never at
 * t = 0 of a replay — or for "Reveal now"; a preset opened again starts at t = 0, folded.
 */
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { createRunClient } from '../../platform/runClient';
import { createLab, type Lab } from '../../store/labStore';
import { LabProvider } from '../../store/LabContext';
import { Counters } from '../Counters';
import { Explanations } from '../panels/Explanations';
import { testIds } from '../testIds';
import { LibraryProvider } from './LibraryContext';

const inline = createRunClient({ createWorker: null });

async function mount(): Promise<Lab> {
  const lab = createLab({ runner: inline });
  render(
    <LabProvider lab={lab}>
      <LibraryProvider>
        <Counters />
        <Explanations />
      </LibraryProvider>
    </LabProvider>,
  );
  await act(() => lab.actions.settled());
  return lab;
}

const verdict = () => screen.queryByTestId(testIds.verdict);
const hidden = () => screen.queryAllByTestId(testIds.outcomeHidden).map((x) => x.dataset.what);

describe('the outcome in its time (jsdom)', () => {
  afterEach(cleanup);

  it('after "Show the answer" the verdict waits for the end; opened again, it starts folded', async () => {
    const lab = await mount();
    act(() => lab.actions.loadPreset('lost-ack-retry'));
    await act(() => lab.actions.settled());
    expect(hidden()).toEqual(['verdict', 'why']);
    // The link tells the answer only (the verdict waits for the end, issue 24): it says so.
    expect(screen.getAllByTestId(testIds.outcomeShow)[0]!.textContent).toBe('Show the answer');
    fireEvent.click(screen.getAllByTestId(testIds.outcomeShow)[0]!);
    // Told, at t = 0: the run has not happened yet, so neither has its verdict.
    expect(lab.cursor.getState().t).toBe(0);
    expect(verdict()).toBeNull();
    expect(hidden()).toEqual(['verdict', 'why']);
    act(() => lab.actions.seek(2000));
    expect(verdict()).toBeNull();
    // The end: the verdict shows, and stays while the user scrubs back in this visit.
    act(() => lab.actions.toEnd());
    expect(verdict()?.dataset.observed).toBe('at-least-once');
    act(() => lab.actions.seek(0));
    expect(verdict()).not.toBeNull();
    // Another preset, then back: the answer stays told, the replay starts at t = 0, folded.
    act(() => lab.actions.loadPreset('card-charge-idempotency'));
    await act(() => lab.actions.settled());
    act(() => lab.actions.loadPreset('lost-ack-retry'));
    await act(() => lab.actions.settled());
    expect(lab.cursor.getState().t).toBe(0);
    expect(verdict()).toBeNull();
    expect(screen.queryByTestId(testIds.outcomeShow)).toBeNull();
    // "Reveal now" shows it at once.
    fireEvent.click(screen.getAllByTestId(testIds.outcomeRevealNow)[0]!);
    expect(verdict()).not.toBeNull();
    expect(hidden()).toEqual([]);
  });
});
