/**
 * The engine explains the first 2,000 lost or duplicated events of a run; a bigger run's panel
 * says how many it covers, so "e1 … and 1,994 more" is not read as the whole loss.
 */
import { act, cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { ScenarioInput } from '../../engine';
import { createRunClient } from '../../platform/runClient';
import { createLab } from '../../store/labStore';
import { LabProvider } from '../../store/LabContext';
import { testIds } from '../testIds';
import { Explanations } from './Explanations';

const inline = createRunClient({ createWorker: null });

/** `count` events within 0.25 ms; the consumer starts after the run stops: every event is lost. */
const nothingProcessed = (count: number): ScenarioInput => ({
  version: 1,
  name: 'cut off before the consumer starts',
  workload: { generate: { count, intervalMs: 0.0001 } },
  processor: { type: 'consumer', 'auto.offset.reset': 'earliest', startAtMs: 10_000 },
  stopAtMs: 5_000,
});

async function mount(s: ScenarioInput) {
  const lab = createLab({ runner: inline, initial: s });
  render(
    <LabProvider lab={lab}>
      <Explanations />
    </LabProvider>,
  );
  await act(() => lab.actions.settled());
}

describe('Explanations of a big run', () => {
  afterEach(cleanup);

  it('2,500 lost: says the explanations cover the first 2,000', async () => {
    await mount(nothingProcessed(2500));
    expect(screen.getByTestId(testIds.explanationsCapped).textContent).toBe(
      'Explained: the first 2,000 of 2,500 events lost or duplicated.',
    );
  });

  it('100 lost: every one is explained, nothing said', async () => {
    await mount(nothingProcessed(100));
    expect(screen.getAllByTestId(testIds.explanation).length).toBeGreaterThan(0);
    expect(screen.queryByTestId(testIds.explanationsCapped)).toBeNull();
  });
});
