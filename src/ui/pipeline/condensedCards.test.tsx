// @vitest-environment jsdom
/**
 * Condensed stage cards (projector mode, details folded): the words the stage's heading already
 * says — the producer's "app + Kafka producer", the report's "a report reading …" — stay for
 * screen readers only, through the `visually-hidden` class; uncondensed, they are in view.
 */
import { act, cleanup, render } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { LabProvider } from '../../store/LabContext';
import { presetLab } from '../testLab';
import { CondensedCardsContext } from './condensedCards';
import { ProducerStage } from './stages/ProducerStage';
import { ReaderStage } from './stages/ReaderStage';

// One inline run of a small preset (well under 1 s alone); wide for a shared machine.
vi.setConfig({ testTimeout: 15_000 });

afterEach(cleanup);

async function classes(condensed: boolean): Promise<string[]> {
  // at-least-once has no reader of its own: a report reads the sink ("a report reading sink…").
  const lab = presetLab('at-least-once');
  await act(() => lab.actions.settled());
  const view = lab.app.getState().view!;
  const { container } = render(
    <LabProvider lab={lab}>
      <CondensedCardsContext.Provider value={condensed}>
        <ProducerStage view={view} idx={view.n} t={0} />
        <ReaderStage view={view} idx={view.n} t={0} />
      </CondensedCardsContext.Provider>
    </LabProvider>,
  );
  return [
    container.querySelector('[aria-label="Producer"] .component-head > span:first-child')!,
    container.querySelector('[aria-label="Downstream reader"] .component > div:first-child')!,
  ].map((el) => `${el.textContent!.slice(0, 20)}: ${el.className}`);
}

describe('condensed stage cards', () => {
  it('keep the words their heading says for screen readers only', async () => {
    expect(await classes(true)).toEqual([
      'app + Kafka producer: visually-hidden',
      'a report reading sin: visually-hidden',
    ]);
  });

  it('show them uncondensed', async () => {
    expect(await classes(false)).toEqual(['app + Kafka producer: ', 'a report reading sin: ']);
  });
});
