/**
 * The Export menu while "Predict first" hides the outcome: the trace, the sink table, the ledger
 * and the report contain the answer, so only the scenario is offered, and the menu says why.
 */
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ArtifactClient } from '../../platform/runClient';
import type { Lab } from '../../store/labStore';
import { LabProvider } from '../../store/LabContext';
import { LibraryProvider } from '../library/LibraryContext';
import { Explanations } from '../panels/Explanations';
import { testIds } from '../testIds';
import { presetLab } from '../testLab';
import { ExportMenu } from './ExportMenu';
import { createNotices } from './notices';
import { PageProvider } from './PageContext';

async function mount(ref = 'at-least-once'): Promise<Lab> {
  const lab = presetLab(ref);
  const artifacts: ArtifactClient = { get: vi.fn(), dispose: () => {} };
  render(
    <LabProvider lab={lab}>
      <PageProvider page={{ notices: createNotices(), artifacts, shareLink: null }}>
        <LibraryProvider>
          <Explanations />
          <ExportMenu />
        </LibraryProvider>
      </PageProvider>
    </LabProvider>,
  );
  await act(() => lab.actions.settled());
  return lab;
}

const formats = () =>
  screen.queryAllByTestId(testIds.exportItem).map((b) => b.getAttribute('data-format'));

describe('ExportMenu and "Predict first"', () => {
  afterEach(cleanup);

  it('offers only the scenario while the outcome is hidden, and says why', async () => {
    await mount();
    fireEvent.click(screen.getByTestId(testIds.exportButton));
    expect(formats()).toEqual(['scenario-json']);
    const note = screen.getByTestId(testIds.exportHidden);
    expect(note.textContent).toContain('contain the answer');
    expect(note.getAttribute('aria-disabled')).toBe('true');
    fireEvent.click(screen.getByTestId(testIds.exportButton));

    // The outcome shown: every export, and no note.
    fireEvent.click(screen.getByTestId(testIds.outcomeShow));
    fireEvent.click(screen.getByTestId(testIds.exportButton));
    expect(formats()).toEqual([
      'scenario-json',
      'trace-json',
      'table-csv',
      'ledger-csv',
      'markdown',
    ]);
    expect(screen.queryByTestId(testIds.exportHidden)).toBeNull();
  });
});

describe('ExportMenu: the table export', () => {
  afterEach(cleanup);

  const tableItem = () =>
    screen
      .getAllByTestId(testIds.exportItem)
      .find((b) => b.getAttribute('data-format') === 'table-csv')!;

  // The outcome shown (a variant the preset's question is not about shows it at once).
  const showOutcome = () => {
    const show = screen.queryByTestId(testIds.outcomeShow);
    if (show) fireEvent.click(show);
  };

  it("is the reader's table when the sink is a topic, and off when the run ends in a service", async () => {
    const lab = await mount('flink-checkpoint-replay/2pc-read-committed');
    showOutcome();
    fireEvent.click(screen.getByTestId(testIds.exportButton));
    expect(tableItem().textContent).toContain('Reader table: rc (read_committed)');
    expect((tableItem() as HTMLButtonElement).disabled).toBe(false);
    cleanup();
    await act(() => lab.actions.settled());

    await mount('card-charge-idempotency/stable-key');
    showOutcome();
    fireEvent.click(screen.getByTestId(testIds.exportButton));
    expect((tableItem() as HTMLButtonElement).disabled).toBe(true);
    expect(tableItem().textContent).toContain('this run has no table');
  });
});
