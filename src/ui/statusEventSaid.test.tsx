/**
 * What a screen reader hears of the cursor (StatusLine's EventSaid): the event it rests on after
 * steps — once, for several steps in a row — nothing of a jump beyond the status line's own
 * notice, nothing while it plays, and where it paused.
 */
import { act, cleanup, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { LabProvider } from '../store/LabContext';
import { LibraryProvider } from './library/LibraryContext';
import { LockInOnMount } from './library/testPrediction';
import { StatusLine } from './StatusLine';
import { testIds } from './testIds';
import { presetLab } from './testLab';

const rest = () => new Promise((r) => setTimeout(r, 400));

describe('the event the cursor stops on, said', () => {
  afterEach(cleanup);

  it('after steps (once), not for a jump’s notice, not while playing; where it paused', async () => {
    const lab = presetLab('lost-ack-retry/idempotence-off');
    render(
      <LabProvider lab={lab}>
        <LibraryProvider>
          <LockInOnMount />
          <StatusLine />
        </LibraryProvider>
      </LabProvider>,
    );
    await act(() => lab.actions.settled());
    const said = () => screen.getByTestId(testIds.eventSaid);
    expect(said().getAttribute('role')).toBe('status');
    expect(said().textContent).toBe('');
    // Three steps in a row: nothing yet, then the third event alone (the run's first events:
    // consumer-0 assigned at 2 ms, its fetch request at 2 ms, the broker's answer at 4 ms).
    act(() => lab.actions.step(1));
    act(() => lab.actions.step(1));
    act(() => lab.actions.step(1));
    expect(said().textContent).toBe('');
    await waitFor(() =>
      expect(said().textContent).toBe('event 3 at 4 ms: broker-1 → consumer-0: fetched records'),
    );
    // A jump: the status line's notice says it ("Next commit — event 20 at 122 ms: …").
    act(() => lab.actions.jump(1));
    expect(lab.app.getState().notice).toMatch(/^Next commit — event 20 at 122 ms: /);
    await act(rest);
    expect(said().textContent).toBe('event 3 at 4 ms: broker-1 → consumer-0: fetched records');
    // Playing: nothing said on the way; paused, where it stands.
    act(() => lab.actions.step(1));
    act(() => lab.actions.play());
    expect(lab.app.getState().playing).toBe(true);
    for (let i = 0; i < 10; i++) act(() => lab.actions.tick(200));
    const idx = lab.cursor.getState().idx;
    expect(idx).toBeGreaterThan(21);
    await act(rest);
    expect(said().textContent).toBe('event 3 at 4 ms: broker-1 → consumer-0: fetched records');
    act(() => lab.actions.pause());
    await waitFor(() =>
      expect(said().textContent).toBe(
        `Paused: ${screen.getByTestId(testIds.currentEvent).textContent}`,
      ),
    );
    expect(said().textContent).toMatch(new RegExp(`^Paused: event ${idx} at `));
  });
});
