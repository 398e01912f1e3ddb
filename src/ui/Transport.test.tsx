import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { LabProvider } from '../store/LabContext';
import type { Lab } from '../store/labStore';
import { App } from './App';
import { testIds } from './testIds';
import { Transport } from './Transport';
import { presetLab } from './testLab';
import { REVEAL_WAITS, REVEAL_WAITS_TITLE } from './library/revealGuard';
import { lockInPrediction } from './library/testPrediction';

// Whole runs on a loaded two-core machine: its slowest test took 2.0 s in a full CI run
// (this file 4.5 s), so each gets 15 s, ≥ 5× that, far from vitest's 5 s default.
vi.setConfig({ testTimeout: 15_000 });

beforeAll(() => {
  HTMLCanvasElement.prototype.getContext = (() =>
    null) as typeof HTMLCanvasElement.prototype.getContext;
});

async function mount(): Promise<Lab> {
  // The at-least-once preset has two faults (a lost ack, a mid-batch crash).
  const lab = presetLab('at-least-once');
  render(<App lab={lab} />);
  await act(() => lab.actions.settled());
  return lab;
}

const marker = (i: number) =>
  screen
    .getAllByTestId(testIds.faultMarker)
    .find((el) => el.getAttribute('data-fault-index') === String(i))!;

async function pressDelete(lab: Lab, el: HTMLElement) {
  act(() => el.focus());
  expect(document.activeElement).toBe(el);
  fireEvent.keyDown(el, { key: 'Delete' });
  await act(() => lab.actions.settled());
}

describe('timeline: deleting a fault marker from the keyboard keeps the focus', () => {
  afterEach(cleanup);

  it('moves to the next marker, else the previous one, else the timeline', async () => {
    const lab = await mount();
    expect(screen.getAllByTestId(testIds.faultMarker)).toHaveLength(2);
    // The first of two: the next one (now fault 1, index 0) takes the focus.
    await pressDelete(lab, marker(0));
    expect(screen.getAllByTestId(testIds.faultMarker)).toHaveLength(1);
    expect(document.activeElement).toBe(marker(0));
    // The last one: nothing left, the timeline takes it.
    await pressDelete(lab, marker(0));
    expect(screen.queryAllByTestId(testIds.faultMarker)).toHaveLength(0);
    expect(document.activeElement).toBe(screen.getByTestId(testIds.timeline));
  });

  it('the last marker of several hands the focus to the previous one', async () => {
    const lab = await mount();
    await pressDelete(lab, marker(1));
    expect(lab.app.getState().scenario.faults).toHaveLength(1);
    expect(document.activeElement).toBe(marker(0));
  });
});

describe('timeline: a scripted fault that never fired is said in words', () => {
  afterEach(cleanup);

  it('names it beside the timeline key; nothing is said while every fault fires', async () => {
    const lab = await mount();
    expect(screen.queryByTestId(testIds.faultsNeverFired)).toBeNull();
    // A crash of the consumer at its commit point, armed after the run's last commit: its
    // moment never comes.
    act(() =>
      lab.actions.addFault({
        kind: 'crash',
        target: 'consumer-0',
        point: 'before-commit',
        at: 600_000,
        id: 'late crash',
      }),
    );
    await act(() => lab.actions.settled());
    // Its name, the id as everywhere (the whole label ran past the row's end); the label is in
    // the title.
    const notice = screen.getByTestId(testIds.faultsNeverFired);
    expect(notice.textContent).toBe('⚠ never fired: fault "late crash"');
    expect(notice.title).toMatch(
      /^fault "late crash", a crash of consumer-0 before its offset commit: armed from /,
    );
  });
});

describe('timeline: while the scenario is refused', () => {
  afterEach(cleanup);

  it("shows the last valid run's faults, read-only (they vanished before)", async () => {
    const lab = await mount();
    act(() => lab.actions.setKnob('producer.acks', 7));
    await act(() => lab.actions.settled());
    expect(lab.app.getState().status).toBe('invalid');
    expect(screen.getAllByTestId(testIds.faultMarker)).toHaveLength(2);
    // Read-only: Delete does nothing to the (refused) scenario's faults.
    await pressDelete(lab, marker(0));
    expect(lab.app.getState().scenario.faults).toHaveLength(2);
    expect(marker(0).getAttribute('aria-label')).not.toContain('Delete removes it');
  });
});

describe('timeline: a fault marker is named as the status line and the CLI name it', () => {
  afterEach(cleanup);

  it('by its id, with what it does once; its details too', async () => {
    await mount();
    // at-least-once: "lost ack" drops p-4's acknowledgement, which comes back at 161 ms
    // (faultActions.test.ts); the marker is armed from 0.
    expect(marker(0).getAttribute('title')).toBe(
      'Fault "lost ack": a lost acknowledgement — the message carrying p-4 — armed from 0 ms, fired at 161 ms',
    );
    expect(marker(0).getAttribute('aria-label')).toMatch(
      /^Fault "lost ack": a lost acknowledgement — the message carrying p-4 — armed from 0 ms, fired at 161 ms\. Arrows move/,
    );
    act(() => marker(0).click());
    const details = screen.getByTestId(testIds.faultDetails);
    expect(details.getAttribute('aria-label')).toBe('Fault "lost ack"');
    expect(details.textContent).toMatch(/^Fault "lost ack": a lost acknowledgement — the message/);
  });
});

describe('Play and End while "Predict first" waits for its answer', () => {
  afterEach(cleanup);

  it('say why they wait (aria-disabled, a title), refuse in the status line, and play once answered', async () => {
    const lab = await mount();
    const play = screen.getByTestId(testIds.play);
    const toEnd = screen.getByTestId(testIds.toEnd);
    // The default preset opens with its question unanswered.
    expect(play.getAttribute('aria-disabled')).toBe('true');
    expect(play.title).toBe(`${REVEAL_WAITS_TITLE} (Space)`);
    expect(toEnd.getAttribute('aria-disabled')).toBe('true');
    // Still a button that answers a press: the status line says why, nothing plays.
    fireEvent.click(play);
    expect(lab.app.getState().playing).toBe(false);
    expect(screen.getByTestId(testIds.runStatus).textContent).toContain(REVEAL_WAITS);
    fireEvent.click(toEnd);
    expect(lab.cursor.getState().idx).toBe(0);
    // A prediction locked in: the outcome stays hidden, but Play plays, and the refusal is gone.
    lockInPrediction('24');
    expect(play.getAttribute('aria-disabled')).toBeNull();
    expect(play.title).toBe('Play / pause (Space)');
    expect(screen.getByTestId(testIds.runStatus).textContent).not.toContain(REVEAL_WAITS);
    fireEvent.click(play);
    expect(lab.app.getState().playing).toBe(true);
    act(() => lab.actions.pause());
  });
});

describe('transport: the speed word', () => {
  afterEach(cleanup);

  it('names the slider in view, or for screen readers only where the row is short of room', async () => {
    const lab = presetLab('at-least-once');
    const word = () => screen.getByTestId(testIds.speed).closest('label')!.querySelector('span')!;
    const { rerender } = render(
      <LabProvider lab={lab}>
        <Transport />
      </LabProvider>,
    );
    await act(() => lab.actions.settled());
    expect([word().textContent, word().className]).toEqual(['Speed', '']);
    // The lesson view with a room live (src/ui/lesson/LessonApp.tsx).
    rerender(
      <LabProvider lab={lab}>
        <Transport speedWordHidden />
      </LabProvider>,
    );
    expect([word().textContent, word().className]).toEqual(['Speed', 'visually-hidden']);
    // And what the speed means with it: the clock kept on the playback's row beside the room.
    expect(screen.getByTestId(testIds.speedShown).className).toBe('visually-hidden');
  });

  it('says in view what the speed means, not only in a tooltip; the slider keeps its words', async () => {
    const lab = presetLab('at-least-once');
    render(
      <LabProvider lab={lab}>
        <Transport />
      </LabProvider>,
    );
    await act(() => lab.actions.settled());
    // at-least-once's pace, ×0.013: one second of the run in 77 s (e2e/labels.spec.ts).
    expect(screen.getByTestId(testIds.speedShown).textContent).toBe('1 s in 1.3 min');
    const slider = screen.getByTestId(testIds.speed);
    expect(slider.getAttribute('aria-valuetext')).toBe(
      '×0.013: one second of the run plays in 1.3 min',
    );
    expect(screen.getByRole('slider', { name: /^Speed/ })).toBe(slider);
  });
});
