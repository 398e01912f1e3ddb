/**
 * The event trace while "Predict first" hides the outcome: only what has happened up to the
 * cursor, no entries ahead of it (the retry, the duplicate write are the answer), nor once the
 * answer is told until the run reaches its end. Once the final outcome is shown, the whole trace
 * again, the entries ahead of the cursor greyed.
 */
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { Lab } from '../../store/labStore';
import { LabProvider } from '../../store/LabContext';
import { entriesOfIdentity } from '../../views/run/at';
import { eventIdOf } from '../../views/run/runView';
import { LibraryProvider } from '../library/LibraryContext';
import { LockInOnMount } from '../library/testPrediction';
import { testIds } from '../testIds';
import { presetLab } from '../testLab';
import { StatusLine } from '../StatusLine';
import { EventTrace } from './EventTrace';
import { Explanations } from './Explanations';

async function mount(ref = 'at-least-once'): Promise<Lab> {
  const lab = presetLab(ref);
  render(
    <LabProvider lab={lab}>
      <LibraryProvider>
        <LockInOnMount />
        <StatusLine />
        <Explanations />
        <EventTrace />
      </LibraryProvider>
    </LabProvider>,
  );
  await act(() => lab.actions.settled());
  return lab;
}

const rows = () => screen.getByTestId(testIds.eventTrace).querySelectorAll('tbody tr');

describe('EventTrace and "Predict first"', () => {
  afterEach(cleanup);

  it('lists only the entries up to the cursor while the outcome is hidden', async () => {
    const lab = await mount();
    const view = lab.app.getState().view!;
    let p4 = -1;
    for (let j = 0; j < view.events.identities; j++)
      if (eventIdOf(view.events, j) === 'p-4') p4 = j;
    const all = entriesOfIdentity(view, p4, view.n);
    // p-4's first entry has happened, its retry (later in the trace) has not.
    act(() => lab.actions.select(p4));
    act(() => lab.actions.seekIndex(all[0]! + 1));
    const trace = screen.getByTestId(testIds.eventTrace);
    expect(screen.getByTestId(testIds.outcomeHidden)).toBeTruthy();
    expect(trace.textContent).toContain('the application sends p-4');
    expect(trace.textContent).not.toContain('retries the batch of p-4');
    expect(rows()).toHaveLength(1);
    expect(screen.getByTestId(testIds.eventTraceHidden)).toBeTruthy();

    // The answer told: what comes next still waits for the run's end, as the "why" does.
    fireEvent.click(screen.getByTestId(testIds.outcomeShow));
    expect(screen.getByTestId(testIds.eventTraceHidden).textContent).toContain(
      'shows when the run reaches its end',
    );
    expect(screen.getByTestId(testIds.eventTrace).textContent).not.toContain(
      'retries the batch of p-4',
    );
    expect(rows()).toHaveLength(1);

    // Revealed now: every entry again, those ahead of the cursor greyed.
    fireEvent.click(screen.getByTestId(testIds.outcomeRevealNow));
    expect(screen.queryByTestId(testIds.eventTraceHidden)).toBeNull();
    expect(screen.getByTestId(testIds.eventTrace).textContent).toContain(
      'the producer retries the batch of p-4',
    );
    expect(rows()).toHaveLength(all.length);
    expect([...rows()].filter((r) => r.classList.contains('muted'))).toHaveLength(all.length - 1);
  });
});

describe('EventTrace: the story of the selected event', () => {
  afterEach(cleanup);

  it('lists and stars what its explanation cites that carries no event: the poll timeout and the refused commit', async () => {
    const lab = await mount('poll-timeout-slow-batch/plain-insert');
    const view = lab.app.getState().view!;
    let e3 = -1;
    for (let j = 0; j < view.events.identities; j++) if (eventIdOf(view.events, j) === 'e3') e3 = j;
    act(() => lab.actions.select(e3));
    fireEvent.click(screen.getByTestId(testIds.outcomeShow));
    fireEvent.click(screen.getByTestId(testIds.outcomeRevealNow));
    const lines = [...rows()].map((r) => r.textContent ?? '');
    const leave = lines.find((l) => l.includes('POLL TIMEOUT'));
    expect(leave).toMatch(/★ consumer-0's POLL TIMEOUT/);
    expect(lines.find((l) => l.includes('offset commit refused'))).toMatch(
      /^\d+(?: min )?[\d.]+ s★ /,
    );
    // e1's own processing entries, which the group's sentence also cites, are not e3's.
    expect(lines.filter((l) => l.includes('processes e1'))).toEqual([]);
    expect(lines.filter((l) => l.includes('processes e3'))).toHaveLength(2);
  });
});

describe('EventTrace: one numbering with the status line and the clock', () => {
  afterEach(cleanup);

  it('numbers an entry as the status line does after a click on it: trace entry i is event i + 1', async () => {
    const lab = await mount();
    const view = lab.app.getState().view!;
    let p4 = -1;
    for (let j = 0; j < view.events.identities; j++)
      if (eventIdOf(view.events, j) === 'p-4') p4 = j;
    const first = entriesOfIdentity(view, p4, view.n)[0]!;
    act(() => lab.actions.select(p4));
    fireEvent.click(screen.getByTestId(testIds.outcomeShow));
    fireEvent.click(screen.getByTestId(testIds.outcomeRevealNow));
    // The first line of p-4's trace: its send, trace entry `first` (0-based in the engine).
    const row = rows()[0]!;
    expect(row.querySelector('td')!.textContent).toBe(String(first + 1));
    fireEvent.click(row.querySelector('button')!);
    // The cursor stands right after it: the clock's "event N" and the status line's agree.
    expect(lab.cursor.getState().idx).toBe(first + 1);
    expect(screen.getByTestId(testIds.currentEvent).textContent).toMatch(
      new RegExp(`^event ${first + 1} at [^:]+: the application sends p-4$`),
    );
  });
});
