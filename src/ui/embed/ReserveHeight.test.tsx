/**
 * The height reserved (ReserveHeight.tsx): a stream player is laid out in place at its run's end
 * and its start only (its parts keep their fullest room from the first frame: useReserveRoom), a
 * batch schedule's hidden copy at each eighth too, with its end not yet seen (playing) and seen
 * (scrubbed back after the end). jsdom lays nothing out: the `.embed` says its height in `data-h`,
 * read by a stubbed getBoundingClientRect.
 */
import { act, cleanup, render } from '@testing-library/react';
import { useCallback, useRef, useState, type ReactNode } from 'react';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { LabProvider, useIdx, useView } from '../../store/LabContext';
import { PredictionProvider, usePredictions } from '../library/PredictionContext';
import { presetLab } from '../testLab';
import { unaskedSubject } from './embedSubject';
import { useMeasuring } from '../hooks/useMeasuring';
import { MeasureCopy, MeasureInPlace } from './ReserveHeight';

vi.setConfig({ testTimeout: 15_000 });

const rect = Element.prototype.getBoundingClientRect;
beforeAll(() => {
  Element.prototype.getBoundingClientRect = function (this: Element) {
    // The player's root says nothing: its height is its content's.
    const el = this as HTMLElement;
    const h = Number(el.dataset?.h ?? el.querySelector<HTMLElement>('[data-h]')?.dataset.h ?? 0);
    return { ...rect.call(this), height: h } as DOMRect;
  };
});
afterAll(() => {
  Element.prototype.getBoundingClientRect = rect;
  cleanup();
});

/**
 * A player 100 px tall, but 120 px at its start with its end not yet seen (the verdict folded,
 * "… Reveal now": merge-duplicate-source at 1280 px) and 150 px at 7/8 of the run with its end not
 * yet seen (the counters' card unfolded there: rebalance-midflight/upsert at 700 px, 96 px against
 * 91 seen). Each render's state is written to `seenAs`.
 */
function Sized({ n, at, seenAs }: { n: number; at: number; seenAs?: string[] }) {
  const seen = usePredictions()!.endSeen(useView()!.scenario);
  const measuring = useMeasuring();
  seenAs?.push(
    `${at === n ? 'end' : at} ${seen ? 'seen' : 'unseen'}${measuring ? ' measuring' : ''}`,
  );
  const h = seen ? 100 : at === 0 ? 120 : at === Math.round(n * 0.875) ? 150 : 100;
  return <div className="embed" data-h={h} />;
}

function Live({ seenAs }: { seenAs: string[] }) {
  const view = useView()!;
  return <Sized n={view.n} at={useIdx()} seenAs={seenAs} />;
}

/** A stream player measured in place, as EmbedApp's: active until its height is known. */
function InPlace({ onMeasured, seenAs }: { onMeasured: (h: number) => void; seenAs: string[] }) {
  const root = useRef<HTMLDivElement>(null);
  const [of] = useState(() => ({}));
  const [height, setHeight] = useState<number | null>(null);
  const measured = useCallback(
    (h: number) => {
      onMeasured(h);
      setHeight(h);
    },
    [onMeasured],
  );
  return (
    <div ref={root}>
      <MeasureInPlace root={root} of={of} active={height === null} onMeasured={measured}>
        <Live seenAs={seenAs} />
      </MeasureInPlace>
    </div>
  );
}

async function presetReady() {
  const lab = presetLab('lost-ack-retry/acks-1');
  await lab.actions.settled();
  return lab;
}

function within(lab: Awaited<ReturnType<typeof presetReady>>, children: ReactNode) {
  return (
    <LabProvider lab={lab}>
      <PredictionProvider subject={unaskedSubject(lab.app.getState().scenario)}>
        {children}
      </PredictionProvider>
    </LabProvider>
  );
}

describe('MeasureInPlace', () => {
  it("lays the live player out at its run's end, then at its start, and reserves the taller", async () => {
    const lab = await presetReady();
    const onMeasured = vi.fn();
    const seenAs: string[] = [];
    render(within(lab, <InPlace onMeasured={onMeasured} seenAs={seenAs} />));
    await act(() => vi.waitFor(() => expect(onMeasured).toHaveBeenCalled(), { timeout: 10_000 }));
    // 120 at the start (the verdict folded); 150 at 7/8 is not a state it is laid out in.
    expect(onMeasured.mock.calls).toEqual([[120]]);
    // The end first, measuring; then the start, live; the lab's own cursor never moved.
    expect(seenAs[0]).toBe('end seen measuring');
    expect(seenAs.at(-1)).toBe('0 unseen');
    expect(new Set(seenAs)).toEqual(new Set(['end seen measuring', '0 unseen']));
    expect(lab.cursor.getState().idx).toBe(0);
    cleanup();
  });
});

describe('MeasureCopy', () => {
  it('reserves a point before the end of a batch schedule as laid out with the end not yet seen', async () => {
    const lab = await presetReady();
    const onMeasured = vi.fn();
    // 8 steps: 7/8 is step 7.
    render(
      within(
        lab,
        <MeasureCopy onMeasured={onMeasured} steps={8}>
          {(at: number) => <Sized n={8} at={at} />}
        </MeasureCopy>,
      ),
    );
    await act(() => vi.waitFor(() => expect(onMeasured).toHaveBeenCalled(), { timeout: 10_000 }));
    cleanup();
    expect(onMeasured.mock.calls).toEqual([[150]]);
  });
});
