/**
 * The measuring copy (ReserveHeight.tsx): a stream player is laid out at its run's end only (its
 * parts keep their fullest room from the first frame: useReserveRoom), a batch schedule at each
 * eighth too, with its end not yet seen (playing) and seen (scrubbed back after the end). jsdom
 * lays nothing out: the copy's `.embed` says its height in `data-h`, read by a stubbed
 * getBoundingClientRect.
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
  return <Sized n={view.n} at={idx} />;
}

function Sized({ n, at }: { n: number; at: number }) {
  const seen = usePredictions()!.endSeen(useView()!.scenario);
  const h = !seen && at === Math.round(n * 0.875) ? 150 : 100;
  return <div className="embed" data-h={h} />;
}

/** The heights MeasureAtEnd reports for a copy given `steps` (a batch schedule) or not. */
async function measured(steps?: number): Promise<unknown[][]> {
  const lab = presetLab('lost-ack-retry/acks-1');
  await lab.actions.settled();
  const onMeasured = vi.fn();
  render(
    <LabProvider lab={lab}>
      <PredictionProvider subject={unaskedSubject(lab.app.getState().scenario)}>
        <MeasureAtEnd onMeasured={onMeasured} steps={steps}>
          {steps === undefined ? <Copy /> : (at: number) => <Sized n={steps} at={at} />}
        </MeasureAtEnd>
      </PredictionProvider>
    </LabProvider>,
  );
  await act(() => vi.waitFor(() => expect(onMeasured).toHaveBeenCalled(), { timeout: 10_000 }));
  cleanup();
  return onMeasured.mock.calls;
}

describe('MeasureAtEnd', () => {
  it("lays a stream player out at its run's end only", async () => {
    // 150 px at 7/8 of the run with its end not yet seen: not a state the copy is laid out in.
    expect(await measured()).toEqual([[100]]);
  });

  it('reserves a point before the end of a batch schedule as laid out with the end not yet seen', async () => {
    // 8 steps: 7/8 is step 7.
    expect(await measured(8)).toEqual([[150]]);
  });
});
