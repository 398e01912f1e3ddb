/**
 * The outcome in its time (issue 24): once the answer is told ("Show the answer", or a locked-in
 * answer), the final verdict and the "why" still wait for the end of the run on screen — never at
 * t = 0 of a replay — or for "Reveal now"; a preset opened again starts at t = 0, folded.
 */
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createRunClient, type ArtifactClient } from '../../platform/runClient';
import { findPreset } from '../../scenarios';
import { createLab, type Lab } from '../../store/labStore';
import { LabProvider } from '../../store/LabContext';
import { Counters } from '../Counters';
import { IoTools } from '../io/IoTools';
import { createNotices } from '../io/notices';
import { PageProvider } from '../io/PageContext';
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
    // "Reveal now" shows it at once (the folded verdict's own action; telling the answer is
    // "Show the answer" everywhere).
    expect(screen.getAllByTestId(testIds.outcomeRevealNow)[0]!.textContent).toBe('Reveal now');
    fireEvent.click(screen.getAllByTestId(testIds.outcomeRevealNow)[0]!);
    expect(verdict()).not.toBeNull();
    expect(hidden()).toEqual([]);
  });
});

describe('a shared or imported run plays to its verdict (jsdom)', () => {
  afterEach(cleanup);

  it('an imported scenario that asks nothing opens at t = 0 with its verdict folded until the end', async () => {
    const lab = createLab({ runner: inline });
    const artifacts: ArtifactClient = { get: vi.fn(), dispose: () => {} };
    render(
      <LabProvider lab={lab}>
        <PageProvider page={{ notices: createNotices(), artifacts, shareLink: null }}>
          <LibraryProvider>
            <IoTools />
            <Counters />
            <Explanations />
          </LibraryProvider>
        </PageProvider>
      </LabProvider>,
    );
    await act(() => lab.actions.settled());
    // The at-least-once workload under a name of its own: no preset, so no question asked.
    const mine = { ...findPreset('at-least-once')!.variant.scenario, name: 'my pipeline' };
    fireEvent.click(screen.getByTestId(testIds.importButton));
    await act(async () => {
      fireEvent.change(screen.getByTestId(testIds.importFile), {
        target: { files: [new File([JSON.stringify(mine)], 'mine.json')] },
      });
    });
    await waitFor(() => expect(lab.app.getState().scenario.name).toBe('my pipeline'), {
      timeout: 10_000,
    });
    expect(lab.app.getState().presetRef).toBeNull();
    await act(() => lab.actions.settled());
    // t = 0: nothing has happened yet, so neither has the verdict (issue 24 item 2).
    expect(lab.cursor.getState().t).toBe(0);
    expect(verdict()).toBeNull();
    expect(hidden()).toEqual(['verdict', 'why']);
    // The end: the verdict of the whole run (at-least-once: a duplicate), and it stays.
    act(() => lab.actions.toEnd());
    expect(verdict()?.dataset.observed).toBe('at-least-once');
    act(() => lab.actions.seek(0));
    expect(verdict()).not.toBeNull();
  });
});

describe('a replay keeps its place through Compare and undo (jsdom)', () => {
  afterEach(cleanup);

  // Compare and the atlas's kinds put a copy of the unchanged scenario on screen
  // (src/store/sameRun.ts): it is the same replay, its end seen or not.
  it('opening Compare on an imported run at t = 0 keeps its verdict folded; seen at the end, it stays through close, undo and redo', async () => {
    const lab = await mount();
    const mine = { ...findPreset('at-least-once')!.variant.scenario, name: 'my pipeline' };
    act(() => lab.actions.loadScenario(mine, { opened: true, replay: true }));
    await act(() => lab.actions.settled());
    expect(hidden()).toEqual(['verdict', 'why']);
    act(() => lab.actions.setCompare({ lanes: [{ guarantee: 'exactly-once' }] }));
    await act(() => lab.actions.settled());
    expect(lab.app.getState().scenario).not.toBe(mine);
    // t = 0 under Compare: nothing has happened yet, so neither has the verdict.
    expect(lab.cursor.getState().t).toBe(0);
    expect(verdict()).toBeNull();
    expect(hidden()).toEqual(['verdict', 'why']);
    // The atlas's kinds ticked: another copy, the same replay.
    act(() => lab.actions.setAtlas({ ...lab.app.getState().atlas, pairs: true }, 'Pairs too'));
    await act(() => lab.actions.settled());
    expect(verdict()).toBeNull();
    act(() => lab.actions.toEnd());
    expect(verdict()?.dataset.observed).toBe('at-least-once');
    // Seen: it stays shown with Compare closed, undone back to the run as opened, and redone.
    act(() => lab.actions.setCompare(null));
    await act(() => lab.actions.settled());
    act(() => lab.actions.seek(0));
    expect(verdict()?.dataset.observed).toBe('at-least-once');
    for (const step of ['undo', 'undo', 'undo', 'redo', 'redo', 'redo'] as const) {
      act(() => lab.actions[step]());
      await act(() => lab.actions.settled());
      expect(verdict()?.dataset.observed).toBe('at-least-once');
    }
    // The same file opened again is a new replay: folded until its end.
    act(() => lab.actions.loadScenario({ ...mine }, { opened: true, replay: true }));
    await act(() => lab.actions.settled());
    expect(verdict()).toBeNull();
    expect(hidden()).toEqual(['verdict', 'why']);
  });
});
