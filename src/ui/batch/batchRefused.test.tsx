/**
 * A batch job's page never strands its reader: "Clear and re-run 1 h after it ended" is offered
 * only where the clear fits the lab's clock (LIMITS.timeMs, 7 days: docs/format.md), and an edit
 * the validator refuses leaves the last valid run on screen, as the refusal note says
 * ("the panels show the last valid run").
 */
import { act, cleanup, fireEvent, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ScenarioInput } from '../../engine';
import { renderBatchRun } from './batchTesting';

vi.setConfig({ testTimeout: 10_000 });

// Seven daily dates: the run of 2024-03-16 starts at 7 d (604,800,000 ms, the clock's limit) and
// ends 61 s later, so a clear an hour after it would fall past the 7 days the lab's clock holds.
const week: ScenarioInput = {
  version: 1,
  name: 'a week of loads',
  batch: {
    periods: 7,
    write: { mode: 'overwrite-partition' },
    source: [
      { id: 'a', date: '2024-03-10' },
      { id: 'g', date: '2024-03-16' },
    ],
  },
} as ScenarioInput;

async function mount() {
  const lab = renderBatchRun();
  act(() => lab.actions.loadScenario(week));
  await act(() => lab.actions.settled());
  return lab;
}

describe('a batch job’s edits on the page', () => {
  afterEach(cleanup);

  it('the last date of a 7-day job: "Clear and re-run" is disabled, saying why; the first is offered', async () => {
    await mount();
    const attempts = await screen.findAllByTestId('batch-attempt');
    expect(attempts).toHaveLength(7);
    fireEvent.click(attempts[6]!.querySelector('button')!);
    const clear = screen.getByRole('menuitem', { name: /Clear and re-run/ });
    expect(clear.getAttribute('aria-disabled')).toBe('true');
    expect(clear.getAttribute('title')).toBe(
      'an hour after this attempt is past the 7 days the lab’s clock runs (604,800,000 ms)',
    );
    fireEvent.click(attempts[0]!.querySelector('button')!);
    expect(
      screen.getByRole('menuitem', { name: /Clear and re-run/ }).getAttribute('aria-disabled'),
    ).toBeNull();
  });

  it('a refused edit keeps the last valid run on screen', async () => {
    const lab = await mount();
    expect(await screen.findAllByTestId('batch-attempt')).toHaveLength(7);
    act(() =>
      lab.actions.loadScenario({
        ...week,
        batch: { ...week.batch!, clears: [{ logicalDate: 6, atMs: 608_461_000 }] },
      }),
    );
    await act(() => lab.actions.settled());
    expect(lab.app.getState().status).not.toBe('ready');
    expect(screen.getAllByTestId('batch-attempt')).toHaveLength(7);
  });
});
