/**
 * "Predict first" and the fault atlas (issue #23): which placements break the claim is the
 * prediction's answer, so while the question waits the atlas's results fold behind the page's
 * one note ("Hidden until you answer…", src/ui/library/HiddenOutcome.tsx) — the summary, the
 * counterexample and the heat map — and "Show the answer" unfolds them, as Compare's lanes do.
 * The workers are replaced by the engine's own `explore`, inline (the page's workers assemble
 * the same atlas: src/views/atlas/atlasJob.test.ts).
 */
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type * as Engine from '../../engine';
import type { Scenario } from '../../engine';
import { testIds } from '../testIds';
import { BatchAtlas } from '../batch/BatchAtlas';
import { BatchCompare } from '../batch/BatchCompare';
import { AtlasPanel } from './AtlasPanel';
import { atlasTestIds as ids } from './atlasTestIds';
import { renderInLab } from './atlasTesting';

// The engine as the workers run it (a test's stand-in for them; ui/ itself never runs it).
vi.mock('../../platform/atlasWorkers', async () => {
  const { batchAtlas, explore } = await vi.importActual<typeof Engine>('../../engine');
  return {
    warmAtlasWorkers: () => {},
    restAtlasWorkers: () => {},
    runAtlasInWorkers: (s: Scenario, o: { depth?: 1 | 2; kinds?: never[] }) => ({
      promise: Promise.resolve({
        ok: true,
        atlas: explore(s, { depth: o.depth ?? 1, ...(o.kinds ? { kinds: o.kinds } : {}) }),
        workers: 1,
      }),
      cancel: () => {},
    }),
    runBatchAtlasInWorker: (s: Scenario) => ({
      promise: Promise.resolve({ ok: true, cells: batchAtlas(s.batch!, s.claim) }),
      cancel: () => {},
    }),
  };
});

/**
 * The live region `testId` says `text`. It is set by an effect after the render that shows what
 * the atlas found, so a check right after that render can run between the two (it did once, in a
 * clean-clone run at load ~10).
 */
const says = (testId: string, text: string) =>
  waitFor(() => expect(screen.getByTestId(testId).textContent).toBe(text));

// A few dozen inline runs of a small preset (well under 2 s alone); wide for a shared machine.
vi.setConfig({ testTimeout: 30_000 });

describe('the fault atlas behind an unanswered prediction', () => {
  afterEach(cleanup);

  it('folds its results behind "Hidden until you answer…" until "Show the answer"', async () => {
    await renderInLab(
      'lost-ack-retry',
      (lab) => {
        // Crashes only: a few placements, enough to have a summary and a heat map.
        lab.app.setState({ atlas: { kinds: ['crash'] } });
        return <AtlasPanel />;
      },
      { library: true },
    );
    fireEvent.click(screen.getByTestId(ids.explore));
    const note = await screen.findByTestId(testIds.outcomeHidden);
    expect(note.dataset.what).toBe('atlas');
    expect(note.textContent).toContain(
      'Hidden until you answer the prediction and play the run to its end.',
    );
    expect(screen.queryByTestId(ids.summary)).toBeNull();
    expect(screen.queryByTestId(ids.counterexample)).toBeNull();
    expect(screen.queryAllByTestId(ids.cell)).toHaveLength(0);
    // Its live region says it ended, not what it found.
    await says(ids.said, 'Fault atlas done: what it found waits for your answer.');
    // One click for whoever does not predict: the atlas shows, no need to explore again.
    fireEvent.click(screen.getByTestId(testIds.outcomeShow));
    expect(screen.queryByTestId(testIds.outcomeHidden)).toBeNull();
    expect(screen.getByTestId(ids.summary).textContent).toMatch(/placements/);
  });
});

describe("a batch job's Compare behind an unanswered prediction", () => {
  afterEach(cleanup);

  it('shows the lanes it runs, not their verdicts nor the diff, until "Show the answer"', async () => {
    await renderInLab(
      'airflow-retry-append',
      (lab) => {
        lab.actions.setCompare({ lanes: [{ guarantee: 'exactly-once' }] });
        return <BatchCompare />;
      },
      { library: true },
    );
    expect(screen.getAllByTestId('batch-lane')).toHaveLength(2);
    expect(screen.queryAllByTestId('batch-lane-summary')).toHaveLength(0);
    expect(screen.queryAllByTestId('batch-diff-row')).toHaveLength(0);
    expect(screen.queryByTestId('batch-compare-summary')).toBeNull();
    expect(screen.getByTestId(testIds.outcomeHidden).dataset.what).toBe('compare');
    fireEvent.click(screen.getByTestId(testIds.outcomeShow));
    expect(screen.getAllByTestId('batch-lane-summary')).toHaveLength(2);
    // airflow-retry-append's source table: 10 events (src/scenarios/library/batch.ts).
    expect(screen.getAllByTestId('batch-diff-row')).toHaveLength(10);
  });
});

describe("a batch job's fault atlas behind an unanswered prediction", () => {
  afterEach(cleanup);

  it('folds its summary, counterexample and heat map until "Show the answer"', async () => {
    await renderInLab(
      'airflow-retry-append',
      (lab) => <BatchAtlas scenario={lab.app.getState().scenario} />,
      { library: true },
    );
    fireEvent.click(screen.getByRole('button', { name: /^Fault atlas/ }));
    expect((await screen.findByTestId(testIds.outcomeHidden)).dataset.what).toBe('batch-atlas');
    expect(screen.queryByTestId('batch-atlas-summary')).toBeNull();
    expect(screen.queryByTestId('batch-atlas-grid')).toBeNull();
    await says('batch-atlas-said', 'Fault atlas done: what it found waits for your answer.');
    fireEvent.click(screen.getByTestId(testIds.outcomeShow));
    expect(screen.getByTestId('batch-atlas-summary').textContent).not.toBe('');
    expect(screen.getByTestId('batch-atlas-grid')).toBeTruthy();
  });
});

describe('the fault atlas says when it is done, and what it found', () => {
  afterEach(cleanup);

  it('a stream atlas: its summary, once it ends (no question waiting)', async () => {
    await renderInLab('lost-ack-retry', (lab) => {
      lab.app.setState({ atlas: { kinds: ['crash'] } });
      return <AtlasPanel />;
    });
    fireEvent.click(screen.getByTestId(ids.explore));
    const summary = await screen.findByTestId(ids.summary);
    expect(summary.textContent).toMatch(/placements/);
    await says(ids.said, `Fault atlas done: ${summary.textContent}`);
    // A cell's placements: each Compare named by its placement, as its Open is; the list is no
    // live region (the cell's own name says its count as the arrows reach it).
    const cell = screen.getAllByTestId(ids.cell).find((c) => Number(c.dataset.trials) > 1)!;
    fireEvent.click(cell);
    const opens = screen.getAllByTestId(ids.openTrial);
    const compares = screen.getAllByTestId(ids.compareTrial);
    expect(opens).toHaveLength(Number(cell.dataset.trials));
    expect(compares.map((b) => b.getAttribute('aria-label'))).toEqual(
      opens.map((b) => `Compare: ${b.textContent!.replace(/^Open: /, '')}`),
    );
    expect(screen.getByTestId(ids.cellTrials).closest('[aria-live]')).toBeNull();
  });

  it("a batch job's atlas: its summary, once it ends", async () => {
    await renderInLab('airflow-retry-append', (lab) => (
      <BatchAtlas scenario={lab.app.getState().scenario} />
    ));
    fireEvent.click(screen.getByRole('button', { name: /^Fault atlas/ }));
    const summary = await screen.findByTestId('batch-atlas-summary');
    expect(summary.textContent).not.toBe('');
    await says('batch-atlas-said', `Fault atlas done: ${summary.textContent}`);
  });
});
