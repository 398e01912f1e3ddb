/**
 * The ledger's latency column: live at the cursor like "fate now" — a dash until the event's first
 * effect at the end of the pipeline is applied, then its end-to-end latency — so "Predict first",
 * which hides the final fates, has nothing more to hide.
 */
import { act, cleanup, render, screen } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Lab } from '../../store/labStore';
import { LabProvider } from '../../store/LabContext';
import { formatMs } from '../../views/run/format';
import { LibraryProvider } from '../library/LibraryContext';
import { LockInOnMount } from '../library/testPrediction';
import { testIds } from '../testIds';
import { presetLab } from '../testLab';
import { Ledger } from './Ledger';

// Whole runs on a loaded two-core machine: its slowest test took 2.1 s in a full CI run
// (this file 2.1 s), so each gets 15 s, ≥ 5× that, far from vitest's 5 s default.
vi.setConfig({ testTimeout: 15_000 });

// jsdom lays nothing out: give every box a size, so the virtual list renders its first rows.
beforeAll(() => {
  Object.defineProperty(HTMLElement.prototype, 'clientHeight', { configurable: true, value: 400 });
  Object.defineProperty(HTMLElement.prototype, 'clientWidth', { configurable: true, value: 800 });
});
afterAll(() => {
  // Back to jsdom's own getters (on Element.prototype).
  delete (HTMLElement.prototype as { clientHeight?: number }).clientHeight;
  delete (HTMLElement.prototype as { clientWidth?: number }).clientWidth;
});

async function mount(): Promise<Lab> {
  const lab = presetLab('at-least-once');
  render(
    <LabProvider lab={lab}>
      <LibraryProvider>
        <LockInOnMount />
        <Ledger />
      </LibraryProvider>
    </LabProvider>,
  );
  await act(() => lab.actions.settled());
  return lab;
}

/** The cells of the ledger row of business id `id`. */
const cells = (id: string) =>
  [
    ...screen
      .getAllByTestId(testIds.ledgerRow)
      .find((r) => r.getAttribute('data-event') === id)!
      .querySelectorAll('[role="cell"]'),
  ].map((c) => c.textContent);

describe('Ledger latency column', () => {
  afterEach(cleanup);

  it('shows a dash until the first row is applied, then the latency; the final fate stays hidden', async () => {
    const lab = await mount();
    const view = lab.app.getState().view!;
    const j = view.events.ids!.indexOf('p-1');
    const first = view.verdict.visibleAt[j]!;
    expect(screen.getAllByRole('columnheader').at(-1)!.textContent).toBe('latency');
    expect(screen.getByTestId(testIds.outcomeHidden)).toBeTruthy();

    act(() => lab.actions.seekIndex(first));
    expect(cells('p-1').at(-1)).toBe('—');

    act(() => lab.actions.seekIndex(first + 1));
    const shown = cells('p-1');
    expect(shown.at(-1)).toBe(formatMs(view.verdict.latencyOf[j]!));
    expect(shown.at(-2)).toContain('once');
    // The final fate (the column before "fate now") is still hidden.
    expect(shown.at(-3)).toContain('hidden');
  });
});

describe('Ledger log records column', () => {
  afterEach(cleanup);

  it('names a partition once for the records that follow each other in it', async () => {
    const lab = await mount();
    const view = lab.app.getState().view!;
    // at-least-once: p-4's ack is lost, the producer retries, the broker appends it again at the
    // next offset (src/scenarios/foundation.ts); one entry before the end (the end waits for the
    // question), both records are in the log.
    act(() => lab.actions.seekIndex(view.n - 1));
    expect(cells('p-4')[2]).toBe('payments-0@3 @4');
    expect(cells('p-3')[2]).toBe('payments-0@2');
  });
});
