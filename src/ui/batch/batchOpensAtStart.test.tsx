/**
 * A batch job opened from a file or a link starts at its start with its setup, as a preset does
 * (docs/page.md#batch-jobs: "Before Play … it shows the job's setup"); an edit shows its end at
 * once. Before, a job that was not a preset opened at its end: attempts, table and verdict at
 * once, the setup never shown (a newcomer's Airflow DAG import).
 */
import { act, cleanup, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ScenarioInput } from '../../engine';
import { renderBatchRun } from './batchTesting';

vi.setConfig({ testTimeout: 10_000 });

// Three daily dates, one attempt each (no retries asked for, none failing): 3 attempts.
const job: ScenarioInput = {
  version: 1,
  name: 'three days of loads',
  batch: {
    periods: 3,
    write: { mode: 'overwrite-partition' },
    source: [
      { id: 'a', date: '2024-03-10' },
      { id: 'b', date: '2024-03-11' },
    ],
  },
} as ScenarioInput;

async function mount() {
  const lab = renderBatchRun();
  await act(() => lab.actions.settled());
  return lab;
}

const attempts = () => screen.queryAllByTestId('batch-attempt');
const setup = () => screen.queryByTestId('batch-setup');

describe('a batch job opened from a file or a link', () => {
  afterEach(cleanup);

  it('opens at its start with its setup; an edit shows its end; another file opened starts again', async () => {
    const lab = await mount();
    // As Import and a share link open it (src/ui/io/IoTools.tsx, src/ui/share/shareSync.ts).
    act(() => lab.actions.loadScenario(job, { opened: true, replay: true }));
    await act(() => lab.actions.settled());
    expect(await screen.findByTestId('batch-setup')).not.toBeNull();
    expect(attempts()).toHaveLength(0);
    expect(screen.queryByTestId('batch-summary')).toBeNull();
    // An edit of it (the seed): its outcome at once, as an edit of a preset shows it.
    act(() => lab.actions.setSeed(7));
    await act(() => lab.actions.settled());
    expect(attempts()).toHaveLength(3);
    expect(setup()).toBeNull();
    // Another file opened while this one is on screen: at its start again.
    act(() => lab.actions.loadScenario({ ...job }, { opened: true, replay: true }));
    await act(() => lab.actions.settled());
    expect(setup()).not.toBeNull();
    expect(attempts()).toHaveLength(0);
  });

  it('one’s own job loaded as an edit (not opened as a link or file) shows its end, as before', async () => {
    const lab = await mount();
    act(() => lab.actions.loadScenario(job));
    await act(() => lab.actions.settled());
    expect(await screen.findAllByTestId('batch-attempt')).toHaveLength(3);
    expect(setup()).toBeNull();
  });
});
