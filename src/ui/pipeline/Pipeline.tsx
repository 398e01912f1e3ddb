import { useEffect, useRef, useState, type RefObject } from 'react';
import { timeAtIndex } from '../../views/run/at';
import { useIdx, useView } from '../../store/LabContext';
import { useMeasuring } from '../hooks/useMeasuring';
import { testIds } from '../testIds';
import { BrokerStage } from './stages/BrokerStage';
import { ProcessorStage } from './stages/ProcessorStage';
import { ProducerStage } from './stages/ProducerStage';
import { ReaderStage } from './stages/ReaderStage';
import { SinkStage } from './stages/SinkStage';
import { TokenLayer } from './TokenLayer';
import { useMoreBelow } from './useMoreBelow';
import { useLandmarkName } from '../landmarkName';

/**
 * The pipeline, left to right as the data flows, with the messages in flight drawn over it.
 * Stages re-render when the cursor crosses an engine event (`idx`), not every frame; only the
 * token layer follows the clock continuously.
 */
export function Pipeline() {
  const view = useView();
  const idx = useIdx();
  const ref = useRef<HTMLElement>(null);
  const scroller = useRef<HTMLDivElement>(null);
  // The embed's measuring pass draws no tokens and no scroll cues: they take no room.
  const seen = !useMeasuring();
  const more = useScrollEdges(scroller, ref, seen);
  useMoreBelow(ref, view, idx, seen);
  const kind = view && view.scenario.processor.type !== 'consumer' ? ' wide-processor' : '';
  const readers = view && view.scenario.readers.length > 0 ? ' has-readers' : '';
  // The stages keep their minimum widths; on a narrow screen (or a large font) the pipeline
  // scrolls sideways inside its own box rather than pushing the page wider than the window. A
  // fade and a "scroll →" cue at an edge say there is more of it beyond that edge.
  const landmark = useLandmarkName('pipeline');
  return (
    <div
      className="pipeline-frame"
      data-more-left={more.left || undefined}
      data-more-right={more.right || undefined}
    >
      <div className="pipeline-scroll" ref={scroller}>
        <main
          ref={ref}
          id="pipeline"
          tabIndex={-1}
          className={`pipeline${kind}${readers}`}
          aria-label="Pipeline"
          {...landmark}
          data-testid={testIds.pipeline}
        >
          {view ? (
            <>
              <ProducerStage view={view} idx={idx} t={timeAtIndex(view, idx)} />
              <BrokerStage view={view} idx={idx} t={timeAtIndex(view, idx)} />
              <ProcessorStage view={view} idx={idx} t={timeAtIndex(view, idx)} />
              <SinkStage view={view} idx={idx} t={timeAtIndex(view, idx)} />
              <ReaderStage view={view} idx={idx} t={timeAtIndex(view, idx)} />
            </>
          ) : (
            <p className="muted">Running the scenario…</p>
          )}
          {seen && <TokenLayer container={ref} />}
        </main>
      </div>
      <span className="scroll-fade left" aria-hidden="true" />
      <span className="scroll-fade right" aria-hidden="true" />
      <span className="scroll-cue" aria-hidden="true" data-testid={testIds.pipelineScrollCue}>
        scroll →
      </span>
    </div>
  );
}

/**
 * Whether a sideways-scrolling box has more content beyond its left and right edges, kept up to
 * date as it scrolls and as it or its content (`content`) changes size.
 */
function useScrollEdges(
  box: RefObject<HTMLElement | null>,
  content: RefObject<HTMLElement | null>,
  enabled: boolean,
): { left: boolean; right: boolean } {
  const [edges, setEdges] = useState({ left: false, right: false });
  useEffect(() => {
    const el = box.current;
    if (!el || !enabled) return;
    const update = () => {
      // A pixel of slack: zoomed layouts leave fractional widths.
      const left = el.scrollLeft > 1;
      const right = el.scrollLeft + el.clientWidth < el.scrollWidth - 1;
      setEdges((e) => (e.left === left && e.right === right ? e : { left, right }));
    };
    update();
    el.addEventListener('scroll', update, { passive: true });
    const ro = typeof ResizeObserver === 'function' ? new ResizeObserver(update) : null;
    ro?.observe(el);
    if (content.current) ro?.observe(content.current);
    return () => {
      el.removeEventListener('scroll', update);
      ro?.disconnect();
    };
  }, [box, content, enabled]);
  return edges;
}
