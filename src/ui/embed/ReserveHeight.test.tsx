/**
 * The measuring copy (ReserveHeight.tsx) reserves the tallest of every state a reader can stand
 * in: each point before the run's end is laid out with the end not yet seen (playing) and seen
 * (scrubbed back after the end). jsdom lays nothing out: the copy's `.embed` says its height in
 * `data-h`, read by a stubbed getBoundingClientRect.
 */
import { act, cleanup, render } from '@testing-library/react';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { LabProvider, useIdx, useView } from '../../store/LabContext';
import { PredictionProvider, usePredictions } from '../library/PredictionContext';
import { presetLab } from '../testLab';
import { unaskedSubject } from './embedSubject';
import { MeasureAtEnd } from './ReserveHeight';

vi.setConfig({ testTimeout: 15_000 });

const rect = Element.prototype.getBoundingClientRect;
beforeAll(() => {
  Element.prototype.getBoundingClientRect = function (this: Element) {
    const h = Number((this as HTMLElement).dataset?.h ?? 0);
    return { ...rect.call(this), height: h } as DOMRect;
  };
});
afterAll(() => {
  Element.prototype.getBoundingClientRect = rect;
  cleanup();
});

/**
 * A player 100 px tall, but 150 px at 7/8 of the run with its end not yet seen (the counters'
 * card unfolded there: rebalance-midflight/upsert at 700 px, 96 px against 91 seen).
 */
function Copy() {
  const view = useView()!;
  const idx = useIdx();
  const seen = usePredictions()!.endSeen(view.scenario);
  const h = !seen && idx === Math.round(view.n * 0.875) ? 150 : 100;
  return <div className="embed" data-h={h} />;
}

describe('MeasureAtEnd', () => {
  it('reserves a point before the end as laid out with the end not yet seen', async () => {
    const lab = presetLab('lost-ack-retry/acks-1');
    await lab.actions.settled();
    const onMeasured = vi.fn();
    render(
      <LabProvider lab={lab}>
        <PredictionProvider subject={unaskedSubject(lab.app.getState().scenario)}>
          <MeasureAtEnd onMeasured={onMeasured}>
            <Copy />
          </MeasureAtEnd>
        </PredictionProvider>
      </LabProvider>,
    );
    await act(() => vi.waitFor(() => expect(onMeasured).toHaveBeenCalled(), { timeout: 10_000 }));
    expect(onMeasured.mock.calls).toEqual([[150]]);
  });
});
