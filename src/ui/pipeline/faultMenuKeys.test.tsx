/**
 * A component's fault menu follows the WAI-ARIA menu pattern's keys
 * (https://www.w3.org/WAI/ARIA/apg/patterns/menubar/): ↓/↑ move through the items, wrapping;
 * Home and End move to the first and the last item — and, inside the menu, are not the page's
 * shortcuts (restart, to the end of the run).
 */
import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { App } from '../App';
import { testIds } from '../testIds';
import { presetLab } from '../testLab';

// Whole runs on a loaded two-core machine: its slowest test took 3.7 s in a full CI run
// (this file 3.7 s), so each gets 20 s, ≥ 5× that, far from vitest's 5 s default.
vi.setConfig({ testTimeout: 20_000 });

beforeAll(() => {
  HTMLCanvasElement.prototype.getContext = (() =>
    null) as typeof HTMLCanvasElement.prototype.getContext;
});

describe('fault menu keys', () => {
  afterEach(cleanup);

  it('Home and End move the focus to the first and the last item, and nowhere else', async () => {
    const lab = presetLab('at-least-once');
    render(<App lab={lab} />);
    await act(() => lab.actions.settled());
    act(() => lab.actions.seek(1234));
    const idx = lab.cursor.getState().idx;
    const box = screen
      .getAllByTestId(testIds.component)
      .find((el) => el.getAttribute('data-component') === 'consumer-0')!;
    fireEvent.click(within(box).getAllByRole('button')[0]!);
    const menu = screen.getByTestId(testIds.faultMenu);
    const items = within(menu).getAllByRole('menuitem');
    expect(items.length).toBeGreaterThan(2);
    const first = items[0]!;
    const last = items[items.length - 1]!;
    // Opened: the first item has the focus.
    expect(document.activeElement).toBe(first);
    fireEvent.keyDown(document.activeElement!, { key: 'End' });
    expect(document.activeElement).toBe(last);
    fireEvent.keyDown(document.activeElement!, { key: 'Home' });
    expect(document.activeElement).toBe(first);
    fireEvent.keyDown(document.activeElement!, { key: 'ArrowDown' });
    expect(document.activeElement).toBe(items[1]);
    fireEvent.keyDown(document.activeElement!, { key: 'End' });
    expect(document.activeElement).toBe(last);
    // The page's Home / End (restart, to the end) did not run: the cursor has not moved, the
    // menu is still open.
    expect(lab.cursor.getState().idx).toBe(idx);
    expect(screen.getByTestId(testIds.faultMenu)).toBe(menu);
  });
});
