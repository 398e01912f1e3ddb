import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Lab } from '../../store/labStore';
import { App } from '../App';
import { testIds } from '../testIds';
import { presetLab } from '../testLab';
import { lockInPrediction } from '../library/testPrediction';

// Whole runs on a loaded two-core machine: its slowest test took 4.5 s in a full CI run
// (this file 6.8 s), so each gets 25 s, ≥ 5× that, far from vitest's 5 s default.
vi.setConfig({ testTimeout: 25_000 });

beforeAll(() => {
  // jsdom has no canvas; the token layer copes with a null context.
  HTMLCanvasElement.prototype.getContext = (() =>
    null) as typeof HTMLCanvasElement.prototype.getContext;
});

async function mount(): Promise<Lab> {
  const lab = presetLab('at-least-once');
  render(<App lab={lab} />);
  await act(() => lab.actions.settled());
  // Play waits for a prediction (library/revealGuard.ts): one is locked in, the outcome still
  // hidden, as when a room has predicted. The default preset asks for the table's rows.
  lockInPrediction('24');
  return lab;
}

function head(component: string): HTMLButtonElement {
  const box = screen
    .getAllByTestId(testIds.component)
    .find((el) => el.getAttribute('data-component') === component)!;
  return box.querySelector<HTMLButtonElement>('.component-head')!;
}

const menus = () => screen.queryAllByTestId(testIds.faultMenu);
const playing = (lab: Lab) => lab.app.getState().playing;

describe('fault menu: once closed, Space on its button plays and pauses', () => {
  afterEach(cleanup);

  it('after Escape the focus is back on the button, and Space there toggles play (twice: on, off)', async () => {
    const lab = await mount();
    const h = head('consumer-0');
    act(() => h.click());
    expect(menus()).toHaveLength(1);
    const item = menus()[0]!.querySelector<HTMLElement>('[role="menuitem"]')!;
    expect(document.activeElement).toBe(item);
    fireEvent.keyDown(item, { key: 'Escape' });
    expect(menus()).toHaveLength(0);
    expect(document.activeElement).toBe(h);
    expect(h.dataset.space).toBe('page');
    // The page's shortcut takes Space and prevents the default (the browser's click on key up).
    const notPrevented = fireEvent.keyDown(h, { key: ' ' });
    expect(notPrevented).toBe(false);
    expect(playing(lab)).toBe(true);
    fireEvent.keyDown(h, { key: ' ' });
    expect(playing(lab)).toBe(false);
    expect(menus()).toHaveLength(0);
  });

  it('after a fault is chosen, and after a second click on the button, Space plays as well', async () => {
    const lab = await mount();
    const h = head('consumer-0');
    act(() => h.click());
    act(() => menus()[0]!.querySelector<HTMLElement>('[role="menuitem"]')!.click());
    await act(() => lab.actions.settled());
    expect(menus()).toHaveLength(0);
    expect(document.activeElement).toBe(h);
    fireEvent.keyDown(h, { key: ' ' });
    expect(playing(lab)).toBe(true);
    act(() => lab.actions.pause());

    const sink = head('sink');
    act(() => sink.click());
    act(() => sink.click());
    expect(menus()).toHaveLength(0);
    expect(document.activeElement).toBe(sink);
    fireEvent.keyDown(sink, { key: ' ' });
    expect(playing(lab)).toBe(true);
  });

  it('a button reached anew (the focus left and came back) keeps Space: it opens the menu', async () => {
    const lab = await mount();
    const h = head('consumer-0');
    act(() => h.click());
    fireEvent.keyDown(menus()[0]!.querySelector<HTMLElement>('[role="menuitem"]')!, {
      key: 'Escape',
    });
    expect(h.dataset.space).toBe('page');
    // Tab away and back: the mark goes with the focus.
    act(() => h.blur());
    expect(h.dataset.space).toBeUndefined();
    act(() => h.focus());
    const notPrevented = fireEvent.keyDown(h, { key: ' ' });
    expect(notPrevented).toBe(true);
    expect(playing(lab)).toBe(false);
    // A button that never had a menu open has no mark either.
    expect(head('sink').dataset.space).toBeUndefined();
  });
});

describe('fault menu: a fault chosen at the run’s end', () => {
  afterEach(cleanup);

  const choose = async (lab: Lab, component: string, action: string) => {
    act(() => head(component).click());
    const item = menus()[0]!.querySelector<HTMLElement>(`[data-action="${action}"]`)!;
    act(() => item.click());
    await act(() => lab.actions.settled());
  };

  it('says that a fault waiting for a moment is armed where nothing is left to happen', async () => {
    // A newcomer played the run to its end, chose "Crash mid-batch" and saw nothing change: it
    // was armed from the end, where no batch is left, and the line said only "Fault: …".
    const lab = await mount();
    act(() => lab.actions.seek(1e9));
    const end = lab.app.getState().view!.endTime;
    await choose(lab, 'consumer-0', 'crash-mid-batch');
    expect(lab.app.getState().notice).toBe(
      `Fault: Crash mid-batch — armed from ${(end / 1000).toFixed(3)} s, the run’s end: it never fires there. Drag its marker earlier, or add it from the start (Home)`,
    );
    // At the start, the same choice is only named.
    act(() => lab.actions.undo());
    await act(() => lab.actions.settled());
    act(() => lab.actions.seek(0));
    await choose(lab, 'consumer-0', 'crash-mid-batch');
    expect(lab.app.getState().notice).toBe('Fault: Crash mid-batch');
  });
});
